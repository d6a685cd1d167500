//! Development harness of the 6502 engine (`roms-src/6502/engine.asm`), self-contained until
//! the CPU-neutral port layer serves both 8-bit CPUs: it assembles the sources with Kempelen's
//! assembler, runs them in the emulator's 6502 machine (default map, docs/MACHINE.md), writes
//! the protocol block (docs/PROTOCOL.md, addresses from the symbol table) and compares perft
//! and search results with the native engine's reference profile.
//!
//! Figures (cycles per node, ROM, RAM) come from the ignored test `figures`:
//! `cargo test -p kempelen-roms --test m6502_dev figures -- --ignored --nocapture`.

use std::path::Path;
use std::sync::OnceLock;

use kempelen_asm::source::{FsSource, MemorySource};
use kempelen_asm::{Cpu, Options, SymbolTable, assemble};
use kempelen_emulator::{Fault, Machine, RamProfile};
use kempelen_engine::{Move, Position};
use kempelen_roms::Setup;
use kempelen_roms::differential::{Case, Check, native_search};
use kempelen_roms::suite;

/// The assembled 6502 engine.
struct Engine6502 {
    origin: u16,
    rom: Vec<u8>,
    symbols: SymbolTable,
}

/// What one search returned, and what it cost.
#[derive(Debug)]
struct Outcome {
    best: Option<Move>,
    score: i32,
    pv: Vec<Move>,
    depth: u32,
    nodes: u64,
    cycles: u64,
    ram: RamProfile,
}

const BUDGET: u64 = 1 << 40;

fn engine() -> &'static Engine6502 {
    static E: OnceLock<Engine6502> = OnceLock::new();
    E.get_or_init(|| {
        let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("6502/engine.asm");
        let out = assemble(
            &main.to_string_lossy(),
            &FsSource,
            &Options::new(Cpu::Mos6502),
        );
        assert!(out.is_ok(), "{}", out.report());
        Engine6502 {
            origin: out.image.origin,
            rom: out.image.bytes.clone(),
            symbols: out.symbols.clone(),
        }
    })
}

impl Engine6502 {
    fn sym(&self, name: &str) -> u16 {
        self.symbols
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    }

    fn machine(&self, pos: &Position, history: &[u32], cmd: &str, depth: u8) -> Machine {
        let mut m = Machine::builder(Cpu::Mos6502)
            .load(self.origin, &self.rom)
            .build()
            .expect("machine");
        let s = Setup::from_position(pos);
        let w = |m: &mut Machine, name: &str, bytes: &[u8]| {
            m.write_bytes(self.sym(name), bytes).expect("write");
        };
        w(&mut m, "BOARD", &s.board);
        w(&mut m, "P_SIDE", &[s.side]);
        w(&mut m, "P_CASTLE", &[s.castling]);
        w(&mut m, "P_EP", &[s.ep]);
        w(&mut m, "P_HALF", &s.halfmove.to_le_bytes());
        w(&mut m, "P_HCOUNT", &[history.len() as u8]);
        let keys: Vec<u8> = history.iter().flat_map(|k| k.to_le_bytes()).collect();
        w(&mut m, "HIST", &keys);
        w(&mut m, "P_CMD", &[self.sym(cmd) as u8]);
        w(&mut m, "P_DEPTH", &[depth]);
        m
    }

    fn run(&self, m: &mut Machine) -> u64 {
        let stats = m.run(BUDGET).unwrap_or_else(|e| panic!("run: {e}"));
        assert!(stats.is_done(), "ended without done: {}", stats.stop);
        let status = m.read_byte(self.sym("R_STATUS"));
        assert_eq!(status, 0, "engine status {status}");
        stats.cycles
    }

    fn u32_at(&self, m: &Machine, name: &str) -> u32 {
        let b = m.read_bytes(self.sym(name), 4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    fn perft(&self, pos: &Position, depth: u8) -> (u64, u64) {
        let mut m = self.machine(pos, &[], "CMD_PERFT", depth);
        let cycles = self.run(&mut m);
        (self.u32_at(&m, "R_PERFT") as u64, cycles)
    }

    fn search(&self, pos: &Position, history: &[u32], depth: u32, nodes: Option<u32>) -> Outcome {
        let mut m = self.machine(pos, history, "CMD_SEARCH", depth as u8);
        m.write_bytes(
            self.sym("P_NODES"),
            &nodes.unwrap_or(u32::MAX).to_le_bytes(),
        )
        .unwrap();
        let cycles = self.run(&mut m);
        let len = m.read_byte(self.sym("R_PVLEN")) as usize;
        let mut p = pos.clone();
        let mut pv = Vec::new();
        for i in 0..len.min(32) {
            let a = self.sym("R_PV") + 2 * i as u16;
            let (from, to) = (m.read_byte(a), m.read_byte(a + 1));
            let promo = match to & 0x88 {
                0x00 => 5,
                0x08 => 4,
                0x80 => 3,
                _ => 2,
            };
            let mv = p
                .legal_moves()
                .iter()
                .copied()
                .find(|mv| {
                    mv.from() == from
                        && mv.to() == to & 0x77
                        && (mv.promotion() == 0 || mv.promotion() == promo)
                })
                .unwrap_or_else(|| panic!("PV move {from:02x}{to:02x} illegal in {}", p.to_fen()));
            p.play(mv);
            pv.push(mv);
        }
        let best = if m.read_byte(self.sym("R_BEST")) == 0xFF {
            None
        } else {
            pv.first().copied()
        };
        Outcome {
            best,
            score: m.read_word(self.sym("R_SCORE")) as i16 as i32,
            pv,
            depth: m.read_byte(self.sym("R_DEPTH")) as u32,
            nodes: self.u32_at(&m, "R_NODES") as u64,
            cycles,
            ram: m.ram_profile(),
        }
    }
}

/// Compares one check with the native reference; returns the 6502 outcome of a search.
fn compare(pos: &Position, history: &[u32], check: Check, what: &str) -> Option<Outcome> {
    let e = engine();
    match check {
        Check::Perft(d) => {
            let (got, _) = e.perft(pos, d);
            assert_eq!(
                got,
                kempelen_engine::perft(pos, d as u32),
                "{what}: perft {d}"
            );
            None
        }
        Check::Search { depth, nodes } => {
            let o = e.search(pos, history, depth, nodes);
            let n = native_search(pos, history, depth, nodes);
            let line = |pv: &[Move]| pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(" ");
            let got = (o.best, o.score, line(&o.pv), o.depth, o.nodes);
            let want = (n.best, n.score, line(&n.pv), n.depth, n.nodes);
            assert_eq!(got, want, "{what}: {check} (best, score, pv, depth, nodes)");
            Some(o)
        }
    }
}

const STANDARD: [(&str, &str, [u64; 3]); 6] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [20, 400, 8902],
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2039, 97862],
    ),
    (
        "pos3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        [14, 191, 2812],
    ),
    (
        "pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        [6, 264, 9467],
    ),
    (
        "pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        [44, 1486, 62379],
    ),
    (
        "pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        [46, 2079, 89890],
    ),
];

#[test]
fn perft_six_standard_positions_to_depth_3() {
    for (name, fen, counts) in STANDARD {
        let pos = Position::from_fen(fen).unwrap();
        for (d, want) in counts.iter().enumerate() {
            let (got, _) = engine().perft(&pos, d as u8 + 1);
            assert_eq!(got, *want, "{name} perft({})", d + 1);
        }
    }
}

/// The engine's perft suite, every depth with at most `max` leaves.
fn perft_suite_to(max: u64) {
    let text = include_str!("../../engine/tests/data/perft_suite.epd");
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let pos = Position::from_fen(fen).unwrap();
        for p in parts {
            let (d, count) = p.trim().split_once(' ').unwrap();
            let d: u8 = d.trim_start_matches('D').parse().unwrap();
            let count: u64 = count.trim().parse().unwrap();
            if count > max {
                break;
            }
            assert_eq!(engine().perft(&pos, d).0, count, "{fen} perft({d})");
        }
    }
}

/// The perft suite, every depth with at most 3,000 leaves.
#[test]
fn perft_suite_small_counts() {
    perft_suite_to(3_000);
}

/// The perft suite as the Z80's test runs it: every depth with at most 30,000 leaves.
#[test]
#[ignore = "about 100 s in the dev profile"]
fn perft_suite() {
    perft_suite_to(30_000);
}

fn suite_entries() -> Vec<suite::SuiteEntry> {
    let text = include_str!("../../tests/data/suite.epd");
    suite::parse(text, "tests/data/suite.epd").unwrap()
}

fn suite_to_depth(max: u32) {
    for e in suite_entries() {
        let case = Case::from_entry(&e).unwrap();
        let (pos, history) = case.build().unwrap();
        for depth in 1..=max {
            compare(
                &pos,
                &history,
                Check::Search { depth, nodes: None },
                &format!("suite line {} ({})", e.line, e.id),
            );
        }
    }
}

#[test]
fn suite_depths_1_to_3() {
    suite_to_depth(3);
}

#[test]
#[ignore = "depth 4 on the whole suite: a few minutes in the dev profile"]
fn suite_depth_4() {
    for e in suite_entries() {
        let case = Case::from_entry(&e).unwrap();
        let (pos, history) = case.build().unwrap();
        compare(
            &pos,
            &history,
            Check::Search {
                depth: 4,
                nodes: None,
            },
            &format!("suite line {} ({})", e.line, e.id),
        );
    }
}

fn case_file(text: &str, file: &str) {
    for e in suite::parse(text, file).unwrap() {
        let case = Case::from_entry(&e).unwrap();
        let (pos, history) = case.build().unwrap();
        for check in Case::checks(&e).unwrap() {
            compare(
                &pos,
                &history,
                check,
                &format!("{file}:{} ({})", e.line, e.id),
            );
        }
    }
}

#[test]
#[ignore = "about 90 s in the dev profile"]
fn differential_edge_cases() {
    case_file(
        include_str!("data/edge_cases.epd"),
        "roms-src/tests/data/edge_cases.epd",
    );
}

#[test]
fn differential_regressions() {
    case_file(
        include_str!("data/regressions.epd"),
        "roms-src/tests/data/regressions.epd",
    );
}

#[test]
fn node_limits_stop_like_the_native_search() {
    let e = suite_entries();
    for entry in e.iter().take(6) {
        let (pos, history) = Case::from_entry(entry).unwrap().build().unwrap();
        for n in [0, 1, 50, 700, 5000] {
            compare(
                &pos,
                &history,
                Check::Search {
                    depth: 32,
                    nodes: Some(n),
                },
                &format!("suite line {} node limit {n}", entry.line),
            );
        }
    }
}

#[test]
fn statuses_for_bad_requests() {
    let e = engine();
    let pos = Position::startpos();
    let status = |m: &mut Machine| {
        let stats = m.run(BUDGET).unwrap();
        assert!(stats.is_done());
        m.read_byte(e.sym("R_STATUS"))
    };
    let mut m = e.machine(&pos, &[], "CMD_SEARCH", 0);
    assert_eq!(status(&mut m), e.sym("ST_BAD_COMMAND") as u8, "depth 0");
    let mut m = e.machine(&pos, &[], "CMD_SEARCH", 33);
    assert_eq!(status(&mut m), e.sym("ST_BAD_COMMAND") as u8, "depth 33");
    let mut m = e.machine(&pos, &[], "CMD_SEARCH", 1);
    m.write_bytes(e.sym("P_CMD"), &[7]).unwrap();
    assert_eq!(status(&mut m), e.sym("ST_BAD_COMMAND") as u8, "command 7");
    let mut m = e.machine(&pos, &[], "CMD_PERFT", 1);
    m.write_bytes(e.sym("BOARD") + 0x34, &[7]).unwrap();
    assert_eq!(
        status(&mut m),
        e.sym("ST_BAD_POSITION") as u8,
        "code 7 on e4"
    );
    let mut m = e.machine(&pos, &[], "CMD_PERFT", 1);
    m.write_bytes(e.sym("BOARD") + 0x04, &[0]).unwrap();
    assert_eq!(
        status(&mut m),
        e.sym("ST_BAD_POSITION") as u8,
        "no white king"
    );
    let mut m = e.machine(&pos, &[], "CMD_SEARCH", 1);
    m.write_bytes(e.sym("P_HCOUNT"), &[102]).unwrap();
    assert_eq!(status(&mut m), e.sym("ST_HIST_OVERFLOW") as u8, "102 keys");
}

#[test]
fn mate_and_stalemate_at_the_root() {
    let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let o = engine().search(&mate, &[], 3, None);
    assert_eq!((o.best, o.score, o.depth, o.nodes), (None, -32000, 0, 0));
    let stale = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let o = engine().search(&stale, &[], 3, None);
    assert_eq!((o.best, o.score, o.depth, o.nodes), (None, 0, 0, 0));
}

/// ROM size and cycles per node at depth 5 on the bundled suite, printed for the report (the
/// search results are checked against the native engine on the way).
#[test]
#[ignore = "figures: depth 5 on the whole suite, minutes in the dev profile"]
fn figures_cycles_per_node() {
    let e = engine();
    println!("engine image: {} bytes at ${:04X}", e.rom.len(), e.origin);
    let (mut cycles, mut nodes) = (0u64, 0u64);
    for entry in suite_entries() {
        let (pos, history) = Case::from_entry(&entry).unwrap().build().unwrap();
        let check = Check::Search {
            depth: 5,
            nodes: None,
        };
        let o = compare(&pos, &history, check, &format!("line {}", entry.line)).unwrap();
        println!(
            "line {:3}: {:8} nodes {:12} cycles",
            entry.line, o.nodes, o.cycles
        );
        cycles += o.cycles;
        nodes += o.nodes;
    }
    println!(
        "depth 5: {nodes} nodes, {cycles} cycles, {:.1} cycles per node",
        cycles as f64 / nodes as f64
    );
}

/// Peak RAM (zero page and stack page included: distinct bytes written plus the deepest
/// stack) of searches to depth 1 and `KEMPELEN_RAM_DEPTH` (default 8) on the suite positions
/// whose native search at that depth takes at most `KEMPELEN_RAM_NODES` nodes (default
/// 200,000), and the bytes per ply between them.
#[test]
#[ignore = "figures: deep searches, minutes in the dev profile"]
fn figures_ram() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let depth = env("KEMPELEN_RAM_DEPTH", 8) as u32;
    let cap = env("KEMPELEN_RAM_NODES", 200_000);
    let e = engine();
    let (mut sum1, mut sumd, mut n, mut max) = (0f64, 0f64, 0f64, 0u32);
    for entry in suite_entries() {
        let (pos, history) = Case::from_entry(&entry).unwrap().build().unwrap();
        if pos.legal_moves().is_empty() || native_search(&pos, &history, depth, None).nodes > cap {
            continue;
        }
        let one = e.search(&pos, &history, 1, None);
        let deep = compare(
            &pos,
            &history,
            Check::Search { depth, nodes: None },
            &format!("line {}", entry.line),
        )
        .unwrap();
        println!(
            "line {:3}: peak RAM depth 1 {} bytes, depth {depth} {} bytes (stack {:?})",
            entry.line,
            one.ram.peak_bytes,
            deep.ram.peak_bytes,
            deep.ram.stack.as_ref().map(|s| s.max_depth)
        );
        sum1 += one.ram.peak_bytes as f64;
        sumd += deep.ram.peak_bytes as f64;
        max = max.max(deep.ram.peak_bytes);
        n += 1.0;
    }
    println!(
        "{n} positions: peak RAM at depth {depth} max {max} bytes, mean {:.1}; bytes per ply {:.1}",
        sumd / n,
        (sumd - sum1) / n / f64::from(depth - 1)
    );
}

/// Cycles per routine of depth-4 searches of the first suite positions (development aid).
#[test]
#[ignore = "profile: prints cycles per routine"]
fn profile_routines() {
    let e = engine();
    let mut total: std::collections::HashMap<String, u64> = Default::default();
    let mut all = 0;
    for entry in suite_entries().iter().skip(8).take(12) {
        let (pos, history) = Case::from_entry(entry).unwrap().build().unwrap();
        let mut m = e.machine(&pos, &history, "CMD_SEARCH", 4);
        m.set_symbols(e.symbols.clone());
        m.write_bytes(e.sym("P_NODES"), &[0xFF; 4]).unwrap();
        m.enable_profiler();
        e.run(&mut m);
        let p = m.profile().unwrap();
        all += p.total_cycles;
        for r in p.rows {
            *total.entry(r.routine.clone()).or_default() += r.cycles;
        }
    }
    let mut v: Vec<_> = total.into_iter().collect();
    v.sort_by_key(|(_, c)| std::cmp::Reverse(*c));
    for (n, c) in v.iter().take(30) {
        println!("{n:24} {c:12} {:5.1}%", *c as f64 * 100.0 / all as f64);
    }
}

/// With `HOST_ITER_CALL = 1` the engine makes host call $01 right after it has written the
/// results of each completed iteration. The emulator of this branch knows only $00, so the run
/// stops there with `UnknownHostCall`, which shows where the call is made.
#[test]
fn iteration_host_call_is_switchable() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("6502");
    let mut src = MemorySource::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let text = if name == "engine.asm" {
            assert!(text.contains("HOST_ITER_CALL = 0"));
            text.replace("HOST_ITER_CALL = 0", "HOST_ITER_CALL = 1")
        } else {
            text
        };
        src.add(&name, text);
    }
    let out = assemble("engine.asm", &src, &Options::new(Cpu::Mos6502));
    assert!(out.is_ok(), "{}", out.report());
    let on = Engine6502 {
        origin: out.image.origin,
        rom: out.image.bytes.clone(),
        symbols: out.symbols.clone(),
    };
    let pos = Position::startpos();
    let mut m = on.machine(&pos, &[], "CMD_SEARCH", 3);
    m.write_bytes(on.sym("P_NODES"), &[0xFF; 4]).unwrap();
    let err = m
        .run(BUDGET)
        .expect_err("host call $01 is not known to this emulator");
    assert!(
        matches!(err.fault, Fault::UnknownHostCall { value: 1, .. }),
        "{:?}",
        err.fault
    );
    let n = native_search(&pos, &[], 1, None);
    assert_eq!(m.read_byte(on.sym("R_DEPTH")), 1);
    assert_eq!(m.read_word(on.sym("R_SCORE")) as i16 as i32, n.score);
    assert_eq!(
        u32::from_le_bytes(m.read_bytes(on.sym("R_NODES"), 4).try_into().unwrap()) as u64,
        n.nodes
    );
}

/// Random games and placements (the generators of `kempelen_roms::differential`): a search to
/// a random depth, a node-limited search and perft per case, against the native engine.
/// Returns the number of checks compared.
fn campaign(seed: u64, cases: usize, depth: u32, max_nodes: u64, max_leaves: u64) -> usize {
    use kempelen_roms::differential::{self, Rng};
    let starts = differential::starts();
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for i in 0..cases {
        let case = if rng.chance(30) {
            match differential::random_placement(&mut rng) {
                Some(f) => Case::position(&f),
                None => continue,
            }
        } else {
            differential::random_game_case(&mut rng, &starts, 160).unwrap()
        };
        let (pos, history) = case.build().unwrap();
        let mut checks = Vec::new();
        let d = rng.range(1, depth as u64) as u32;
        if native_search(&pos, &history, d, None).nodes <= max_nodes {
            checks.push(Check::Search {
                depth: d,
                nodes: None,
            });
        }
        let limit = rng.range(0, max_nodes / 4) as u32;
        if native_search(&pos, &history, 1, None).nodes <= max_nodes {
            checks.push(Check::Search {
                depth: 32,
                nodes: Some(limit),
            });
        }
        let mut perft = 0;
        for p in 1..=4u8 {
            if kempelen_engine::perft(&pos, p as u32) > max_leaves {
                break;
            }
            perft = p;
        }
        if perft > 0 {
            checks.push(Check::Perft(perft));
        }
        for check in checks {
            compare(
                &pos,
                &history,
                check,
                &format!("seed {seed} case {i}: {}", case.to_epd()),
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn random_sample() {
    assert!(campaign(20_240_601, 60, 3, 6_000, 6_000) >= 120);
}

/// `KEMPELEN_SEED`, `KEMPELEN_CASES` (default 1, 500): a larger campaign, depths up to 5.
#[test]
#[ignore = "a random campaign: minutes"]
fn random_campaign() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let n = campaign(
        env("KEMPELEN_SEED", 1),
        env("KEMPELEN_CASES", 500) as usize,
        5,
        200_000,
        300_000,
    );
    println!("{n} checks agree");
}

/// Node limits just below, at and above the node count of each of the first iterations.
#[test]
fn node_limits_at_iteration_boundaries() {
    for entry in suite_entries().iter().skip(8).take(4) {
        let (pos, history) = Case::from_entry(entry).unwrap().build().unwrap();
        for d in 1..=3 {
            let n = native_search(&pos, &history, d, None).nodes as u32;
            for limit in [n - 1, n, n + 1] {
                compare(
                    &pos,
                    &history,
                    Check::Search {
                        depth: 32,
                        nodes: Some(limit),
                    },
                    &format!("suite line {} limit {limit}", entry.line),
                );
            }
        }
    }
}

/// The image is the top 8 KB of the 6502 map's ROM and its reset vector points at `start`.
#[test]
fn image_is_8_kb_with_the_vectors() {
    let e = engine();
    assert_eq!(e.origin, 0xE000);
    assert_eq!(e.rom.len(), 8192);
    let reset = u16::from_le_bytes([e.rom[0x1FFC], e.rom[0x1FFD]]);
    assert_eq!(reset, e.sym("start"));
}
