//! An adapted program run without a thread of its own, from files given by name (as a page's
//! file picker gives them): the project's own Z80 console front end, assembled from its sources
//! held in memory, plays the same moves on the caller's thread as on a thread of its own, and
//! a file whose SHA-256 is not the adaptor's is refused.

use kempelen_adaptor::files::PickedFiles;
use kempelen_adaptor::{Adaptor, AdaptorEngine};
use kempelen_engine::{Engine, Game, Limits, SearchControl};
use std::path::Path;

/// The shipped adaptor file of the console front end, assembling `console.asm` itself.
fn adaptor_text() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shipped = std::fs::read_to_string(root.join("adaptors/kempelen-console-z80.toml")).unwrap();
    assert!(shipped.contains("file = \"console.bin\""));
    shipped.replace(
        "file = \"console.bin\"",
        "file = \"console.asm\"\nassemble = { cpu = \"z80\" }",
    )
}

/// The console's sources, picked by name.
fn picked() -> PickedFiles {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms-src/z80");
    let mut files = PickedFiles::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".asm") || name.ends_with(".inc") {
            files.add(&name, std::fs::read(&p).unwrap());
        }
    }
    files
}

fn best(engine: &mut AdaptorEngine, game: &Game) -> String {
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let r = engine
        .search(game, &limits, &SearchControl::default())
        .unwrap();
    r.best.unwrap().to_uci()
}

#[test]
fn the_program_plays_the_same_on_the_callers_thread_from_picked_files() {
    let text = adaptor_text();
    let name = Path::new("kempelen-console-z80.toml");
    let mut inline =
        AdaptorEngine::with_thread(Adaptor::from_text(name, &text, &picked()).unwrap(), false);
    let mut threaded =
        AdaptorEngine::with_thread(Adaptor::from_text(name, &text, &picked()).unwrap(), true);
    let mut game =
        Game::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    for _ in 0..3 {
        let a = best(&mut inline, &game);
        let b = best(&mut threaded, &game);
        assert_eq!(a, b);
        game.push_uci(&a).unwrap();
        assert_eq!(inline.last_search(), threaded.last_search());
    }
}

#[test]
fn a_picked_file_is_checked_against_its_sha256() {
    let mut files = PickedFiles::new();
    files.add("console.bin", vec![0xC3, 0x00, 0x00]);
    let text = "name = \"x\"\ncpu = \"z80\"\n[[image]]\nfile = \"$KEMPELEN_HISTORICAL/console.bin\"\nsha256 = \"00\"\nat = \"0000\"\n[keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\n[reply]\npattern = '(?P<move>[a-h][1-8][a-h][1-8])'\n";
    let e = Adaptor::from_text(Path::new("x.toml"), text, &files)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("SHA-256") && e.contains("the adaptor expects 00"),
        "{e}"
    );
    let missing = Adaptor::from_text(Path::new("x.toml"), text, &PickedFiles::new())
        .err()
        .unwrap()
        .to_string();
    assert!(missing.contains("console.bin"), "{missing}");
}
