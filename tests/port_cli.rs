//! End-to-end tests of the 8-bit builds' subcommands (`compare`, `search`, `perft`, `uci`,
//! `bench`, `play` and `gen-tables` with `--cpu z80|6502`) as a user runs them.

mod common;

use common::{Scratch, arg, fails_with, json, kempelen, refusals, succeeds};

#[test]
fn gen_tables_check_passes_on_the_checked_in_file() {
    let (stdout, _) = succeeds(&["gen-tables", "--check"]);
    assert!(stdout.contains("up to date"), "{stdout}");
}

#[test]
fn gen_tables_writes_the_same_file_and_check_catches_a_stale_one() {
    let dir = Scratch::new("gen-tables");
    let out = dir.join("tables.inc");
    let out_s = arg(&out);
    succeeds(&["gen-tables", "--cpu", "z80", "--out", out_s]);
    let written = std::fs::read_to_string(&out).unwrap();
    let checked_in = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("roms-src/z80/tables.inc"),
    )
    .unwrap();
    assert_eq!(written, checked_in);
    std::fs::write(&out, written.replace("defb $", "defb $0")).unwrap();
    fails_with(
        &["gen-tables", "--cpu", "z80", "--check", "--out", out_s],
        &["stale"],
    );
    // --out names one file, so it needs one port once two have table writers.
    fails_with(
        &["gen-tables", "--cpu", "native"],
        &["[possible values: z80, 6502]"],
    );
}

#[test]
fn compare_agrees_on_the_bundled_suite_at_depth_2() {
    let (stdout, _) = succeeds(&["compare", "--cpu", "z80", "--depth", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let positions = v["positions"].as_u64().unwrap();
    assert!(positions >= 60, "{positions} positions");
    assert_eq!(v["agree"], positions);
    assert_eq!(v["machine"], "zx-spectrum");
    assert!(v["results"][0]["z80"]["cycles"].as_u64().unwrap() > 0);
}

#[test]
fn compare_reads_a_given_suite_and_reports_bad_lines_with_their_place() {
    let dir = Scratch::new("compare");
    let good = dir.file(
        "good.epd",
        "8/8/8/4k3/8/8/3QK3/8 w - - hmvc 99; id \"fifty\";\n\
         7k/8/8/8/8/1Q6/8/K7 w - -; moves \"b3b2 h8g8 b2b3 g8h8\"; id \"repeat\";\n",
    );
    let compare = ["compare", "--suite", arg(&good), "--depth", "3"];
    let (stdout, _) = succeeds(&[&compare[..], &["--machine", "trs-80"]].concat());
    common::assert_contains(
        "compare",
        &stdout,
        &["2/2 positions agree at depth 3", "1.774 MHz (trs-80)"],
    );
    let bad = dir.file("bad.epd", "# header\n8/8/8 w\n");
    fails_with(&["compare", "--suite", arg(&bad)], &["bad.epd:2:1"]);
    if !kempelen_roms::port::M6502.is_present() {
        refusals(&[(
            "compare --cpu 6502",
            "the 6502 build's sources are not in this tree",
        )]);
    }
}

/// JSON numbers are parsed back to the nearest few ulps, not bit for bit.
fn assert_close(value: &serde_json::Value, expected: f64) {
    let v = value
        .as_f64()
        .unwrap_or_else(|| panic!("{value} is not a number"));
    assert!(
        (v - expected).abs() <= 1e-9 * expected.abs().max(1.0),
        "{v} != {expected}"
    );
}

#[test]
fn perft_on_the_z80_counts_like_the_native_engine_and_reports_cycles() {
    let v = json(&["perft", "--depth", "3", "--engine", "z80", "--json"]);
    assert_eq!(v["nodes"], 8902);
    assert_eq!(v["engine"], "z80");
    assert_eq!(v["machine"], "zx-spectrum");
    let cycles = v["cycles"].as_u64().unwrap();
    let z80 = kempelen_roms::PortEngine::assemble(&kempelen_roms::port::Z80).unwrap();
    let start = kempelen_engine::Position::from_fen(kempelen_engine::START_FEN).unwrap();
    assert_eq!(cycles, z80.perft(&start, 3).unwrap().cycles);
    // time_ms is the time at the machine's clock, rounded to the microsecond.
    let ms = v["time_ms"].as_f64().unwrap();
    assert!((ms - cycles as f64 / 3.5e3).abs() <= 5e-4 + 1e-9, "{ms}");

    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let v = json(&[
        "perft",
        "--depth",
        "2",
        "--fen",
        fen,
        "--divide",
        "--engine",
        "z80",
        "--machine",
        "trs-80",
        "--json",
    ]);
    assert_eq!(v["nodes"], 191);
    assert_eq!(v["mhz"], 1.774);
    let split = v["divide"].as_array().unwrap();
    assert_eq!(split.len(), 14);
    let sum: u64 = split.iter().map(|e| e["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 191);
    let (stdout, _) = succeeds(&["perft", "--depth", "2", "--engine", "z80"]);
    assert!(stdout.contains("perft 2 = 400  (Z80: "), "{stdout}");
}

#[test]
fn search_on_the_z80_gives_the_native_reference_result() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let base = ["search", "--depth", "3", "--fen", fen, "--json"];
    let native = json(&base);
    let z80 = json(&[&base[..], &["--engine", "z80", "--machine", "cpc464"]].concat());
    for field in [
        "best", "score", "mate", "depth", "nodes", "pv", "fen", "profile",
    ] {
        assert_eq!(native[field], z80[field], "{field}");
    }
    assert_eq!(z80["best"], "h5f7");
    assert_eq!(z80["engine"], "z80");
    assert_eq!(native["engine"], "native");
    assert_eq!(z80["machine"], "cpc464");
    let cycles = z80["cycles"].as_u64().unwrap();
    assert!((z80["time_ms_cpu"].as_f64().unwrap() - cycles as f64 / 4.0e3).abs() <= 5e-4 + 1e-9);
    // The CPC's gate array stretches every instruction to whole microseconds.
    assert_eq!(z80["timing"], "cpc464/cpc");
    assert!(z80["time_ms"].as_f64() > z80["time_ms_cpu"].as_f64());
    let cpu = json(
        &[
            &base[..],
            &["--engine", "z80", "--machine", "cpc464", "--timing", "cpu"],
        ]
        .concat(),
    );
    assert_eq!(
        (&cpu["timing"], &cpu["time_ms"]),
        (&"cpu".into(), &cpu["time_ms_cpu"])
    );
    // A node limit and the moves history work as in the native engine.
    let base = [
        "search", "--nodes", "700", "--moves", "g1f3", "g8f6", "f3g1", "f6g8", "--json",
    ];
    let native = json(&base);
    let z80 = json(&[&base[..], &["--engine", "z80"]].concat());
    for field in ["best", "score", "depth", "nodes", "pv"] {
        assert_eq!(native[field], z80[field], "{field}");
    }
    // A node limit of 0 is a limit (the search stops at the first node of iteration 2), not
    // "no limit" (regressions.epd: the protocol once took it for none).
    let base = ["search", "--nodes", "0", "--depth", "3", "--json"];
    let native = json(&base);
    let z80 = json(&[&base[..], &["--engine", "z80"]].concat());
    for field in ["best", "score", "depth", "nodes", "pv"] {
        assert_eq!(native[field], z80[field], "{field}");
    }
    assert_eq!(z80["depth"], 1);
    // Text output: the usual lines plus the Z80's cycles.
    let (stdout, _) = succeeds(&["search", "--depth", "2", "--engine", "z80"]);
    common::assert_contains(
        "search",
        &stdout,
        &["info depth 2 ", "bestmove ", " MHz (zx-spectrum)"],
    );
}

/// While `roms-src/6502/engine.asm` is not in the tree, every command asked for the 6502
/// build says so (and the per-port tests skip the 6502 with a message).
#[test]
fn an_absent_port_is_a_clear_error_on_every_command() {
    if kempelen_roms::port::M6502.is_present() {
        eprintln!("skipped: the 6502 sources are present");
        return;
    }
    let absent = "the 6502 build's sources are not in this tree";
    refusals(&[
        ("perft --cpu 6502 --depth 1", absent),
        ("search --cpu 6502 --depth 1", absent),
        ("search --engine 6502 --depth 1", absent),
        ("uci --cpu 6502", absent),
        ("bench --cpu 6502", absent),
        ("bench --cpu z80,6502", absent),
        ("compare --cpu 6502", absent),
        ("play --cpu 6502", absent),
        ("gen-tables --cpu 6502 --check", absent),
    ]);
}

#[test]
fn the_z80_engine_refuses_what_it_cannot_do() {
    refusals(&[
        (
            "search --depth 3 --engine z80 --profile full",
            "reference profile only",
        ),
        ("search --depth 33 --engine z80", "depths 1 to 32"),
        (
            "search --nodes 5000000000 --engine z80",
            "at most 4294967295",
        ),
        ("search --depth 2 --engine z80 --machine c64", "not a Z80"),
        (
            "search --depth 2 --engine z80 --machine pdp-11",
            "unknown machine",
        ),
        (
            "search --depth 2 --machine trs-80",
            "--cpu z80 or --cpu 6502",
        ),
        ("perft --depth 256 --engine z80", "depth 255 at most"),
        ("uci --engine z80 --profile full", "reference profile only"),
        ("uci --realtime", "--cpu z80 or --cpu 6502"),
        ("bench --svg x.svg", "add --cpu z80"),
        ("bench --cpu z80 --profile full", "reference profile only"),
        ("bench --cpu z80 --depth 0", "depths 1 to 32"),
        ("bench --cpu z80 --ram-depth 40", "depths 1 to 32"),
    ]);
    // Perft descends its first line to the full depth: with the 218-move position's long
    // move lists the frame area is full long before ply 255 (ALGORITHM.md section 10).
    let fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
    fails_with(
        &["perft", "--engine", "z80", "--depth", "255", "--fen", fen],
        &["status 5 (search stack overflow)"],
    );
}

#[test]
fn compare_reads_standard_epd_opcodes_and_clocks() {
    let dir = Scratch::new("compare-epd");
    let file = dir.file(
        "std.epd",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c0 \"x; y\"; bm Bb5; \
         am a3; id \"ruy\"; hmvc 2; fmvn 3; ce 35; acd 12; pv Bb5 a6;\n\
         R6k/8/6K1/8/8/8/8/8 b - -; id \"mated\";\n",
    );
    let v = json(&["compare", "--suite", arg(&file), "--depth", "2", "--json"]);
    assert_eq!(v["agree"], 2);
    assert_eq!(
        v["results"][0]["fen"],
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    assert_eq!(v["results"][1]["z80"]["best"], "-");
    assert_eq!(v["results"][1]["z80"]["score"], -32000);
    std::fs::write(&file, "8/8/8/8/8/8/8/K6k w - -; hmvc -3;\n").unwrap();
    fails_with(
        &["compare", "--suite", arg(&file)],
        &["std.epd:1:", "`hmvc` needs a non-negative number"],
    );
}

/// The bench's figures on two small suites, checked against searches run here through the
/// library: node and cycle totals, nodes/s at every clock, ROM bytes, RAM by depth and bytes
/// per ply, exactly; and the chart is a well-formed SVG with every series.
#[test]
fn bench_on_the_z80_reports_exact_figures_and_draws_the_chart() {
    use kempelen_roms::{PortEngine, bench, console::ConsoleRom, port};
    let dir = Scratch::new("bench-z80");
    let speed_suite = dir.file(
        "speed.epd",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1; id \"pos3\";\n\
         R6k/8/6K1/8/8/8/8/8 b - -; id \"mated\";\n\
         7k/8/8/8/8/1Q6/8/K7 w - -; moves \"b3b2 h8g8 b2b3 g8h8\"; id \"repeat\";\n",
    );
    let ram_suite = dir.file(
        "ram.epd",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1; id \"castling\";\n\
         R6k/8/6K1/8/8/8/8/8 b - -; id \"mated\";\n\
         8/5pk1/6p1/8/4P3/5PK1/8/8 w - - 0 1; id \"pawns\";\n",
    );
    let svg = dir.join("bench.svg");
    let v = json(&[
        "bench",
        "--cpu",
        "z80",
        "--depth",
        "3",
        "--suite",
        arg(&speed_suite),
        "--ram-depth",
        "3",
        "--ram-suite",
        arg(&ram_suite),
        "--machine",
        "trs-80",
        "--svg",
        arg(&svg),
        "--json",
    ]);
    let z80 = PortEngine::assemble(&port::Z80).unwrap();
    let speed = bench::positions(&std::fs::read_to_string(&speed_suite).unwrap(), "s").unwrap();
    let (mut nodes, mut cycles) = (0u64, 0u64);
    for (p, row) in speed.iter().zip(v["positions"].as_array().unwrap()) {
        let g = &p.game;
        let out = z80
            .search(g.position(), &g.reference_history(), 3, None)
            .unwrap();
        let native = kempelen_engine::ReferenceSearch::new(
            g.position(),
            &g.reference_history(),
            kempelen_engine::ReferenceLimits::depth(3),
        )
        .run();
        assert_eq!(row["nodes"], native.nodes, "{}", p.entry.id);
        assert_eq!(row["cycles"], out.cycles, "{}", p.entry.id);
        nodes += out.result.nodes;
        cycles += out.cycles;
    }
    assert_eq!(v["nodes"], nodes);
    assert_eq!(v["cycles"], cycles);
    assert_close(&v["tstates_per_node"], cycles as f64 / nodes as f64);
    assert_eq!(v["machine"], "trs-80");
    let clocks = v["clocks"].as_array().unwrap();
    assert_eq!(clocks.len(), port::Z80.machines.len(), "every Z80 machine");
    for c in clocks {
        let hz = c["mhz"].as_f64().unwrap() * 1e6;
        assert_close(
            &c["nodes_per_second_cpu"],
            nodes as f64 * hz / cycles as f64,
        );
        // The machine as it ran: the same searches under its timing model, in its ticks.
        let id = c["machine"].as_str().unwrap();
        let model = kempelen_emulator::Timing::Machine.model_for(id).unwrap();
        match model {
            None => {
                assert_eq!(c["timing"], "cpu", "{id}");
                assert_eq!(c["nodes_per_second"], c["nodes_per_second_cpu"], "{id}");
            }
            Some(model) => {
                assert_eq!(c["timing"], model.full_id(), "{id}");
                let mut timed = z80.clone();
                timed.timing = Some(model);
                let ticks: u64 = speed
                    .iter()
                    .map(|p| {
                        let g = &p.game;
                        let out = timed
                            .search(g.position(), &g.reference_history(), 3, None)
                            .unwrap();
                        out.machine_ticks.unwrap()
                    })
                    .sum();
                assert_close(
                    &c["nodes_per_second"],
                    nodes as f64 * model.hz / ticks as f64,
                );
                assert!(
                    c["nodes_per_second"].as_f64() < c["nodes_per_second_cpu"].as_f64(),
                    "{id}: the machine is slower than its clock"
                );
            }
        }
    }
    assert_eq!(v["rom"]["engine"], z80.rom().len());
    let console = ConsoleRom::assemble(&port::Z80).unwrap();
    assert_eq!(v["rom"]["console"], console.image.len());
    assert_eq!(v["rom"]["console_front_end"], console.front_end_bytes());

    let ram = &v["ram"];
    assert_eq!(ram["skipped"], 1, "the mated position takes no search");
    let rows = ram["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let ram_positions =
        bench::positions(&std::fs::read_to_string(&ram_suite).unwrap(), "r").unwrap();
    let mut sums = [0f64; 3];
    for (row, p) in rows
        .iter()
        .zip(ram_positions.iter().filter(|p| p.has_move()))
    {
        for d in 1..=3u32 {
            let g = &p.game;
            let out = z80
                .search(g.position(), &g.reference_history(), d, None)
                .unwrap();
            assert_eq!(
                row["peak"][d as usize - 1],
                out.ram.peak_bytes,
                "{} d{d}",
                p.entry.id
            );
            sums[d as usize - 1] += f64::from(out.ram.peak_bytes);
        }
    }
    assert_close(&ram["by_depth"][2]["mean"], sums[2] / 2.0);
    assert_close(&ram["bytes_per_ply"], (sums[2] / 2.0 - sums[0] / 2.0) / 2.0);

    let categories = v["profile"]["categories"].as_array().unwrap();
    let total: u64 = categories
        .iter()
        .map(|c| c["cycles"].as_u64().unwrap())
        .sum();
    assert_eq!(
        total, cycles,
        "the profile covers every cycle of the speed run"
    );
    // "other" is the position's set-up and the command's start and end: no routine of the
    // search is left unclassified (on three small searches the set-up is about 1 %).
    let setup = ["su_", "setup", "occ_init", "start", "finish", "(no symbol)"];
    let unclassified: Vec<&serde_json::Value> = v["profile"]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["category"] == "other")
        .filter(|l| {
            let name = l["label"].as_str().unwrap();
            !setup.iter().any(|p| name.starts_with(p))
        })
        .collect();
    assert!(
        unclassified.is_empty(),
        "unclassified routines: {unclassified:?}"
    );

    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: String = doc
        .descendants()
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("\n");
    for series in [
        "Kempelen-Z80 nodes/s",
        "Colossus Chess 4",
        "Sargon",
        "estimate",
        "micro-Max on AVR",
        "eZ80 C engine",
        "Microchess",
        "1K ZX Chess",
        "AVR-Max",
        "108 bytes of stack per ply recursive",
        // The historical programs measured (docs/history/program-speed.json).
        "Sargon 1978 (Jupiter III) level 3: ",
        "Microchess 1976 (KIM-1)",
        "Microchess (Rictor serial version)",
        "(measured)",
    ] {
        assert!(texts.contains(series), "{series} missing from the chart");
    }
    assert!(texts.contains(&format!("{} bytes", z80.rom().len())));
    // The machines that run the real program file (kempelen build --target) are marked, the
    // others not.
    let marked = |id: &str| {
        texts
            .lines()
            .any(|l| l.starts_with(&format!("{id} ")) && l.ends_with(" (file)"))
    };
    assert!(
        marked("zx-spectrum") && marked("trs-80") && marked("msx"),
        "{texts}"
    );
    assert!(!marked("jupiter-3"), "{texts}");
}

/// Sends `input` to `kempelen uci` with `args`, returns what it printed and how long it took.
fn uci_session(args: &[&str], input: &str) -> (String, std::time::Duration) {
    let start = std::time::Instant::now();
    let out = common::with_input(&[&["uci"], args].concat(), input);
    assert!(out.status.success());
    (common::text(&out.stdout), start.elapsed())
}

#[test]
fn uci_with_the_z80_engine_follows_the_protocol() {
    let (text, _) = uci_session(
        &["--engine", "z80", "--machine", "trs-80"],
        "uci\nsetoption name Profile value full\nsetoption name Profile value reference\n\
         setoption name Hash value 16\nisready\n\
         position fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1\ngo mate 40 nodes 5000\n\
         position startpos moves e2e4\ngo nodes 400\n\
         position startpos\ngo movetime 2000\nquit\n",
    );
    common::assert_contains(
        "uci",
        &text,
        &[
            "id name Kempelen",
            "Z80 reference, trs-80 at 1.774 MHz",
            "option name Profile type combo default reference var reference",
            "info string error: setoption: invalid value 'full' for option 'Profile': the Z80 build runs the reference profile only",
            "info string error: setoption: unknown option 'Hash'",
            "readyok",
        ],
    );
    // go mate 40 asks for depth 80: the Z80 engine takes it as "as deep as it goes" (32); the
    // node limit ends the search (a `position` sent during a bounded search waits for its
    // `bestmove`), and the mate in one is found at depth 1.
    assert!(text.contains("score mate 1"), "{text}");
    let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 3, "{text}");
    assert!(best[0].starts_with("bestmove a1a8"), "{text}");
    // The node limit and the 2 s of emulated time at 1.774 MHz give what the native
    // reference gives (`kempelen search`) for the same limits.
    plays_as_search(best[1], "--nodes 400 --moves e2e4", &text);
    let timed = plays_as_search(
        best[2],
        "--movetime 2000 --engine z80 --machine trs-80",
        &text,
    );
    assert!(timed["time_ms"].as_f64().unwrap() <= 2000.0, "{timed}");
}

/// The `bestmove` line `best` (of the UCI session `text`) names the move `kempelen search
/// OPTIONS --json` plays: its report.
#[track_caller]
fn plays_as_search(best: &str, options: &str, text: &str) -> serde_json::Value {
    let v = json(&[&["search"], &common::words(options)[..], &["--json"]].concat());
    let expected = format!("bestmove {}", v["best"].as_str().unwrap());
    assert!(best.starts_with(&expected), "{options}: {text}");
    v
}

#[test]
fn uci_realtime_takes_the_machines_time() {
    // 400 ms of emulated time at 3.5 MHz, held to the real clock: the answer cannot come
    // sooner (an upper bound would depend on the host's load, so there is none).
    let (text, took) = uci_session(
        &["--engine", "z80", "--realtime"],
        "position startpos\ngo movetime 400\n",
    );
    assert!(text.contains("bestmove "), "{text}");
    assert!(took >= std::time::Duration::from_millis(300), "{took:?}");
    // Every iteration of a search that ends within one slice of the run is reported too.
    let (text, _) = uci_session(&["--engine", "z80"], "position startpos\ngo depth 2\n");
    assert!(text.contains("info depth 2 "), "{text}");
}

/// `compare --z80-source` on a changed copy of the engine's sources: a faithful copy agrees
/// (exit 0); with the pawn worth 110 instead of 100 in the Z80's material table the scores
/// differ, the rows say DIFF and the exit status is non-zero; a missing file is an error
/// that names the option.
#[test]
fn compare_exits_non_zero_when_a_changed_z80_engine_disagrees() {
    let dir = Scratch::new("compare-changed");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("roms-src/z80");
    for f in std::fs::read_dir(&src).unwrap() {
        let path = f.unwrap().path();
        if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("asm" | "inc")
        ) {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let suite = dir.file(
        "two.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1; id \"start\";\n\
         8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1; id \"rook endgame\";\n",
    );
    let main = dir.join("engine.asm");
    let run = |main: &str| {
        kempelen(&[
            "compare",
            "--suite",
            arg(&suite),
            "--depth",
            "2",
            "--z80-source",
            main,
        ])
    };
    let (ok, stdout, stderr) = run(arg(&main));
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("2/2 positions agree"), "{stdout}");

    let tables = dir.join("tables.inc");
    let text = std::fs::read_to_string(&tables).unwrap();
    let values = "    defb $00,$64,$40,$4A,$F4,$84,$00,$00"; // VAL_LO: pawn = 64h = 100
    assert!(
        text.contains(values),
        "tables.inc has no material line `{values}`"
    );
    std::fs::write(&tables, text.replace(values, &values.replace("$64", "$6E"))).unwrap();
    let (ok, stdout, _) = run(arg(&main));
    assert!(!ok, "a disagreement must fail: {stdout}");
    assert!(
        stdout.contains("DIFF") && stdout.contains("rook endgame"),
        "{stdout}"
    );
    assert!(stdout.contains("1/2 positions agree"), "{stdout}");

    let missing = dir.join("nothing.asm");
    let (ok, _, stderr) = run(arg(&missing));
    assert!(!ok, "{stderr}");
    common::assert_contains("a missing source", &stderr, &["--source", "not found"]);
}

#[test]
fn max_cycles_bounds_every_z80_command() {
    // perft 3 from the start position needs 28 million T-states: a budget of ten million
    // stops perft 4 with the machine's report, naming the budget.
    refusals(&[(
        "perft --engine z80 --depth 4 --max-cycles 1000000",
        "cycle budget of 1000000 cycles exceeded",
    )]);
    // The same budget is plenty for perft 2 (exact count, as without the option).
    let (out, _) = succeeds(&common::words(
        "perft --engine z80 --depth 2 --max-cycles 10000000",
    ));
    assert!(out.contains("perft 2 = 400"), "{out}");
    refusals(&[
        // A search gives up between slices once past the budget.
        (
            "search --engine z80 --depth 5 --max-cycles 5000000",
            "did not finish within 5000000 cycles",
        ),
        (
            "search --engine z80 --depth 2 --max-cycles 0",
            "--max-cycles 0",
        ),
    ]);
    // compare reports the run that ran out in its row, goes on, and exits non-zero.
    let dir = Scratch::new("max_cycles");
    let suite = dir.file(
        "two.epd",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1; id \"small\";\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1; id \"kiwipete\";\n",
    );
    let compare = ["compare", "--suite", arg(&suite), "--depth", "2"];
    let (ok, out, _) = kempelen(&[&compare[..], &["--max-cycles", "3000000"]].concat());
    assert!(!ok, "{out}");
    assert!(out.lines().any(|l| l.starts_with("ok ")), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("ERROR")
            && l.contains("kiwipete")
            && l.contains("cycle budget")),
        "{out}"
    );
    refusals(&[("compare --cpu z80 --machine c64", "not a Z80")]);
}

/// Drops the fields that measure time (`time`, `nps`: emulated time on the 8-bit engine, the
/// host's on the native one), `seldepth` (the 8-bit engines' protocol block has no selective
/// depth: their lines have none) and the 8-bit engine's trailing `cycles N`.
fn info_without_time(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if ["time", "nps", "seldepth", "cycles"].contains(&words[i]) {
            i += 2;
        } else {
            out.push(words[i]);
            i += 1;
        }
    }
    out.join(" ")
}

/// The 8-bit engine reports each iteration as it completes (host call "iteration
/// complete"): `search --cpu z80` prints the native reference engine's info lines, line by
/// line, each with the cycles up to that iteration. Before, the lines came from fixed
/// emulator slices (wrong node counts, missing depths).
#[test]
fn search_on_the_z80_prints_the_native_info_lines_plus_cycles() {
    for (fen, depth) in [
        (kempelen_engine::START_FEN, "5"),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "3",
        ),
        ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "4"),
    ] {
        let search = ["search", "--depth", depth, "--fen", fen];
        let (native, _) = succeeds(&[&search[..], &["--profile", "reference"]].concat());
        let (z80, _) = succeeds(&[&search[..], &["--cpu", "z80"]].concat());
        let info = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.starts_with("info "))
                .map(String::from)
                .collect()
        };
        let (n, z) = (info(&native), info(&z80));
        assert_eq!(n.len(), depth.parse::<usize>().unwrap(), "{native}");
        assert_eq!(z.len(), n.len(), "{z80}");
        let mut last = 0u64;
        for (zl, nl) in z.iter().zip(&n) {
            assert_eq!(info_without_time(zl), info_without_time(nl), "{fen}");
            let cycles: u64 = zl.rsplit_once(" cycles ").unwrap().1.parse().unwrap();
            assert!(cycles > last, "{zl}");
            last = cycles;
        }
    }
}

/// The UCI options `Machine` and `Realtime` of the 8-bit engines, `ponderhit`, and
/// `go nodes` above the engine's 32-bit counter (an error and the null move; the engine lives
/// on and answers the next `go`).
#[test]
fn uci_options_ponderhit_and_a_node_limit_too_big_for_the_z80() {
    let (text, _) = uci_session(
        &["--cpu", "z80"],
        "uci\nsetoption name Machine value trs-80\nsetoption name Realtime value false\n\
         setoption name Machine value c64\nsetoption name Realtime value maybe\n\
         position startpos\ngo nodes 99999999999\nisready\n\
         go ponder\nponderhit\nisready\nquit\n",
    );
    common::assert_contains(
        "uci",
        &text,
        &[
            "option name Machine type combo default zx-spectrum var zx-spectrum var zx-spectrum-16k var trs-80",
            "option name Timing type combo default machine var machine var cpu",
            "option name Realtime type check default false\n",
            "info string error: setoption: invalid value 'c64' for option 'Machine'",
            "invalid value 'maybe' for option 'Realtime'",
            "info string error: go: nodes 99999999999: the Z80 engine's node limit is at most 4294967295",
        ],
    );
    // The refused go is answered with the null move; the engine answers isready, then the
    // ponder search, which ponderhit ends (after its first iteration) with a bestmove.
    let lines: Vec<&str> = text.lines().collect();
    let refused = lines
        .iter()
        .position(|l| l.contains("99999999999"))
        .unwrap();
    assert_eq!(lines[refused + 1], "bestmove 0000", "{text}");
    let ready = lines.iter().position(|l| *l == "readyok").unwrap();
    assert!(ready > refused, "{text}");
    let best: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("bestmove") && *l != "bestmove 0000")
        .collect();
    assert_eq!(best.len(), 1, "{text}");
    plays_as_search(best[0], "--depth 1 --profile reference", &text);
    // The ponder search ran at the TRS-80's clock: its first iteration took the emulated time
    // `search --machine trs-80` reports for depth 1.
    let at_trs80 = json(&common::words(
        "search --depth 1 --cpu z80 --machine trs-80 --json",
    ));
    let ms = at_trs80["time_ms"].as_f64().unwrap().floor() as u64;
    let d1 = lines
        .iter()
        .find(|l| l.starts_with("info depth 1"))
        .unwrap();
    assert!(
        d1.contains(&format!(" time {ms} ")),
        "{d1}, {ms} ms expected"
    );
}

// Every command on every 8-bit build whose sources are present, written once (the 6502 is
// skipped with a message while `roms-src/6502/engine.asm` is absent): perft, search, compare,
// bench, uci and play agree with the native engine and name the build's machines.
kempelen_roms::port_tests!(
    every_command_runs_on_the_build,
    |port: &'static kempelen_roms::Port| {
        let cpu = port.id;
        let machine = port.default_machine();
        let v = json(&["perft", "--cpu", cpu, "--depth", "3", "--json"]);
        assert_eq!(v["nodes"], 8902, "{cpu}");
        assert_eq!(v["machine"], machine.id);
        let native = json(&["search", "--depth", "3", "--profile", "reference", "--json"]);
        let v = json(&["search", "--cpu", cpu, "--depth", "3", "--json"]);
        for key in ["best", "score", "nodes", "pv"] {
            assert_eq!(v[key], native[key], "{cpu}: {key}");
        }
        let dir = Scratch::new(&format!("every-command-{cpu}"));
        let suite = dir.file(
            "two.epd",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1; id \"pos3\"; bm b4b1;\n\
         7k/8/6K1/8/8/8/8/R7 w - - 0 1; id \"mate\"; bm Ra8#;\n",
        );
        let suite = arg(&suite);
        let (out, _) = succeeds(&["compare", "--cpu", cpu, "--suite", suite, "--depth", "3"]);
        assert!(out.contains("2/2 positions agree at depth 3"), "{out}");
        assert!(out.contains("mate 1"), "mates print as `mate N`: {out}");
        assert!(out.contains("bm/am solved"), "{out}");
        let v = json(&[
            "bench",
            "--cpu",
            cpu,
            "--depth",
            "2",
            "--suite",
            suite,
            "--ram-depth",
            "2",
            "--ram-suite",
            suite,
            "--hot-lines",
            "4",
            "--json",
        ]);
        assert_eq!(v["cpu"], cpu);
        assert_eq!(v["clocks"].as_array().unwrap().len(), port.machines.len());
        // The hottest lines of the speed run: source lines of the port's files, most cycles
        // first, out of the profile's cycles.
        let hot = v["hot_lines"]["lines"].as_array().unwrap();
        assert_eq!(hot.len(), 4, "{cpu}");
        assert_eq!(v["hot_lines"]["total_cycles"], v["profile"]["total_cycles"]);
        for (k, l) in hot.iter().enumerate() {
            let file = l["file"].as_str().unwrap();
            assert!(port.sources().iter().any(|(n, _)| *n == file), "{cpu}: {l}");
            assert_eq!(l["place"], format!("{file}:{}", l["line"]));
            assert!(l["executions"].as_u64().unwrap() > 0, "{l}");
            if k > 0 {
                assert!(
                    hot[k - 1]["cycles"].as_u64() >= l["cycles"].as_u64(),
                    "{cpu}"
                );
            }
        }
        let (text, _) = succeeds(&[
            "bench",
            "--cpu",
            cpu,
            "--depth",
            "1",
            "--suite",
            suite,
            "--ram-depth",
            "1",
            "--ram-suite",
            suite,
            "--timing",
            "cpu",
            "--hot-lines",
            "3",
        ]);
        assert!(text.contains("hottest source lines"), "{text}");
        assert!(text.contains("3 of "), "{text}");
        let (text, _) = uci_session(
            &["--cpu", cpu],
            "uci\nisready\nposition startpos\ngo depth 1\nquit\n",
        );
        assert!(
            text.contains(&format!("({} reference", port.name)),
            "{text}"
        );
        assert!(text.contains("readyok"), "{text}");
        if port.has_console() {
            let (ok, out, err) = common::outcome(&common::with_input(
                &["play", "--cpu", cpu],
                "d 1\ne2e4\nq\n",
            ));
            assert!(ok && out.contains("Kempelen plays "), "{cpu}: {out}{err}");
            assert!(err.contains(machine.id), "{err}");
        }
    }
);
