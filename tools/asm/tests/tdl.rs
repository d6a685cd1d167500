//! The TDL dialect on its own (`--dialect tdl`): every TDL form of `tests/tdl/forms.txt`
//! against the Zilog form it stands for (the Zilog side also through pasmo and z80asm when
//! they are installed), every TDL form of the spelling table exercised there, and every
//! documented Z80 instruction spelled in TDL by the disassembler assembling back to its bytes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use kempelen_asm::isa::tdl::{self, Slot};
use kempelen_asm::source::MemorySource;
use kempelen_asm::{Assembly, Cpu, Dialect, Options, assemble, decode, isa};

const ORG: u16 = 0x4000;

/// The `TDL | Zilog` lines of tests/tdl/forms.txt.
fn forms() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tdl/forms.txt");
    let text = std::fs::read_to_string(&path).expect("tests/tdl/forms.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (tdl, zilog) = l
                .split_once('|')
                .unwrap_or_else(|| panic!("no '|' in {l:?}"));
            (tdl.trim().to_string(), zilog.trim().to_string())
        })
        .collect()
}

fn assemble_text(dialect: Dialect, text: &str) -> Assembly {
    let files = MemorySource::new().with("forms.asm", text);
    let options = Options {
        dialect,
        ..Options::new(Cpu::Z80)
    };
    let out = assemble("forms.asm", &files, &options);
    assert!(out.is_ok(), "{}", out.report());
    out
}

/// The bytes of each source line after the first (the origin) in the listing.
fn per_line(out: &Assembly) -> Vec<Vec<u8>> {
    out.listing
        .lines
        .iter()
        .skip(1)
        .map(|l| l.bytes.clone())
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("kempelen-asm-tdl")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The bytes `program` writes for `source` (in `dir`), or `None` when it is not installed.
fn reference(program: &str, args: &[&str], dir: &Path) -> Option<Vec<u8>> {
    let output = match Command::new(program).args(args).current_dir(dir).output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "SKIPPED: the {program} side ({program} is not installed: {e}; tools/test.sh installs it)"
            );
            return None;
        }
    };
    assert!(
        output.status.success(),
        "{program} {args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(std::fs::read(dir.join(format!("{program}.bin"))).expect("reference output"))
}

#[test]
fn every_tdl_form_gives_the_bytes_of_its_zilog_form() {
    let pairs = forms();
    let tdl_text: String = std::iter::once(format!("        .LOC    {ORG:04X}H\n"))
        .chain(pairs.iter().map(|(t, _)| format!("        {t}\n")))
        .collect();
    let zilog_text: String = std::iter::once(format!("        org     {ORG:04X}h\n"))
        .chain(pairs.iter().map(|(_, z)| format!("        {z}\n")))
        .collect();
    let tdl = assemble_text(Dialect::Tdl, &tdl_text);
    let zilog = assemble_text(Dialect::Kempelen, &zilog_text);
    let (tdl_lines, zilog_lines) = (per_line(&tdl), per_line(&zilog));
    assert_eq!(tdl_lines.len(), pairs.len());
    for ((t, z), (tb, zb)) in pairs.iter().zip(tdl_lines.iter().zip(&zilog_lines)) {
        assert!(!zb.is_empty(), "{z} assembled to nothing");
        assert_eq!(tb, zb, "{t} (TDL) and {z} (Zilog) differ");
    }
    assert_eq!(tdl.image, zilog.image);

    // The Zilog column through the reference assemblers.
    let dir = scratch("forms");
    std::fs::write(dir.join("forms.asm"), &zilog_text).expect("write source");
    let pasmo = reference("pasmo", &["--bin", "forms.asm", "pasmo.bin"], &dir);
    let z80asm = reference("z80asm", &["-o", "z80asm.bin", "forms.asm"], &dir);
    for (name, bytes) in [("pasmo", pasmo), ("z80asm", z80asm)] {
        if let Some(bytes) = bytes {
            assert!(
                bytes == zilog.image.bytes,
                "{name} and Kempelen differ on the Zilog column"
            );
        }
    }
    eprintln!("{} TDL forms equal their Zilog forms", pairs.len());
}

/// Every line of the spelling table is exercised by some line of forms.txt: its mnemonic,
/// its number of operands, and its literal register names.
#[test]
fn forms_txt_covers_the_spelling_table() {
    let pairs = forms();
    let lines: Vec<(String, Vec<String>)> = pairs
        .iter()
        .map(|(t, _)| {
            let (m, ops) = t.split_once(' ').unwrap_or((t, ""));
            let ops = ops
                .split(',')
                .filter(|o| !o.is_empty())
                .map(|o| o.to_string())
                .collect();
            (m.to_string(), ops)
        })
        .collect();
    for form in tdl::forms() {
        let covered = lines.iter().any(|(m, ops)| {
            m == form.mnemonic
                && ops.len() == form.slots.len()
                && form.slots.iter().zip(ops).all(|(slot, op)| match slot {
                    Slot::Literal(l) => l == op,
                    _ => true,
                })
        });
        assert!(covered, "{} is not in tests/tdl/forms.txt", form.template);
    }
    for m in tdl::mnemonics() {
        assert!(lines.iter().any(|(l, _)| l == m), "{m} is not in forms.txt");
    }
}

/// The disassembler's TDL spelling of every documented Z80 instruction assembles (with
/// `--dialect tdl`) back to the same bytes.
#[test]
fn every_instruction_spelled_in_tdl_assembles_back() {
    let mut text = format!("        .LOC    {ORG:04X}H\n");
    let mut expected = Vec::new();
    let mut addr = ORG;
    for instr in isa::instructions(Cpu::Z80) {
        let bytes = common::encode(instr, common::SAMPLE);
        let d = decode(Cpu::Z80, &bytes, addr).expect("decodes");
        let values = isa::z80::values(instr, d.bytes(), addr);
        let spelled = tdl::spell(instr, &values, None)
            .unwrap_or_else(|| panic!("{} has no TDL spelling", instr.syntax()));
        text.push_str(&format!("        {spelled}\n"));
        expected.extend_from_slice(&bytes);
        addr += bytes.len() as u16;
    }
    let out = assemble_text(Dialect::Tdl, &text);
    assert_eq!(out.image.origin, ORG);
    for (i, (ours, want)) in out.image.bytes.iter().zip(&expected).enumerate() {
        assert_eq!(
            ours,
            want,
            "byte {i} at ${:04X} differs (listing: {})",
            usize::from(ORG) + i,
            out.listing
        );
    }
    assert_eq!(out.image.bytes.len(), expected.len());
}

/// docs/ASSEMBLER.md's table of TDL's mnemonics is the spelling table.
#[test]
fn the_documented_table_is_the_spelling_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ASSEMBLER.md");
    let doc = std::fs::read_to_string(&path).expect("docs/ASSEMBLER.md");
    let mut documented = Vec::new();
    for line in doc.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        for pair in cells[1..cells.len() - 1].chunks(2) {
            if let [t, z] = pair
                && !t.is_empty()
            {
                documented.push((
                    t.trim_matches('`').to_string(),
                    z.trim_matches('`').to_string(),
                ));
            }
        }
    }
    for &(t, z) in tdl::SPELLINGS {
        assert!(
            documented.iter().any(|(dt, dz)| dt == t && dz == z),
            "`{t}` | `{z}` is not in docs/ASSEMBLER.md's table"
        );
    }
    let rows = documented
        .iter()
        .filter(|(t, _)| tdl::SPELLINGS.iter().any(|(st, _)| st == t))
        .count();
    assert_eq!(
        rows,
        tdl::SPELLINGS.len(),
        "the table has lines the spelling table has not"
    );
}
