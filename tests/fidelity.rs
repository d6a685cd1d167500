//! How faithfully the `microchess` and `sargon` profiles play the real programs.
//!
//! The programs are not part of Kempelen, so every test here is ignored and runs only when
//! `KEMPELEN_HISTORICAL` names a folder with `microchess.h65` and `sargon-z80.asm` (see the
//! adaptor files for where to get them):
//!
//! ```text
//! KEMPELEN_HISTORICAL=DIR cargo test --release --test fidelity -- --ignored --nocapture
//! ```
//!
//! - `microchess_fidelity_games`, `sargon_fidelity_games`: games the real programs play in
//!   Kempelen (`kempelen uci --program ADAPTOR`) against native profiles, each of the program's
//!   moves held against the profile's move on the same move history (book moves counted
//!   apart). `FIDELITY_SEED` (default 0) picks other openings and opponents, `FIDELITY_GAMES`
//!   the number of games, `FIDELITY_PGN_DIR` a folder to write the games to as PGN (the
//!   record in engine/tests/data/fidelity/ was written so, with seed 0, 24 games of
//!   Microchess and 8 of Sargon). By default 16 games of Microchess and 8 of Sargon; game k
//!   of a seed is the same whatever the number of games.
//! - `microchess_values_agree_with_the_kim1`, `sargon_points_agree_with_the_listing`: value
//!   by value: every move Microchess values in GO, and every POINTS of a Sargon search (the
//!   program is stopped after each POINTS by a hook in spare RAM that logs ply, move and
//!   score), on positions of games the reference profile plays against itself.
//! - `sargon_book_bit_on_the_jupiter3`: the refresh-register bit BOOK reads as White.
//!
//! The games' figures for a seed the README names (`A of B (G games, seed S)`) must be the
//! README's, or the test fails.
//!
//! Two tests here need no program and run in the normal suite:
//! `microchess_profile_sees_the_board_its_adaptor_gives`, which holds the `microchess`
//! profile's model of the program's board to what the adaptor gives the program (which moves
//! it types, how it writes a position), so that a change of either shows at once; and
//! `the_readme_fidelity_figures_are_read`, which holds the README's sentence to the form the
//! games' check reads.

mod common;

use common::historical_file;
use kempelen_emulator::{Personality, StopReason, TraceFilter, Tracer};
use kempelen_engine::history::{microchess, sargon};
use kempelen_engine::{Engine, Game, Limits, Move, NativeEngine, Profile, SearchControl};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

/// The RAM images of the KIM-1 Microchess hex dump ($0000-$03FF and $1780-$17FF).
fn microchess_images(path: &std::path::Path) -> Vec<(u16, Vec<u8>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut low = vec![0u8; 0x400];
    let mut high = vec![0u8; 0x80];
    for line in text.lines() {
        let mut f = line.split_whitespace();
        let Some(a) = f.next().and_then(|a| u16::from_str_radix(a, 16).ok()) else {
            continue;
        };
        for (i, b) in f.enumerate() {
            let at = usize::from(a) + i;
            let v = u8::from_str_radix(b, 16).unwrap();
            if at < 0x400 {
                low[at] = v;
            } else if (0x1780..0x1800).contains(&at) {
                high[at - 0x1780] = v;
            }
        }
    }
    vec![(0, low), (0x1780, high)]
}

struct RealMicrochess {
    images: Vec<(u16, Vec<u8>)>,
}

impl RealMicrochess {
    /// The KIM-1 program from `microchess.h65` in `KEMPELEN_HISTORICAL` (`None`, with a
    /// `SKIPPED` line, without it).
    fn from_historical() -> Option<RealMicrochess> {
        let path = historical_file("microchess.h65")?;
        Some(RealMicrochess {
            images: microchess_images(&path),
        })
    }

    /// Runs GO (without the book) on `board`: the value of every candidate in the order the
    /// program values them, and its move (piece, to), or None when it resigns.
    fn go(&self, board: &microchess::McBoard) -> (Vec<u8>, Option<(u8, u8)>) {
        let p = Personality::built_in("kim-1").unwrap();
        let mut b = p.builder();
        for (a, bytes) in &self.images {
            b = b.load(*a, bytes);
        }
        let mut m = b.build().unwrap();
        m.write_bytes(0x000C, &[0x6A]).unwrap();
        m.write_bytes(0x0050, board).unwrap();
        m.write_bytes(0x00DC, &[0x00]).unwrap(); // no book
        m.write_bytes(0x00B2, &[0xC8]).unwrap();
        m.write_bytes(0x00B8, &[0x4C, 0xB8, 0x00]).unwrap(); // JMP * : resign lands here
        m.write_bytes(0x01FE, &[0xB7, 0x00]).unwrap();
        m.set_sp(0x01FD);
        m.set_pc(0x03A2);
        m.console_mut().set_stop_on_empty_input(true);
        let (tracer, store) = Tracer::collecting(TraceFilter {
            max_entries: None,
            range: Some("038F-038F".parse().unwrap()),
        });
        m.set_tracer(tracer);
        let stats = m.run(2_000_000_000).unwrap();
        let values: Vec<u8> = store
            .borrow()
            .iter()
            .map(|e| match e.registers {
                Some(kempelen_emulator::Registers::Mos6502(r)) => r.a,
                _ => panic!("no registers"),
            })
            .collect();
        let mv = match stats.stop {
            StopReason::InputWait { .. } => Some((m.read_byte(0xB0), m.read_byte(0xB1))),
            StopReason::SelfLoop { .. } => None,
            s => panic!("stopped: {s}"),
        };
        (values, mv)
    }
}

/// The positions the value-by-value tests compare: [`sample_games`] of 40 plies each,
/// `FIDELITY_GAMES` of them (default `default_games`) after the first `FIDELITY_SKIP`.
fn sample_positions(default_games: usize) -> Vec<Game> {
    let n = env_number("FIDELITY_GAMES", default_games);
    let skip = env_number("FIDELITY_SKIP", 0);
    sample_games(n + skip, 40)
        .into_iter()
        .skip(skip * 40)
        .collect()
}

/// Games of the reference profile against itself from the bundled openings, each position
/// with its game so far.
fn sample_games(n: usize, plies: usize) -> Vec<Game> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tools/match/openings.epd"
    ))
    .unwrap();
    let mut out = Vec::new();
    for (k, line) in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains("c0 \""))
        .take(n)
        .enumerate()
    {
        let c0 = line
            .split("c0 \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let mut game = Game::default();
        for san in c0.split_whitespace() {
            game.push_san(san).unwrap();
        }
        let mut engine = NativeEngine::new(Profile::Reference);
        for ply in 0..plies {
            if game.status().is_over() {
                break;
            }
            out.push(game.clone());
            let depth = 1 + ((k + ply) % 3) as u32;
            game.push(best(&mut engine, &game, depth).unwrap()).unwrap();
        }
    }
    out
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65"]
fn microchess_values_agree_with_the_kim1() {
    let Some(real) = RealMicrochess::from_historical() else {
        return;
    };
    let games = sample_positions(6);
    let (mut same, mut total, mut same_move) = (0, 0, 0);
    for game in &games {
        let b = microchess::program_board(game);
        let a = microchess::analyse(&b, microchess::Formula::Binary);
        let ours: Vec<u8> = a.moves.iter().map(|v| v.value as u8).collect();
        let (values, mv) = real.go(&b);
        total += 1;
        let our_move = if a.resigns {
            None
        } else {
            a.best.map(|i| (a.moves[i].piece, a.moves[i].to))
        };
        if ours == values {
            same += 1;
        } else if total - same < 5 {
            println!(
                "{} {:?}\n ours {:?}\n real {:?}",
                game.position().to_fen(),
                b,
                a.moves
                    .iter()
                    .map(|v| (v.piece, v.to, v.value))
                    .collect::<Vec<_>>(),
                values
            );
        }
        if our_move == mv {
            same_move += 1;
        }
        if total % 20 == 0 {
            println!("{total}: {same} values, {same_move} moves");
        }
    }
    println!("values agree in {same} of {total} positions, moves in {same_move}");
    assert_eq!(same, total);
}

/// Sargon assembled from the listing, with symbols.
struct RealSargon {
    image: Vec<u8>,
    origin: u16,
    symbols: Vec<(String, u16)>,
}

const STUB: u16 = 0x7000;
const HOOK: u16 = 0x7100;
const LOGPTR: u16 = 0x7180;
const PREV: u16 = 0x7200;
const LOG: u16 = 0x8000;

/// Runs `body` with the real Sargon ([`RealSargon::from_historical`]) and the look-ahead
/// `FIDELITY_DEPTH` (default 2); skipped without `KEMPELEN_HISTORICAL`.
fn with_sargon(body: impl FnOnce(RealSargon, u8)) {
    if let Some(real) = RealSargon::from_historical() {
        body(real, env_number("FIDELITY_DEPTH", 2) as u8);
    }
}

impl RealSargon {
    /// Sargon from `sargon-z80.asm` in `KEMPELEN_HISTORICAL` (`None`, with a `SKIPPED` line,
    /// without it).
    fn from_historical() -> Option<RealSargon> {
        historical_file("sargon-z80.asm").map(|path| RealSargon::new(&path))
    }

    fn new(path: &std::path::Path) -> RealSargon {
        let options = kempelen_asm::Options {
            overlap: kempelen_asm::Overlap::LaterWins,
            ..kempelen_asm::Options::new(kempelen_asm::Cpu::Z80)
        };
        let out = kempelen_asm::assemble(
            &path.to_string_lossy(),
            &kempelen_asm::source::FsSource,
            &options,
        );
        assert!(out.is_ok(), "{}", out.report());
        RealSargon {
            image: out.image.bytes.clone(),
            origin: out.image.origin,
            symbols: out
                .symbols
                .iter()
                .map(|s| (s.name.clone(), s.value))
                .collect(),
        }
    }

    /// The Jupiter III with the program loaded, to start at its DRIVER; the run stops when it
    /// waits for a key that is not there.
    fn driver(&self) -> kempelen_emulator::Machine {
        let p = Personality::built_in("jupiter-3").unwrap();
        let mut m = p
            .builder()
            .load(self.origin, &self.image)
            .entry(self.sym("DRIVER"))
            .build()
            .unwrap();
        m.console_mut().set_stop_on_empty_input(true);
        m
    }

    fn sym(&self, name: &str) -> u16 {
        self.symbols
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .unwrap_or_else(|| panic!("no symbol {name}"))
            .1
    }

    /// FNDMOV at `depth` on the game's position (board and flags as the profile keeps them;
    /// POSQ as ROYALT sets it, or `posq`): the move (from, to board indices), the
    /// root score and every POINTS call (ply, from, to, score).
    fn fndmov(
        &self,
        game: &Game,
        depth: u8,
        posq: Option<[u8; 2]>,
    ) -> ((u8, u8), u8, Vec<sargon::PointsCall>) {
        let p = Personality::built_in("jupiter-3").unwrap();
        let fndmov = self.sym("FNDMOV");
        let nply = self.sym("NPLY");
        let stub = [0xCD, fndmov as u8, (fndmov >> 8) as u8, 0x76];
        let hook = [
            0xDD,
            0x77,
            0x05, // LD (IX+5),A
            0xE5,
            0xF5, // PUSH HL, PUSH AF
            0x2A,
            LOGPTR as u8,
            (LOGPTR >> 8) as u8, // LD HL,(LOGPTR)
            0x77,
            0x23, // LD (HL),A  INC HL
            0xDD,
            0x7E,
            0x02,
            0x77,
            0x23, // LD A,(IX+2) LD (HL),A INC HL
            0xDD,
            0x7E,
            0x03,
            0x77,
            0x23, // LD A,(IX+3) ...
            0x3A,
            nply as u8,
            (nply >> 8) as u8,
            0x77,
            0x23, // LD A,(NPLY) ...
            0x22,
            LOGPTR as u8,
            (LOGPTR >> 8) as u8, // LD (LOGPTR),HL
            0x7C,
            0xB7,
            0x20,
            0x01,
            0x76, // LD A,H  OR A  JR NZ,+1  HALT
            0xF1,
            0xE1,
            0xC9, // POP AF POP HL RET
        ];
        let mut m = p
            .builder()
            .load(self.origin, &self.image)
            .load(STUB, &stub)
            .load(HOOK, &hook)
            .build()
            .unwrap();
        let pos = game.position();
        let board = sargon::board_of_game(game);
        m.write_bytes(self.sym("BOARDA"), &board).unwrap();
        // POSK: kings; POSQ: the first queen of each colour (as the profile).
        let find = |t: u8, black: bool| {
            (21..99)
                .find(|&i| board[i] != 0xFF && board[i] & 7 == t && (board[i] & 0x80 != 0) == black)
                .unwrap_or(0) as u8
        };
        let posk = self.sym("POSK");
        let on_board = sargon::queens_on_board(&board);
        let queens = posq.unwrap_or([on_board[0] as u8, on_board[1] as u8]);
        m.write_bytes(posk, &[find(6, false), find(6, true), queens[0], queens[1]])
            .unwrap();
        let black = pos.side() == kempelen_engine::piece::BLACK;
        let colour = if black { 0x80 } else { 0 };
        m.write_bytes(self.sym("KOLOR"), &[colour]).unwrap();
        m.write_bytes(self.sym("COLOR"), &[colour]).unwrap();
        m.write_bytes(self.sym("MOVENO"), &[pos.fullmove_number().max(2) as u8])
            .unwrap();
        m.write_bytes(self.sym("PLYMAX"), &[depth]).unwrap();
        // The previous move, for en passant.
        let mut entry = [0u8; 6];
        if let Some(&last) = game.moves().last() {
            let mut before = Game::new(game.start().clone());
            for &mv in &game.moves()[..game.moves().len() - 1] {
                before.push(mv).unwrap();
            }
            let bb = sargon::board_of_game(&before);
            let from = sargon::index(last.from());
            entry[2] = from as u8;
            entry[3] = sargon::index(last.to()) as u8;
            if bb[from] & 0x08 == 0 {
                entry[4] |= 0x10;
            }
        }
        m.write_bytes(PREV, &entry).unwrap();
        m.write_word(self.sym("MLPTRJ"), PREV).unwrap();
        // The hook after POINTS's last store: log (score, from, to, ply).
        let points = self.sym("POINTS");
        let at = (points..points + 0x200)
            .find(|&a| m.read_bytes(a, 3) == [0xDD, 0x77, 0x05])
            .expect("LD (IX+5),A in POINTS");
        m.write_bytes(at, &[0xCD, HOOK as u8, (HOOK >> 8) as u8])
            .unwrap();
        m.write_word(LOGPTR, LOG).unwrap();
        m.set_sp(self.sym("STACK"));
        m.set_pc(STUB);
        let mut log = Vec::new();
        let drain = |m: &mut kempelen_emulator::Machine, log: &mut Vec<sargon::PointsCall>| {
            let end = m.read_word(LOGPTR);
            let end = if end == 0 {
                0x10000usize
            } else {
                usize::from(end)
            };
            let bytes = m.read_bytes(LOG, end - usize::from(LOG));
            for c in bytes.chunks(4) {
                log.push((c[3], c[1], c[2], c[0]));
            }
            m.write_word(LOGPTR, LOG).unwrap();
        };
        loop {
            let stats = m.run(400_000_000_000).unwrap();
            drain(&mut m, &mut log);
            match stats.stop {
                StopReason::Halt { pc } if pc == STUB + 3 => break,
                StopReason::Halt { pc } => m.set_pc(pc + 1),
                s => panic!("stopped: {s}"),
            }
        }
        let best = m.read_word(self.sym("BESTM"));
        let mv = (m.read_byte(best + 2), m.read_byte(best + 3));
        let score = m.read_byte(self.sym("SCORE") + 1);
        (mv, score, log)
    }
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm"]
fn sargon_points_agree_with_the_listing() {
    with_sargon(|real, depth| {
        let games = sample_positions(3);
        let (mut same, mut same_move, mut total) = (0, 0, 0);
        for game in games.iter().filter(|g| g.position().fullmove_number() > 1) {
            total += 1;
            let (rm, rscore, rlog) = real.fndmov(game, depth, None);
            let b = sargon::board_of_game(game);
            let (pm, pscore, plog) =
                sargon::traced_fndmov(game, depth as usize, sargon::queens_on_board(&b));
            let pm = pm.map(|m| (sargon::index(m.from()) as u8, sargon::index(m.to()) as u8));
            if pm == Some(rm) {
                same_move += 1;
            }
            // The root position's POINTS is not compared (it reads the previous move).
            let first = rlog
                .iter()
                .skip(1)
                .zip(plog.iter().skip(1))
                .position(|(a, b)| a != b);
            if first.is_none() && rlog.len() == plog.len() && rscore == pscore {
                same += 1;
            } else if total - same <= 5 {
                let i = first.unwrap_or(rlog.len().min(plog.len()) - 1) + 1;
                println!(
                    "{}\n  moves real {rm:?} ours {pm:?}, score {rscore} {pscore}, log {} {}, first difference at {i}: real {:?} ours {:?}\n  before: {:?}",
                    game.position().to_fen(),
                    rlog.len(),
                    plog.len(),
                    rlog.get(i),
                    plog.get(i),
                    &rlog[i.saturating_sub(4)..i]
                );
                let root = rlog[..i].iter().rposition(|c| c.0 == 1);
                println!("  last ply-1 entry before: {:?}", root.map(|r| rlog[r]));
            }
            if total % 10 == 0 {
                println!("{total}: {same} logs, {same_move} moves");
            }
        }
        println!("logs agree in {same} of {total} positions, moves in {same_move}");
    });
}

/// One position of a game (`FIDELITY_MOVES`: its moves from the start in UCI notation) at
/// look-ahead `FIDELITY_DEPTH` (`FIDELITY_POSQ`: the queens' squares the program keeps): the real program's FNDMOV and the profile's, POINTS by POINTS,
/// with the first difference.
#[test]
#[ignore = "development: FIDELITY_MOVES, FIDELITY_DEPTH"]
fn sargon_points_of_a_game() {
    with_sargon(|real, depth| {
        let mut game = Game::default();
        for m in std::env::var("FIDELITY_MOVES").unwrap().split_whitespace() {
            game.push_uci(m).unwrap();
        }
        // FIDELITY_POSQ: the program's POSQ as two board indices (White's, Black's queen).
        let posq = std::env::var("FIDELITY_POSQ").ok().map(|v| {
            let q: Vec<u8> = v.split(',').map(|x| x.trim().parse().unwrap()).collect();
            [q[0], q[1]]
        });
        let (rm, rscore, rlog) = real.fndmov(&game, depth, posq);
        let queens = match posq {
            Some(q) => [usize::from(q[0]), usize::from(q[1])],
            None => sargon::queens_on_board(&sargon::board_of_game(&game)),
        };
        let (pm, pscore, plog) = sargon::traced_fndmov(&game, depth as usize, queens);
        let pm = pm.map(|m| (sargon::index(m.from()) as u8, sargon::index(m.to()) as u8));
        println!(
            "{}: real {rm:?} score {rscore}, {} POINTS; profile {pm:?} score {pscore}, {} POINTS",
            game.position().to_fen(),
            rlog.len(),
            plog.len()
        );
        match rlog
            .iter()
            .zip(plog.iter())
            .skip(1)
            .position(|(a, b)| a != b)
        {
            Some(i) => {
                let i = i + 1;
                println!(
                    "first difference at {i}: real {:?} profile {:?}; before: {:?}",
                    rlog[i],
                    plog[i],
                    &rlog[i.saturating_sub(6)..i]
                );
            }
            None => println!("the POINTS logs agree over their common length"),
        }
    });
}

/// The real program's state in a game played by keys (`FIDELITY_MOVES`, UCI, the program
/// plays the side to move after the last one, at look-ahead `FIDELITY_DEPTH`), stopped when
/// FNDMOV is entered for its last move, beside the profile's board of the same game.
#[test]
#[ignore = "development: FIDELITY_MOVES, FIDELITY_DEPTH"]
fn sargon_state_in_a_game() {
    with_sargon(|real, depth| {
        let moves: Vec<String> = std::env::var("FIDELITY_MOVES")
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let program_white = moves.len() % 2 == 0;
        let mut m = real.driver();
        let player = if program_white { "B" } else { "W" };
        m.console_mut()
            .push_input(format!("Y{player}{depth}").as_bytes());
        let mut game = Game::default();
        let fndmov = real.sym("FNDMOV");
        let first = m.read_byte(fndmov);
        let player_moves: Vec<usize> = (0..moves.len())
            .filter(|i| (i % 2 == 0) != program_white)
            .collect();
        for (i, uci) in moves.iter().enumerate() {
            let mv = game.push_uci(uci).unwrap();
            if (i % 2 == 0) == program_white {
                continue;
            }
            let stats = m.run(400_000_000_000).unwrap();
            assert!(
                matches!(stats.stop, StopReason::InputWait { .. }),
                "{}",
                stats.stop
            );
            if Some(&i) == player_moves.last() {
                m.write_bytes(fndmov, &[0x76]).unwrap();
            }
            let name =
                |sq: kempelen_engine::Square| kempelen_engine::square::name(sq).to_uppercase();
            m.console_mut()
                .push_input(format!("{}-{}", name(mv.from()), name(mv.to())).as_bytes());
        }
        let stats = m.run(400_000_000_000).unwrap();
        println!("stopped: {}", stats.stop);
        let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
        let tail: String = out
            .chars()
            .rev()
            .take(600)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        println!("output tail: {tail}");
        let ours = sargon::board_of_game(&game);
        let theirs = m.read_bytes(real.sym("BOARDA"), 120);
        for i in 0..120 {
            if ours[i] != theirs[i] {
                println!("board {i}: real {:02x} profile {:02x}", theirs[i], ours[i]);
            }
        }
        for name in ["POSK", "POSQ"] {
            println!("{name} {:?}", m.read_bytes(real.sym(name), 2));
        }
        for name in ["PLYMAX", "MOVENO", "KOLOR", "PMATE"] {
            println!("{name} {}", m.read_byte(real.sym(name)));
        }
        let j = m.read_word(real.sym("MLPTRJ"));
        println!("MLPTRJ {j:04x}: {:02x?}", m.read_bytes(j, 6));
        m.write_bytes(fndmov, &[first]).unwrap();
        m.set_pc(fndmov);
        let stats = m.run(400_000_000_000).unwrap();
        let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
        println!("then {}: {}", stats.stop, out.trim_end());
    });
}

#[test]
#[ignore = "development: FIDELITY_FEN, FIDELITY_MOVE"]
fn sargon_points_debug() {
    let Some(real) = RealSargon::from_historical() else {
        return;
    };
    let fen = std::env::var("FIDELITY_FEN").unwrap();
    let mv = std::env::var("FIDELITY_MOVE").unwrap();
    let mut game = Game::from_fen(&fen).unwrap();
    let before = game.position().clone();
    let m = game.push_uci(&mv).unwrap();
    let board = sargon::board_of_game(&game);
    let p = Personality::built_in("jupiter-3").unwrap();
    let points = real.sym("POINTS");
    let pinfnd = real.sym("PINFND");
    let attack = real.sym("ATTACK");
    let xchng = real.sym("XCHNG");
    let stub = [
        0xCD,
        pinfnd as u8,
        (pinfnd >> 8) as u8,
        0xCD,
        points as u8,
        (points >> 8) as u8,
        0x76,
        0xCD,
        pinfnd as u8,
        (pinfnd >> 8) as u8,
        0x76, // +7
        0xCD,
        attack as u8,
        (attack >> 8) as u8,
        0x76, // +11
        0xCD,
        xchng as u8,
        (xchng >> 8) as u8,
        0x7B,
        0x32,
        0x00,
        0x73,
        0x76, // +15: LD A,E; LD ($7300),A
    ];
    let mut mm = p
        .builder()
        .load(real.origin, &real.image)
        .load(STUB, &stub)
        .build()
        .unwrap();
    mm.write_bytes(real.sym("BOARDA"), &board).unwrap();
    let find = |t: u8, black: bool| {
        (21..99)
            .find(|&i| board[i] != 0xFF && board[i] & 7 == t && (board[i] & 0x80 != 0) == black)
            .unwrap_or(0) as u8
    };
    mm.write_bytes(
        real.sym("POSK"),
        &[find(6, false), find(6, true), find(5, false), find(5, true)],
    )
    .unwrap();
    let mover = if before.side() == kempelen_engine::piece::BLACK {
        0x80
    } else {
        0
    };
    mm.write_bytes(real.sym("COLOR"), &[mover]).unwrap();
    mm.write_bytes(real.sym("MOVENO"), &[before.fullmove_number() as u8])
        .unwrap();
    let entry = [
        0,
        0,
        sargon::index(m.from()) as u8,
        sargon::index(m.to()) as u8,
        0,
        0,
    ];
    mm.write_bytes(PREV, &entry).unwrap();
    mm.write_word(real.sym("MLPTRJ"), PREV).unwrap();
    mm.set_sp(real.sym("STACK"));
    mm.set_pc(STUB);
    mm.run(1_000_000_000).unwrap();
    let rd = |n: &str| mm.read_byte(real.sym(n));
    println!(
        "real: VALM {} MTRL {} BRDC {} PTSL {} PTSW1 {} PTSW2 {} PTSCK {} NPINS {}",
        rd("VALM"),
        rd("MTRL") as i8,
        rd("BRDC") as i8,
        rd("PTSL"),
        rd("PTSW1"),
        rd("PTSW2"),
        rd("PTSCK"),
        rd("NPINS")
    );
    let pins = sargon::find_pins(
        &board,
        [
            find(6, false) as usize,
            find(6, true) as usize,
            find(5, false) as usize,
            find(5, true) as usize,
        ],
    );
    let ours = sargon::points(
        &board,
        &pins,
        &sargon::PointsContext {
            mover: before.side(),
            moved_to: sargon::index(m.to()),
            move_number: before.fullmove_number(),
            root_material: 0,
            root_control: 0,
        },
    );
    println!("ours: {ours:?} pins {pins:?}");
    // Square by square: the attack lists and the exchange, ours and the program's.
    mm.set_pc(STUB + 7);
    mm.run(1_000_000_000).unwrap();
    for sq in 21..99usize {
        if board[sq] == 0xFF {
            continue;
        }
        let list = sargon::attack_list(&board, sq, &pins);
        let ex = if board[sq] != 0 {
            sargon::exchange(&list, board[sq]).0
        } else {
            0
        };
        mm.write_bytes(real.sym("M3"), &[sq as u8]).unwrap();
        mm.write_bytes(real.sym("P1"), &[board[sq]]).unwrap();
        mm.write_bytes(real.sym("T1"), &[7]).unwrap();
        mm.write_bytes(real.sym("T3"), &[board[sq] & 7]).unwrap();
        mm.write_bytes(real.sym("ATKLST"), &[0; 14]).unwrap();
        mm.set_pc(STUB + 11);
        mm.run(1_000_000_000).unwrap();
        let rlist = mm.read_bytes(real.sym("ATKLST"), 14);
        let mut rex = 0;
        if board[sq] != 0 {
            mm.set_pc(STUB + 15);
            mm.run(1_000_000_000).unwrap();
            rex = mm.read_byte(0x7300);
        }
        if rlist != list || rex != ex {
            println!(
                "{sq}: ours {:02x?} {ex}\n    real {:02x?} {rex}",
                list, rlist
            );
        }
    }
}

/// BOOK's random bit on Kempelen's Jupiter III: the refresh register R when Sargon, started as
/// the adaptor starts it, reaches its `LD A,R` as White on move 1, for every look-ahead.
#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm"]
fn sargon_book_bit_on_the_jupiter3() {
    let Some(real) = RealSargon::from_historical() else {
        return;
    };
    let book = real.sym("BOOK");
    let ld_a_r = (book..book + 0x40)
        .find(|&a| {
            let i = usize::from(a - real.origin);
            real.image[i..i + 2] == [0xED, 0x5F]
        })
        .expect("LD A,R in BOOK");
    for depth in 1..=6 {
        let mut m = real.driver();
        let (tracer, store) = Tracer::collecting(TraceFilter {
            max_entries: None,
            range: Some(format!("{ld_a_r:04X}-{ld_a_r:04X}").parse().unwrap()),
        });
        m.set_tracer(tracer);
        m.run(1_000_000_000).unwrap();
        m.console_mut().push_input(format!("YB{depth}").as_bytes());
        m.run(1_000_000_000).unwrap();
        let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
        let r = match store.borrow().first().and_then(|e| e.registers) {
            Some(kempelen_emulator::Registers::Z80(r)) => r.r,
            _ => panic!("BOOK not reached: {out}"),
        };
        println!(
            "look-ahead {depth}: R = {r:#04x} before LD A,R, bit 0 = {}: {}",
            r & 1,
            out.trim_end().lines().last().unwrap_or("")
        );
    }
}

// ----- games through the adaptors -----

/// A historical program as a UCI engine: `kempelen uci --program ADAPTOR`.
struct Program {
    child: Child,
    stdin: ChildStdin,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Program {
    fn spawn(adaptor: &str) -> Program {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
            .args(["uci", "--program", &format!("{root}/adaptors/{adaptor}")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run kempelen uci --program");
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Program {
            child,
            stdin,
            lines,
        }
    }

    /// The program's move in `game` (from the start position) at look-ahead `depth`, or the
    /// error the adaptor reported (the program resigned, or its move cannot be played).
    fn go(&mut self, game: &Game, depth: u32) -> Result<Move, String> {
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_uci()).collect();
        writeln!(
            self.stdin,
            "position startpos moves {}\ngo depth {depth}",
            moves.join(" ")
        )
        .unwrap();
        let mut error = None;
        loop {
            let line = self.lines.next().expect("a reply").unwrap();
            if line.starts_with("info string error") {
                error = Some(line.clone());
            }
            if let Some(m) = line.strip_prefix("bestmove ") {
                if let Some(e) = error {
                    return Err(e);
                }
                let text = m.split(' ').next().unwrap_or("");
                return game.position().parse_uci(text).map_err(|e| e.to_string());
            }
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// Which program a game is about.
#[derive(Clone, Copy)]
struct Kind {
    /// The native profile that plays like it; its name names the program.
    profile: Profile,
    /// Its adaptor file (in adaptors/).
    adaptor: &'static str,
    /// Its file in `KEMPELEN_HISTORICAL`.
    file: &'static str,
    /// Its name as a player in the PGN.
    player: &'static str,
}

impl Kind {
    /// The program `profile` (`microchess` or `sargon`) plays like.
    fn of(profile: Profile) -> Kind {
        let (adaptor, file, player) = match profile {
            Profile::Microchess => (
                "microchess-kim1.toml",
                "microchess.h65",
                "Microchess 1976 (KIM-1)",
            ),
            Profile::Sargon => (
                "sargon-jupiter3.toml",
                "sargon-z80.asm",
                "Sargon 1978 (Jupiter III)",
            ),
            other => panic!("{other} is not a program of the record"),
        };
        Kind {
            profile,
            adaptor,
            file,
            player,
        }
    }

    fn name(self) -> &'static str {
        self.profile.name()
    }

    /// The program's name as the README writes it.
    fn title(self) -> &'static str {
        match self.profile {
            Profile::Microchess => "Microchess",
            _ => "Sargon",
        }
    }

    /// Whether the program's move in `game` comes from its book.
    fn is_book(self, game: &Game) -> bool {
        match self.profile {
            Profile::Microchess => microchess::book_squares(game).is_some(),
            _ => sargon::book_move(game.position(), sargon::REFRESH_BIT_ON_JUPITER3).is_some(),
        }
    }
}

/// The opponents the games vary over: a native profile at a depth.
const OPPONENTS: [(&str, u32); 8] = [
    ("reference", 1),
    ("reference", 2),
    ("shannon", 2),
    ("reference", 3),
    ("micromax", 3),
    ("tartan", 2),
    ("full", 2),
    ("turing", 1),
];

/// The opening lines of the bundled sets (tools/match), as SAN moves.
fn opening_lines() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for file in ["openings.epd", "openings-short.epd"] {
        let text =
            std::fs::read_to_string(format!("{}/tools/match/{file}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some(c0) = line.split("c0 \"").nth(1) else {
                continue;
            };
            let id = line.split("id \"").nth(1).and_then(|t| t.split('"').next());
            let moves = c0.split('"').next().unwrap().split_whitespace();
            out.push((
                id.unwrap_or("").to_string(),
                moves.map(str::to_string).collect(),
            ));
        }
    }
    out
}

/// One game of the record.
struct Played {
    kind: Kind,
    program_white: bool,
    look_ahead: u32,
    opponent: String,
    opening: String,
    game: Game,
    termination: String,
    /// The program's last answer when the adaptor could not play it: a move in UCI notation
    /// that is not legal on the real board, or `resigns`.
    answer: Option<String>,
}

/// The answer in an adaptor's error: the move it could not play, or `resigns` when Microchess
/// showed FF FF FF.
fn answer_of(error: &str) -> Option<String> {
    if let Some(rest) = error.split("its reply `").nth(1) {
        return rest.split('`').next().map(str::to_string);
    }
    (error.contains("no reply matching") && error.contains("[FF FF FF]"))
        .then(|| "resigns".to_string())
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Plays game `index` of `seed`: the program's colour alternates; the opponent and the opening
/// line it follows (its own moves only, while the game is still on the line) come from the
/// index; the game ends by the rules, after 200 plies, or when the adaptor reports an error
/// (Microchess resigns by showing FF FF FF, which the adaptor cannot read as a move).
fn play(kind: Kind, seed: usize, index: usize, look_ahead: u32) -> Played {
    let k = seed * 1009 + index;
    let program_white = index % 2 == 0;
    let (name, depth) = OPPONENTS[(k / 2) % OPPONENTS.len()];
    let lines = opening_lines();
    let (opening, line) = &lines[(k * 37 + seed * 11) % lines.len()];
    let profile: Profile = name.parse().unwrap();
    let mut opponent = NativeEngine::new(profile);
    let mut program = Program::spawn(kind.adaptor);
    let mut game = Game::default();
    let mut on_line = true;
    let mut answer = None;
    let termination = loop {
        if game.status().is_over() {
            use kempelen_engine::GameStatus as S;
            break match game.status() {
                S::Checkmate { .. } => "checkmate",
                S::Stalemate => "stalemate",
                S::ThreefoldRepetition => "threefold repetition",
                S::FiftyMoves => "fifty-move rule",
                _ => "insufficient material",
            }
            .to_string();
        }
        if game.moves().len() >= 200 {
            break "200 plies".to_string();
        }
        let white = game.position().side() == kempelen_engine::piece::WHITE;
        let ply = game.moves().len();
        let m = if white == program_white {
            match program.go(&game, look_ahead) {
                Ok(m) => m,
                Err(e) => {
                    answer = answer_of(&e);
                    break match &answer {
                        Some(a) if a == "resigns" => "the program resigned".to_string(),
                        Some(a) => format!("the program's move {a} is not legal on the board"),
                        None => format!("adaptor: {e}"),
                    };
                }
            }
        } else {
            let from_line = line
                .get(ply)
                .filter(|_| on_line)
                .and_then(|san| game.position().parse_san(san).ok());
            from_line.unwrap_or_else(|| best(&mut opponent, &game, depth).unwrap())
        };
        if line
            .get(ply)
            .is_none_or(|san| game.position().san(m) != *san)
        {
            on_line = false;
        }
        game.push(m).unwrap();
    };
    Played {
        kind,
        program_white,
        look_ahead,
        opponent: format!("{name} depth {depth}"),
        opening: opening.clone(),
        game,
        termination,
        answer,
    }
}

/// The move `engine` chooses in `game` at `depth` (`None` where there is none).
fn best(engine: &mut NativeEngine, game: &Game, depth: u32) -> Option<Move> {
    engine
        .search(game, &Limits::depth(depth), &SearchControl::default())
        .unwrap()
        .best
}

/// Of some of the program's moves, how many the profile chose too.
#[derive(Default, Clone, Copy)]
struct Agreement {
    moves: usize,
    agree: usize,
}

/// How a profile did on the program's moves of some games: the moves the program searched,
/// its book moves apart, and each difference.
#[derive(Default)]
struct Tally {
    searched: Agreement,
    book: Agreement,
    differences: Vec<String>,
}

impl Tally {
    /// Counts one of the program's moves, a book move or a searched one; `difference`
    /// describes a searched move the profile did not choose.
    fn count(&mut self, book: bool, agrees: bool, difference: impl FnOnce() -> String) {
        let counted = if book {
            &mut self.book
        } else {
            &mut self.searched
        };
        counted.moves += 1;
        counted.agree += usize::from(agrees);
        if !book && !agrees {
            self.differences.push(difference());
        }
    }
}

/// Asks the profile for its move before each of the program's moves.
fn compare(p: &Played, tally: &mut Tally) {
    let mut engine = NativeEngine::new(p.kind.profile);
    let mut g = Game::default();
    for &m in p.game.moves() {
        let white = g.position().side() == kempelen_engine::piece::WHITE;
        if white == p.program_white {
            let ours = best(&mut engine, &g, p.look_ahead).unwrap();
            tally.count(p.kind.is_book(&g), ours == m, || {
                format!(
                    "{} look-ahead {}: program {}, profile {} ({})",
                    g.position().to_fen(),
                    p.look_ahead,
                    g.position().san(m),
                    g.position().san(ours),
                    g.moves()
                        .iter()
                        .map(|m| m.to_uci())
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            });
        }
        g.push(m).unwrap();
    }
    // The last answer, which the adaptor could not play.
    if let Some(a) = &p.answer {
        let ours = match p.kind.profile {
            Profile::Microchess => match microchess::decision(&g) {
                microchess::Decision::Resigns => "resigns".to_string(),
                microchess::Decision::Moves { from, to } => format!(
                    "{}{}",
                    kempelen_engine::square::name(from),
                    kempelen_engine::square::name(to)
                ),
            },
            // Sargon promotes to a queen only and shows a promotion as its from and to
            // square, which the adaptor cannot play: compare the profile's move without the
            // promotion's letter.
            _ => best(&mut engine, &g, p.look_ahead)
                .map(|m| m.to_uci()[..4].to_string())
                .unwrap_or_default(),
        };
        tally.count(false, ours == *a, || {
            format!(
                "{}: program answers {a}, profile {ours}",
                g.position().to_fen()
            )
        });
    }
}

/// The game as PGN: tags and SAN moves.
fn pgn(p: &Played, round: usize) -> String {
    let (white, black) = if p.program_white {
        (p.kind.player.to_string(), p.opponent.clone())
    } else {
        (p.opponent.clone(), p.kind.player.to_string())
    };
    let status = p.game.status();
    let mut out = String::new();
    for (tag, value) in [
        ("Event", "Kempelen fidelity record".to_string()),
        ("Site", "Kempelen's emulator".to_string()),
        ("Round", round.to_string()),
        ("White", white),
        ("Black", black),
        ("Result", status.result().to_string()),
        ("Program", p.kind.name().to_string()),
        (
            "ProgramColour",
            if p.program_white { "white" } else { "black" }.to_string(),
        ),
        ("LookAhead", p.look_ahead.to_string()),
        ("Opening", p.opening.clone()),
        ("Termination", p.termination.clone()),
        ("ProgramAnswer", p.answer.clone().unwrap_or_default()),
        ("PlyCount", p.game.moves().len().to_string()),
    ] {
        if !value.is_empty() {
            out.push_str(&format!("[{tag} \"{value}\"]\n"));
        }
    }
    out.push('\n');
    let mut g = Game::default();
    let mut tokens = Vec::new();
    for &m in p.game.moves() {
        if g.position().side() == kempelen_engine::piece::WHITE {
            tokens.push(format!("{}.", g.position().fullmove_number()));
        }
        tokens.push(g.position().san(m));
        g.push(m).unwrap();
    }
    tokens.push(status.result().to_string());
    let mut line = String::new();
    for t in tokens {
        if line.len() + t.len() + 1 > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&t);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    out.push_str("\n\n");
    out
}

/// Plays the games, compares, writes the PGN, prints the figures; returns the tally.
fn fidelity_games(kind: Kind, look_aheads: &[u32], default_games: usize) -> Option<Tally> {
    historical_file(kind.file)?;
    let seed = env_number("FIDELITY_SEED", 0);
    let games = env_number("FIDELITY_GAMES", default_games);
    let mut tally = Tally::default();
    let mut text = String::new();
    for i in 0..games {
        let look_ahead = look_aheads[(i / 2) % look_aheads.len()];
        let p = play(kind, seed, i, look_ahead);
        let before = tally.searched;
        compare(&p, &mut tally);
        println!(
            "game {}: {} as {} at look-ahead {look_ahead} against {}, {} ({} plies, {}): {} of {} moves agree",
            i + 1,
            kind.name(),
            if p.program_white { "White" } else { "Black" },
            p.opponent,
            p.opening,
            p.game.moves().len(),
            p.termination,
            tally.searched.agree - before.agree,
            tally.searched.moves - before.moves
        );
        text.push_str(&pgn(&p, i + 1));
    }
    let dir = std::env::var("FIDELITY_PGN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir());
    let file = dir.join(format!("{}-seed{seed}.pgn", kind.name()));
    let tmp = file.with_extension("pgn.tmp");
    std::fs::write(&tmp, &text).unwrap();
    std::fs::rename(&tmp, &file).unwrap();
    println!(
        "{}: {} of {} positions agree ({:.1} %), book moves {} of {}; games in {}",
        kind.name(),
        tally.searched.agree,
        tally.searched.moves,
        100.0 * tally.searched.agree as f64 / tally.searched.moves.max(1) as f64,
        tally.book.agree,
        tally.book.moves,
        file.display()
    );
    for d in &tally.differences {
        println!("  differs: {d}");
    }
    // The README's figure for these games, when it gives one, is what they gave.
    let program = kind.title();
    if let Some((agree, of, in_games)) = readme_fidelity_figure(program, seed) {
        if in_games == games {
            assert_eq!(
                (agree, of),
                (tally.searched.agree, tally.searched.moves),
                "the README says {program} {agree} of {of} ({in_games} games, seed {seed}); the games gave {} of {}",
                tally.searched.agree,
                tally.searched.moves
            );
        }
    }
    Some(tally)
}

/// The README's figures for new games of `program` (`Microchess`, `Sargon`) on `seed`, as
/// it writes them after "On new games not in the record": `A of B (G games, seed S)` gives
/// the positions that agree, of how many, in how many games.
fn readme_fidelity_figure(program: &str, seed: usize) -> Option<(usize, usize, usize)> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).ok()?;
    let text = readme
        .split("On new games not in the record")
        .nth(1)?
        .split("([docs/history")
        .next()?;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The program's part: from its name to the other program's name.
    let mut part = text.split(program).nth(1)?;
    for other in ["Microchess", "Sargon"] {
        if other != program {
            part = part.split(other).next()?;
        }
    }
    let end = part.find(&format!(" games, seed {seed})"))?;
    // "... A of B (G"
    let words: Vec<&str> = part[..end].rsplit(' ').take(4).collect();
    let number = |w: &str| {
        w.trim_start_matches('(')
            .replace(',', "")
            .parse::<usize>()
            .ok()
    };
    if words.len() < 4 || words[2] != "of" {
        return None;
    }
    Some((number(words[3])?, number(words[1])?, number(words[0])?))
}

#[test]
fn the_readme_fidelity_figures_are_read() {
    // The figure reader finds what the README states for each program and seed it names
    // (the ignored games above compare them with what the games give).
    for (program, seed) in [
        ("Microchess", 1),
        ("Microchess", 2),
        ("Sargon", 1),
        ("Sargon", 2),
    ] {
        let f = readme_fidelity_figure(program, seed)
            .unwrap_or_else(|| panic!("the README gives no figure for {program}, seed {seed}"));
        assert!(f.0 <= f.1 && f.2 > 0, "{program} seed {seed}: {f:?}");
    }
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65; seconds a game"]
fn microchess_fidelity_games() {
    if let Some(t) = fidelity_games(Kind::of(Profile::Microchess), &[1], 16) {
        assert!(t.differences.is_empty(), "{:#?}", t.differences);
        assert_eq!(t.book.agree, t.book.moves);
    }
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; about a minute a game"]
fn sargon_fidelity_games() {
    if let Some(t) = fidelity_games(Kind::of(Profile::Sargon), &[2, 3], 8) {
        assert!(
            t.searched.agree * 100 >= t.searched.moves * 99,
            "{} of {}: {:#?}",
            t.searched.agree,
            t.searched.moves,
            t.differences
        );
        assert_eq!(t.book.agree, t.book.moves);
    }
}

// ----- the profile's board against the adaptor's set-up (no program needed) -----

/// `adaptors/microchess-kim1.toml` with its image replaced by a stand-in of zeros (the
/// program is not needed to see which moves the adaptor types and what it writes for a
/// position), read as an adaptor.
fn microchess_adaptor_without_the_program() -> kempelen_adaptor::Adaptor {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/adaptors/microchess-kim1.toml")).unwrap();
    let dir = std::env::temp_dir().join(format!("kempelen-fidelity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut stub = String::new();
    for (start, end) in [(0x0000u16, 0x03FFu16), (0x1780, 0x17FF)] {
        for line in (start..=end).step_by(16) {
            stub.push_str(&format!("{line:04X}{}\n", " 00".repeat(16)));
        }
    }
    std::fs::write(dir.join("stub.h65"), stub).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("file = \"$KEMPELEN_HISTORICAL/") {
            out.push_str("file = \"stub.h65\"\n");
            continue;
        }
        // The image's checksum is the program's.
        if line.starts_with("sha256 = ") && out.ends_with("file = \"stub.h65\"\n") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    let path = dir.join("microchess-kim1.toml");
    std::fs::write(&path, out).unwrap();
    let adaptor = kempelen_adaptor::Adaptor::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    adaptor
}

/// The games the check walks: the committed record, and short games with each kind of move
/// the adaptor gives by set-up (captures en passant and promotions of either side's opponent).
fn boards_to_check() -> Vec<Game> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut games = Vec::new();
    let dir = format!("{root}/engine/tests/data/fidelity");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("microchess") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for g in kempelen_engine::tournament::pgn::read_pgn(&text, &name).unwrap() {
            let mut game = Game::default();
            for san in &g.moves {
                game.push_san(san).unwrap();
            }
            games.push(game);
        }
    }
    for (fen, moves) in [
        (
            "startpos",
            "e2e4 g8f6 e4e5 d7d5 e5d6 e7d6 d2d4 c7c5 d4d5 c5c4 b2b4 c4b3",
        ),
        (
            "startpos",
            "d2d4 e7e5 d4d5 c7c5 d5c6 b7c6 h2h4 g7g5 h4g5 f7f5 g5f6",
        ),
        (
            "8/1P6/7k/8/8/8/6p1/4K3 w - - 0 1",
            "b7b8q g2g1n b8b5 g1f3 e1e2 h6g6",
        ),
        (
            "n7/1P4k1/8/8/8/8/6p1/4K2R w - - 0 1",
            "b7a8r g2h1q e1d2 h1h2 d2c3 g7g6",
        ),
    ] {
        let mut game = if fen == "startpos" {
            Game::default()
        } else {
            Game::from_fen(fen).unwrap()
        };
        for m in moves.split_whitespace() {
            game.push_uci(m).unwrap();
        }
        games.push(game);
    }
    games
}

/// The `microchess` profile plays on the board the program holds when Kempelen's adaptor gives
/// it the game: every opponent's move the profile takes as typed, the adaptor types, and every
/// one it takes as set up, the adaptor sets up; and the board the adaptor writes for a position
/// is the profile's board of that position, number for number (the order of the pieces decides
/// which of two equal moves the program plays). A change of the adaptor's set-up that the
/// profile does not follow (or the other way round) fails here, without the program.
#[test]
fn microchess_profile_sees_the_board_its_adaptor_gives() {
    let adaptor = microchess_adaptor_without_the_program();
    let (mut moves, mut set_ups, mut boards) = (0, 0, 0);
    for game in boards_to_check() {
        let mut g = Game::new(game.start().clone());
        for &m in game.moves() {
            let before = g.position().clone();
            let typed = adaptor.types_move(&before, m);
            assert_eq!(
                typed,
                !microchess::given_by_set_up(&before, m),
                "{} {}: the adaptor {} it",
                before.to_fen(),
                m.to_uci(),
                if typed { "types" } else { "sets up" }
            );
            moves += 1;
            set_ups += usize::from(!typed);
            g.push(m).unwrap();
            let pos = g.position();
            if pos.legal_moves().is_empty() {
                continue;
            }
            match adaptor.pieces_for(pos) {
                Ok(bytes) => {
                    let written: Vec<u8> = bytes.iter().map(|&(_, b)| b).collect();
                    let ours = microchess::program_board(&Game::new(pos.clone()));
                    // A captured piece is off the board either way ($CC as written, $AB as
                    // the program's REVERSE leaves it): compare the squares on the board.
                    let on_board = |b: u8| if b & 0x88 != 0 { 0xCC } else { b };
                    let ours: Vec<u8> = ours.iter().map(|&b| on_board(b)).collect();
                    let written: Vec<u8> = written.iter().map(|&b| on_board(b)).collect();
                    assert_eq!(written, ours, "{}", pos.to_fen());
                    assert_eq!(bytes.first().map(|&(a, _)| a), Some(0x0050));
                    boards += 1;
                }
                Err(e) => assert!(e.to_string().contains("cannot take this position"), "{e}"),
            }
        }
    }
    println!("{moves} moves ({set_ups} set up), {boards} boards written");
    assert!(
        set_ups >= 6 && boards > 500,
        "{moves} moves, {set_ups} set up, {boards} boards"
    );
}
