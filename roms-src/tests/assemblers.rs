//! The engine sources stay in the syntax that every supported assembler accepts: pasmo and
//! z80asm must produce the same bytes, and the image must fit the engine's ROM budget.

use std::path::Path;
use std::process::Command;

/// The engine's ROM budget (issue 5): 8 KB, the Zobrist table included.
const ROM_BUDGET: usize = 8192;

fn assemble(tool: &str, out: &Path) -> Vec<u8> {
    let dir = kempelen_roms::z80::source_dir();
    let status = match tool {
        "pasmo" => Command::new("pasmo")
            .current_dir(&dir)
            .args(["--bin", "engine.asm"])
            .arg(out)
            .output(),
        _ => Command::new("z80asm")
            .current_dir(&dir)
            .args(["-o"])
            .arg(out)
            .arg("engine.asm")
            .output(),
    }
    .unwrap_or_else(|e| panic!("{tool} could not be started: {e}"));
    assert!(
        status.status.success() && status.stderr.is_empty(),
        "{tool} failed:\n{}{}",
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    std::fs::read(out).unwrap()
}

#[test]
fn pasmo_and_z80asm_agree_and_the_engine_fits_its_rom() {
    let tmp = std::env::temp_dir().join(format!("kempelen-asm-diff-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let a = assemble("pasmo", &tmp.join("pasmo.bin"));
    let b = assemble("z80asm", &tmp.join("z80asm.bin"));
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(a.len(), b.len(), "image sizes differ");
    if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
        panic!(
            "first difference at {i:#06x}: pasmo {:02x}, z80asm {:02x}",
            a[i], b[i]
        );
    }
    assert!(
        a.len() <= ROM_BUDGET,
        "the engine takes {} bytes of ROM",
        a.len()
    );
}
