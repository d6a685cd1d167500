//! The historical programs themselves, through their adaptor files: the 1976 Microchess binary
//! on the `kim-1` personality and the published Sargon on `jupiter-3`, each playing a full game
//! against the native engine (depth 1) through `kempelen uci --program`, driven by
//! python-chess. The programs are not part of Kempelen: these tests are ignored, and run only
//! when `KEMPELEN_HISTORICAL` names a folder holding `microchess.h65` (gbraad/Microchess),
//! `microchess_drictor.asm` (Rictor's serial version, netzerohero/MicrochessRP6502) and
//! `sargon-z80.asm` (retro-sargon's `stages/sargon-z80.asm`); the adaptors assemble the two
//! sources, unmodified, with Kempelen's assembler and its dialect options:
//!
//! ```text
//! KEMPELEN_HISTORICAL=DIR cargo test -p kempelen --test historical -- --ignored --nocapture
//! ```
//!
//! Each prints the emulated time of every move of the program at its machine's clock.

use std::path::Path;
use std::process::Command;

fn play(adaptor: &str, file: &str) {
    let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
        return;
    };
    assert!(
        Path::new(&dir).join(file).exists(),
        "{dir}/{file} is missing (see the adaptor file for where to get it)"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .args([
            &format!("{root}/tests/historical_uci.py"),
            env!("CARGO_BIN_EXE_kempelen"),
            &format!("{root}/adaptors/{adaptor}"),
            "white",
            "400",
        ])
        .output()
        .expect("run python3 with python-chess");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = stdout
        .lines()
        .find(|l| l.starts_with("RESULT"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let f: Vec<&str> = result.split_whitespace().collect();
    assert_eq!(f[3], "True", "a proper end of the game: {result}");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65; a game takes about 2 minutes"]
fn microchess_1976_plays_a_full_game_on_the_kim1() {
    play("microchess-kim1.toml", "microchess.h65");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; a game takes several minutes"]
fn sargon_plays_a_full_game_on_the_jupiter3() {
    play("sargon-jupiter3.toml", "sargon-z80.asm");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess_drictor.asm; a game takes about 2 minutes"]
fn microchess_rictor_plays_a_full_game_on_its_sbc() {
    play("microchess-rictor.toml", "microchess_drictor.asm");
}

/// The historical programs as tournament players: `kempelen tournament` runs
/// `kempelen uci --program ADAPTOR` as a UCI engine, one game from the start position (the
/// adaptors play White from the first move) against the reference profile at depth 1; the
/// game must end by the rules.
fn tournament_game(label: &str, adaptor: &str, file: &str) {
    let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
        return;
    };
    assert!(
        Path::new(&dir).join(file).exists(),
        "{dir}/{file} is missing"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    let scratch = std::env::temp_dir().join(format!("kempelen-historical-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let start = scratch.join("start.epd");
    std::fs::write(
        &start,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_kempelen");
    let player = format!("{label}=uci:{bin} uci --program {root}/adaptors/{adaptor}");
    let out = Command::new(bin)
        .args([
            "tournament",
            &player,
            "reference",
            "--depth",
            "1",
            "--games",
            "1",
            "--openings",
            start.to_str().unwrap(),
            "--move-timeout",
            "120",
            "--json",
        ])
        .output()
        .expect("run kempelen tournament");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{stdout}");
    assert!(!stdout.contains("engine failure"), "{stdout}");
    assert!(!stdout.contains("forfeit"), "{stdout}");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; a game takes about a minute"]
fn sargon_plays_a_tournament_game() {
    tournament_game("sargon1978", "sargon-jupiter3.toml", "sargon-z80.asm");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65; a game takes about a minute"]
fn microchess_1976_plays_a_tournament_game() {
    tournament_game("microchess1976", "microchess-kim1.toml", "microchess.h65");
}
