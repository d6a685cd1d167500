//! The Z80 engine sources stay in the syntax that every supported assembler accepts:
//! Kempelen's assembler, pasmo and z80asm must produce the same bytes, and the image must fit
//! the engine's ROM budget. Every port's bundled sources must be the files of its folder.

use std::path::Path;
use std::process::Command;

use kempelen_roms::PortEngine;
use kempelen_roms::port::{self, Port};

/// The engine's ROM budget, the Zobrist table included: the port's limit.
const ROM_BUDGET: usize = port::Z80.rom_limit;

fn assemble(tool: &str, out: &Path) -> Vec<u8> {
    let dir = port::Z80.source_dir();
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
    let k = PortEngine::assemble(&port::Z80).unwrap().rom().to_vec();
    assert_eq!(k, a, "Kempelen's assembler and pasmo differ");
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

kempelen_roms::port_tests!(
    bundled_sources_are_the_source_files_of_the_folder,
    |port: &'static Port| {
        let dir = port.source_dir();
        for (name, text) in port.sources() {
            let on_disk = std::fs::read_to_string(dir.join(name)).unwrap();
            assert_eq!(&on_disk, text, "{name}");
        }
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".asm") || n.ends_with(".inc"))
            .collect();
        files.sort();
        let bundled: Vec<String> = port.sources().iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(files, bundled);
        let engine = PortEngine::assemble(port).unwrap();
        assert!(engine.rom().len() <= port.rom_limit);
    }
);
