//! Fidelity of the `microchess` and `sargon` profiles to the real programs (development harness).

use kempelen_emulator::{Personality, StopReason, TraceFilter, Tracer};
use kempelen_engine::history::microchess;
use kempelen_engine::{Engine, Game, Limits, NativeEngine, Profile, SearchControl};
use std::path::PathBuf;

fn historical(file: &str) -> Option<PathBuf> {
    let dir = std::env::var("KEMPELEN_HISTORICAL").ok()?;
    let p = PathBuf::from(dir).join(file);
    p.exists().then_some(p)
}

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
            let r = engine
                .search(&game, &Limits::depth(depth), &SearchControl::default())
                .unwrap();
            game.push(r.best.unwrap()).unwrap();
        }
    }
    out
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65"]
fn microchess_values_agree_with_the_kim1() {
    let Some(path) = historical("microchess.h65") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL");
        return;
    };
    let real = RealMicrochess {
        images: microchess_images(&path),
    };
    let n: usize = std::env::var("FIDELITY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let skip: usize = std::env::var("FIDELITY_SKIP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let games: Vec<Game> = sample_games(n + skip, 40)
        .into_iter()
        .skip(skip * 40)
        .collect();
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

use kempelen_engine::history::sargon;

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

impl RealSargon {
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

    fn sym(&self, name: &str) -> u16 {
        self.symbols
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .unwrap_or_else(|| panic!("no symbol {name}"))
            .1
    }

    /// FNDMOV at `depth` on the game's position (board and flags as the profile keeps them):
    /// the move (from, to board indices), the root score and every POINTS call (ply, from, to,
    /// score).
    fn fndmov(&self, game: &Game, depth: u8) -> ((u8, u8), u8, Vec<sargon::PointsCall>) {
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
        m.write_bytes(
            posk,
            &[find(6, false), find(6, true), find(5, false), find(5, true)],
        )
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
    let Some(path) = historical("sargon-z80.asm") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL");
        return;
    };
    let real = RealSargon::new(&path);
    let depth: u8 = std::env::var("FIDELITY_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let n: usize = std::env::var("FIDELITY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let skip: usize = std::env::var("FIDELITY_SKIP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let games: Vec<Game> = sample_games(n + skip, 40)
        .into_iter()
        .skip(skip * 40)
        .collect();
    let (mut same, mut same_move, mut total) = (0, 0, 0);
    for game in games.iter().filter(|g| g.position().fullmove_number() > 1) {
        total += 1;
        let (rm, rscore, rlog) = real.fndmov(game, depth);
        let (pm, pscore, plog) = sargon::traced_fndmov(game, depth as usize);
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
}

#[test]
#[ignore = "development: FIDELITY_FEN, FIDELITY_MOVE"]
fn sargon_points_debug() {
    let Some(path) = historical("sargon-z80.asm") else {
        return;
    };
    let real = RealSargon::new(&path);
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
    let Some(path) = historical("sargon-z80.asm") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL");
        return;
    };
    let real = RealSargon::new(&path);
    let book = real.sym("BOOK");
    let ld_a_r = (book..book + 0x40)
        .find(|&a| {
            let i = usize::from(a - real.origin);
            real.image[i..i + 2] == [0xED, 0x5F]
        })
        .expect("LD A,R in BOOK");
    for depth in 1..=6 {
        let p = Personality::built_in("jupiter-3").unwrap();
        let mut m = p
            .builder()
            .load(real.origin, &real.image)
            .entry(real.sym("DRIVER"))
            .build()
            .unwrap();
        m.console_mut().set_stop_on_empty_input(true);
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
