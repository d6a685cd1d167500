//! The page in a real browser (Debian's headless Chromium, no network): the web crate's own
//! tests through wasm-bindgen-test, and the end-to-end flows of tests/web_flows.py through
//! WebDriver, compared with what the command line answers on the same input. Both build the
//! page for wasm32 in Cargo.toml's `web` profile (a few minutes cold, shared with `tools/web.sh
//! build`); a test whose tool is missing prints `SKIPPED: <reason>` and passes (tools/test.sh
//! installs them).
//!
//! The flows save a screenshot each in `target/web-shots/` (`KEMPELEN_WEB_SHOTS=docs/web`
//! writes the ones the README and docs/WEB.md show).

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

/// Why the browser tests cannot run here, if they cannot.
fn missing_tools(python: bool) -> Option<String> {
    for (path, package) in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")] {
        if !Path::new(path).exists() {
            return Some(format!(
                "{path} is not installed (apt-get install {package})"
            ));
        }
    }
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    let has_wasm = targets.is_ok_and(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .any(|l| l == "wasm32-unknown-unknown")
    });
    if !has_wasm {
        return Some(
            "the wasm32-unknown-unknown target is not installed (rustup target add wasm32-unknown-unknown)"
                .into(),
        );
    }
    if !on_path("wasm-bindgen") || !on_path("wasm-bindgen-test-runner") {
        return Some("wasm-bindgen-cli is not installed (tools/web.sh tools)".into());
    }
    if python {
        let selenium = Command::new("python3")
            .args(["-c", "import selenium"])
            .output();
        if !selenium.is_ok_and(|o| o.status.success()) {
            return Some("python3 with selenium is not installed (pip install selenium)".into());
        }
    }
    None
}

fn skip_without_tools(python: bool) -> bool {
    match missing_tools(python) {
        Some(reason) => {
            eprintln!("SKIPPED: {reason}");
            true
        }
        None => false,
    }
}

/// The web crate's wasm-bindgen tests, in Chromium (a dedicated worker, as the page runs).
#[test]
fn wasm_tests_in_chromium() {
    if skip_without_tools(false) {
        return;
    }
    let out = Command::new(env!("CARGO"))
        .args([
            "test",
            "-p",
            "kempelen-web",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "web",
        ])
        .current_dir(Path::new(ROOT).join("web"))
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        )
        .output()
        .expect("cargo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the wasm tests failed in Chromium");
    assert!(
        text.contains("test result: ok. 7 passed"),
        "the browser ran fewer tests than web/tests/browser.rs has"
    );
}

/// Runs the kempelen binary; its standard output parsed as JSON.
fn kempelen_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("kempelen runs");
    assert!(
        out.status.success(),
        "kempelen {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("kempelen --json prints JSON")
}

/// What the command line answers on the flows' inputs.
fn expectations() -> serde_json::Value {
    let z80 = kempelen_json(&[
        "search",
        "--cpu",
        "z80",
        "--machine",
        "trs-80",
        "--depth",
        "3",
        "--moves",
        "e2e4",
        "--json",
    ]);
    serde_json::json!({
        "compare": compare_expectations(),
        "compare_suite": compare_suite_expectations(),
        "z80_reply": {
            "machine": "trs-80",
            "depth": 3,
            "best": z80["best"],
            "nodes": z80["nodes"],
            "cycles": z80["cycles"],
        },
        "tree": tree_expectations(),
        "tartan_nodes": kempelen_json(&["tree", "--algorithm", "minimax", "--json"])["nodes"],
        "asm_error": asm_error_expectations(),
        "asm_run": asm_run_expectations(),
        "lessons": lesson_expectations(),
        "program_debug": program_debug_expectations(),
        "historical": historical_expectations(),
    })
}

/// The program debugger on minisearch (both CPUs) as `kempelen debug` gives it: the first
/// stop at `sr_made` (its cycles, PC and the move MLCUR holds) on an opening at depth 2, and
/// its tree beside its profile's (`kempelen tree --program --beside-profile`); with
/// KEMPELEN_HISTORICAL, the files of Sargon's book text and of Microchess with its listing.
fn program_debug_expectations() -> serde_json::Value {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let stops: Vec<serde_json::Value> = ["z80", "6502"]
        .iter()
        .map(|cpu| {
            let program = Path::new(ROOT).join(format!("adaptors/minisearch-{cpu}.toml"));
            let j = kempelen_json(&[
                "debug",
                "--program",
                program.to_str().unwrap(),
                "--fen",
                fen,
                "--level",
                "2",
                "--break",
                "sr_made",
                "--stops",
                "2",
                "--json",
            ]);
            let stop = &j["stops"][1]["stop"];
            let mlcur = stop["variables"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["name"] == "MLCUR")
                .unwrap()["text"]
                .clone();
            let tree = kempelen_json(&[
                "tree",
                "--program",
                program.to_str().unwrap(),
                "--fen",
                fen,
                "--depth",
                "2",
                "--beside-profile",
                "--json",
            ]);
            serde_json::json!({
                "program": format!("minisearch-{cpu}"),
                "cycles": stop["cycles"],
                "pc": stop["pc"],
                "mlcur": mlcur,
                "tree": {
                    "nodes": tree["program"]["nodes"],
                    "agree": tree["program"]["comparison"]["agree"],
                    "found": tree["program"]["comparison"]["found"],
                    "profile_nodes": tree["profile"]["nodes"],
                },
            })
        })
        .collect();
    let historical = std::env::var_os("KEMPELEN_HISTORICAL")
        .map(PathBuf::from)
        .map(|dir| {
            // Their trees as `kempelen tree --program --beside-profile` counts them, at the depths
            // the Programs view opens them with (Sargon 2, Microchess 1).
            let tree = |adaptor: &str, depth: &str| {
                let program = Path::new(ROOT).join("adaptors").join(adaptor);
                let t = kempelen_json(&[
                    "tree",
                    "--program",
                    program.to_str().unwrap(),
                    "--fen",
                    fen,
                    "--depth",
                    depth,
                    "--beside-profile",
                    "--json",
                ]);
                serde_json::json!({
                    "nodes": t["program"]["nodes"],
                    "agree": t["program"]["comparison"]["agree"],
                    "found": t["program"]["comparison"]["found"],
                    "profile_nodes": t["profile"]["nodes"],
                })
            };
            serde_json::json!({
                "sargon": [dir.join("sargon-z80.asm"), dir.join("sargon2.asm")],
                "microchess": [dir.join("microchess.h65"), dir.join("microchess_drictor.asm")],
                "trees": {
                    "sargon": tree("sargon-book-jupiter3.toml", "2"),
                    "microchess": tree("microchess-kim1.toml", "1"),
                },
            })
        });
    serde_json::json!({ "fen": fen, "depth": 2, "stops": stops, "historical": historical })
}

/// With KEMPELEN_HISTORICAL set: the real programs' moves on a position, as `kempelen uci
/// --program` plays them, the files the page is given, and the boards the page must read from
/// the program's RAM: the position given (before its turn) and the position after the move
/// `kempelen uci --program` played, by Kempelen's own rules (this position needs nothing a
/// program's board lacks: no castling, en passant or promotion is near); `null` without it.
fn historical_expectations() -> serde_json::Value {
    use std::io::{BufRead, BufReader, Write};
    let Some(dir) = std::env::var_os("KEMPELEN_HISTORICAL").map(PathBuf::from) else {
        return serde_json::Value::Null;
    };
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let cases = [
        ("microchess", "microchess-kim1.toml", "microchess.h65", 1),
        ("sargon", "sargon-jupiter3.toml", "sargon-z80.asm", 2),
    ];
    let programs: Vec<serde_json::Value> = cases
        .iter()
        .map(|(id, adaptor, file, depth)| {
            let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
                .args(["uci", "--program"])
                .arg(Path::new(ROOT).join("adaptors").join(adaptor))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("kempelen uci --program runs");
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "position fen {fen}\ngo depth {depth}").unwrap();
            let best = BufReader::new(child.stdout.take().unwrap())
                .lines()
                .map_while(Result::ok)
                .find_map(|l| l.strip_prefix("bestmove ").map(|m| m.to_string()))
                .expect("bestmove");
            writeln!(stdin, "quit").unwrap();
            child.wait().unwrap();
            let best = best.split(' ').next().unwrap().to_string();
            let placement = |g: &kempelen_engine::Game| {
                let f = g.position().to_fen();
                f.split(' ').next().unwrap().to_string()
            };
            let mut game = kempelen_engine::Game::from_fen(fen).unwrap();
            let before = placement(&game);
            game.push_uci(&best).expect("the program's move is legal");
            serde_json::json!({
                "id": id,
                "file": dir.join(file),
                "fen": fen,
                "depth": depth,
                "best": best,
                "board_before": before,
                "board_after": placement(&game),
            })
        })
        .collect();
    serde_json::json!({ "programs": programs })
}

/// The tree view's flows: `kempelen tree --json` on a position at depth 2 (the reference
/// search's last iteration), a node two plies down and its parent with their positions.
fn tree_expectations() -> serde_json::Value {
    use kempelen_engine::{Move, Position};
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
    let args = [
        "tree",
        "--algorithm",
        "reference",
        "--depth",
        "2",
        "--width",
        "0",
    ];
    let tree = kempelen_json(&[&args[..], &["--fen", fen, "--json"]].concat());
    let nodes = tree["tree"]
        .as_array()
        .expect("kempelen tree --json has its tree");
    // The node's position, replayed from the root along the moves into it.
    let position_of = |number: u64| {
        let mut path = Vec::new();
        let mut at = number;
        while let Some(parent) = nodes[at as usize - 1]["parent"].as_u64() {
            path.push(nodes[at as usize - 1]["move"].as_str().unwrap().to_string());
            at = parent;
        }
        let mut pos = Position::from_fen(fen).unwrap();
        for mv in path.iter().rev() {
            if mv == "null" {
                pos.make_null();
            } else {
                let m: Move = pos.parse_uci(mv).unwrap();
                pos.play(m);
            }
        }
        pos
    };
    let node = nodes
        .iter()
        .rev()
        .find(|n| n["ply"] == 2 && n["kind"] == "search" && n["move"] != "null")
        .expect("a node two plies down");
    let number = node["number"].as_u64().unwrap();
    let parent = node["parent"].as_u64().unwrap();
    let at = position_of(number);
    let placement = at.to_fen();
    let pieces = placement.split(' ').next().unwrap().chars();
    let alphabeta = kempelen_json(&["tree", "--depth", "3", "--fen", fen, "--json"]);
    serde_json::json!({
        "fen": fen,
        "depth": 2,
        "nodes": tree["nodes"],
        "node": number,
        "node_fen": at.to_fen(),
        "node_pieces": pieces.filter(|c| c.is_ascii_alphabetic()).count(),
        "parent": parent,
        "parent_fen": position_of(parent).to_fen(),
        "alphabeta_depth": 3,
        "alphabeta_nodes": alphabeta["nodes"],
    })
}

/// A broken 6502 program: where `kempelen asm` puts its error.
fn asm_error_expectations() -> serde_json::Value {
    let dir = Path::new(ROOT).join("target/web-test-asm");
    std::fs::create_dir_all(&dir).expect("creates the folder");
    let source = "        .org $0200\nstart:  ldx #5\nloop:   dex\n        bne lop\n        brk\n";
    let file = dir.join("broken.asm");
    std::fs::write(&file, source).expect("writes the program");
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["asm", "--cpu", "6502", "--json"])
        .arg(&file)
        .output()
        .expect("kempelen runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let d = &report["diagnostics"][0];
    serde_json::json!({
        "source": source,
        "fixed": source.replace("lop", "loop"),
        "line": d["line"],
        "col": d["col"],
        "message": d["message"],
    })
}

/// The 0x88 example on the 6502 assembled and run by the command line.
fn asm_run_expectations() -> serde_json::Value {
    let dir = Path::new(ROOT).join("target/web-test-asm");
    std::fs::create_dir_all(&dir).expect("creates the folder");
    let source = Path::new(ROOT).join("roms-src/snippets/offboard-0x88-6502.asm");
    let bin = dir.join("offboard.bin");
    let asm = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["asm", "--cpu", "6502", "-o"])
        .arg(&bin)
        .arg(&source)
        .output()
        .expect("kempelen runs");
    assert!(
        asm.status.success(),
        "{}",
        String::from_utf8_lossy(&asm.stderr)
    );
    let bin = bin.to_str().unwrap();
    let run = kempelen_json(&[
        "run", "--cpu", "6502", "--load", "0200", "--entry", "0200", bin, "--json",
    ]);
    serde_json::json!({
        "snippet": "offboard-0x88-6502",
        "cycles": run["cycles"],
        "instructions": run["instructions"],
    })
}

/// Profiles' moves on the lessons' positions, as `kempelen search --profile` plays them.
fn lesson_expectations() -> serde_json::Value {
    let cases: [(&str, &[&str]); 3] = [
        (
            "microchess",
            &[
                "--profile",
                "microchess",
                "--depth",
                "1",
                "--moves",
                "e2e4",
                "c7c5",
            ],
        ),
        (
            "nimzo",
            &[
                "--profile",
                "nimzo",
                "--depth",
                "3",
                "--fen",
                "8/4b3/8/4n3/8/7P/3r4/5kNK w - - 0 1",
            ],
        ),
        (
            "sargon",
            &[
                "--profile",
                "sargon",
                "--depth",
                "3",
                "--moves",
                "e2e4",
                "e7e5",
                "g1f3",
            ],
        ),
    ];
    cases
        .iter()
        .map(|(lesson, args)| {
            let out = kempelen_json(&[&["search"], *args, &["--json"]].concat());
            let command = args
                .iter()
                .map(|a| {
                    if a.contains(' ') {
                        format!("\"{a}\"")
                    } else {
                        a.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            serde_json::json!({
                "lesson": lesson,
                "command": format!("kempelen search {command}"),
                "best": out["best"],
            })
        })
        .collect()
}

/// The positions of the compare flow and what `kempelen compare --json` answers on them.
const COMPARE_FENS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
];

fn compare_expectations() -> serde_json::Value {
    let dir = Path::new(ROOT).join("target/web-test-compare");
    std::fs::create_dir_all(&dir).expect("creates the suite's folder");
    let suite = dir.join("three.epd");
    let text: String = COMPARE_FENS
        .iter()
        .enumerate()
        .map(|(i, f)| format!("{f}; id \"p{i}\";\n"))
        .collect();
    std::fs::write(&suite, text).expect("writes the suite");
    let out = kempelen_json(&[
        "compare",
        "--suite",
        suite.to_str().expect("a UTF-8 path"),
        "--depth",
        "3",
        "--json",
    ]);
    let rows: Vec<serde_json::Value> = out["results"]
        .as_array()
        .expect("compare --json has results")
        .iter()
        .map(|r| {
            serde_json::json!({
                "fen": r["fen"], "native": r["native"], "z80": r["z80"], "6502": r["6502"],
            })
        })
        .collect();
    assert_eq!(rows.len(), 3);
    serde_json::json!({ "depth": 3, "rows": rows })
}

/// What `kempelen compare --depth 1 --json` answers on the bundled suite, position by position.
fn compare_suite_expectations() -> serde_json::Value {
    let out = kempelen_json(&["compare", "--depth", "1", "--json"]);
    let rows: Vec<serde_json::Value> = out["results"]
        .as_array()
        .expect("compare --json has results")
        .iter()
        .map(|r| {
            let pick = |a: &serde_json::Value| {
                serde_json::json!({"best": a["best"], "nodes": a["nodes"], "cycles": a["cycles"]})
            };
            serde_json::json!({
                "id": r["id"], "native": pick(&r["native"]), "z80": pick(&r["z80"]),
                "6502": pick(&r["6502"]),
            })
        })
        .collect();
    serde_json::json!({ "depth": 1, "rows": rows })
}

/// The most the page's wasm (`pkg/kempelen_web_bg.wasm`, before compression) may weigh: 3 MB,
/// what the page promises (docs/WEB.md gives its size and what keeps it there).
const WASM_LIMIT: u64 = 3_000_000;

/// Builds the page into `out` (`tools/web.sh build`) and checks its wasm's size.
fn build_page(out: &Path) {
    let status = Command::new(Path::new(ROOT).join("tools/web.sh"))
        .arg("build")
        .env("KEMPELEN_WEB_OUT", out)
        .status()
        .expect("tools/web.sh runs");
    assert!(status.success(), "tools/web.sh build failed");
    let wasm = out.join("pkg/kempelen_web_bg.wasm");
    let bytes = std::fs::metadata(&wasm).expect("the page's wasm").len();
    assert!(
        bytes <= WASM_LIMIT,
        "the page's wasm ({}) is {bytes} bytes, over the {WASM_LIMIT} bytes it may have \
         (docs/WEB.md: what makes its size)",
        wasm.display()
    );
}

/// The end-to-end flows (tests/web_flows.py): load, play against the Z80 build, links, bad
/// input, a whole game against the 6502 build on the KIM-1, no request outside the page.
#[test]
fn page_flows_in_chromium() {
    if skip_without_tools(true) {
        return;
    }
    let root = PathBuf::from(ROOT);
    let page = root.join("target/web-test");
    build_page(&page);
    let expect = root.join("target/web-test-expect.json");
    std::fs::write(&expect, expectations().to_string()).expect("writes the expectations");
    let shots = std::env::var_os("KEMPELEN_WEB_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/web-shots"));
    let mut flows = Command::new("python3");
    flows
        .arg(root.join("tests/web_flows.py"))
        .arg("--page")
        .arg(&page)
        .arg("--expect")
        .arg(&expect)
        .arg("--shots")
        .arg(&shots);
    // KEMPELEN_WEB_FLOWS=name,name: only these flows (a view's own, while working on it).
    if let Ok(only) = std::env::var("KEMPELEN_WEB_FLOWS") {
        flows
            .arg("--only")
            .args(only.split(',').filter(|n| !n.is_empty()));
    }
    let out = flows.output().expect("python3 runs");
    eprintln!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "a flow failed in Chromium (above)");
}

/// The searches of the page's figures: engine, machine, depth (the start position); each
/// long enough natively (a second or more) that a moment of a shared machine's load does not
/// decide its figure.
const FIGURE_SEARCHES: [(&str, &str, u32); 3] = [
    ("z80", "trs-80", 6),
    ("z80", "zx-spectrum", 5),
    ("6502", "c64", 5),
];

/// Rounds of the figures: the machine is shared, so each round runs every search natively
/// and then in the page, and the median of the rounds is reported for each.
const FIGURE_ROUNDS: usize = 3;

/// One native run of a figure's search: its cycles and the host time it took (ms).
fn native_figure(engine: &str, machine: &str, depth: u32) -> (u64, f64) {
    let out = kempelen_json(&[
        "search",
        "--cpu",
        engine,
        "--machine",
        machine,
        "--depth",
        &depth.to_string(),
        "--json",
    ]);
    (
        out["cycles"].as_u64().expect("cycles"),
        out["host_ms"].as_f64().expect("host_ms"),
    )
}

/// One run of the figures' searches in the page (tests/web_flows.py --figures), each checked
/// to run `cycles[i]` cycles: what the page measured, per search.
fn page_figures_once(page: &Path, cycles: &[u64]) -> Vec<serde_json::Value> {
    let root = PathBuf::from(ROOT);
    let expect = serde_json::json!({
        "native_speed": FIGURE_SEARCHES.iter().zip(cycles).map(|((engine, machine, depth), c)| {
            serde_json::json!({"engine": engine, "machine": machine, "depth": depth, "cycles": c})
        }).collect::<Vec<_>>(),
    });
    let expect_file = root.join("target/web-figures-expect.json");
    std::fs::write(&expect_file, expect.to_string()).expect("writes the expectations");
    let out_file = root.join("target/web-figures-page.json");
    let status = Command::new("python3")
        .arg(root.join("tests/web_flows.py"))
        .arg("--page")
        .arg(page)
        .arg("--expect")
        .arg(&expect_file)
        .arg("--figures")
        .arg(&out_file)
        .status()
        .expect("python3 runs");
    assert!(status.success(), "the page's figures could not be measured");
    serde_json::from_slice(&std::fs::read(&out_file).expect("the figures")).expect("JSON")
}

/// The page's figures for docs/WEB.md (ignored: it measures the host's speed, so it asserts
/// nothing about it): the wasm's size raw and gzipped, the time to the first move, and the
/// emulator's speed in Chromium against the native binary on the same searches, run one
/// after the other on this machine, the median of [`FIGURE_ROUNDS`] rounds.
/// `cargo test --test web page_figures -- --ignored --nocapture` prints them (and writes
/// target/web-figures.json).
#[test]
#[ignore]
fn page_figures() {
    if skip_without_tools(true) {
        return;
    }
    let root = PathBuf::from(ROOT);
    let page = root.join("target/web-test");
    build_page(&page);
    let wasm = std::fs::read(page.join("pkg/kempelen_web_bg.wasm")).expect("the page's wasm");
    let gzip = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(page.join("pkg/kempelen_web_bg.wasm"))
        .output()
        .expect("gzip runs");
    let n = FIGURE_SEARCHES.len();
    let mut cycles = vec![0; n];
    // Per search, per round: native MHz, page MHz, page ready (s), first move (s).
    let mut runs: Vec<Vec<[f64; 4]>> = vec![Vec::new(); n];
    for _ in 0..FIGURE_ROUNDS {
        let mut native = vec![0f64; n];
        for (i, (engine, machine, depth)) in FIGURE_SEARCHES.iter().enumerate() {
            let (c, host_ms) = native_figure(engine, machine, *depth);
            cycles[i] = c;
            native[i] = c as f64 / host_ms / 1000.0;
        }
        for (i, got) in page_figures_once(&page, &cycles).iter().enumerate() {
            let f = |k: &str| got[k].as_f64().expect("a page figure");
            runs[i].push([
                native[i],
                f("emulated_mhz"),
                f("ready_s"),
                f("first_move_s"),
            ]);
        }
    }
    let median = |i: usize, k: usize| {
        let mut v: Vec<f64> = runs[i].iter().map(|r| r[k]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (native_mhz, page_mhz): (Vec<f64>, Vec<f64>) =
        (0..n).map(|i| (median(i, 0), median(i, 1))).unzip();
    let ready: Vec<f64> = (0..n).map(|i| median(i, 2)).collect();
    let first: Vec<f64> = (0..n).map(|i| median(i, 3)).collect();
    let round = |x: f64, places: i32| (x * 10f64.powi(places)).round() / 10f64.powi(places);
    let rows: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let (engine, machine, depth) = FIGURE_SEARCHES[i];
            serde_json::json!({
                "search": format!("kempelen search --cpu {engine} --machine {machine} --depth {depth}"),
                "cycles": cycles[i],
                "native_emulated_mhz": round(native_mhz[i], 1),
                "chromium_emulated_mhz": round(page_mhz[i], 1),
                "ratio": round(page_mhz[i] / native_mhz[i], 2),
                "page_ready_s": round(ready[i], 2),
                "first_move_s": round(first[i], 2),
            })
        })
        .collect();
    let figures = serde_json::json!({
        "wasm_bytes": wasm.len(),
        "wasm_gzip_bytes": gzip.stdout.len(),
        "rounds": FIGURE_ROUNDS,
        "searches": rows,
        "every_round": runs,
    });
    let text = serde_json::to_string_pretty(&figures).expect("JSON");
    std::fs::write(root.join("target/web-figures.json"), &text).expect("writes the figures");
    println!("{text}");
}
