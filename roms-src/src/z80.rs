//! The Z80 reference engine: assemble `z80/engine.asm`, load it, write a command and a
//! position into the protocol block, run the CPU until the engine's "done" host call, read
//! the result back. Every address comes from the assembler's symbol table.
//!
//! The CPU runs on the bare `z80` crate with a flat 64 KB memory and the port contract of the
//! Kempelen machine (0x00/0x01 console, 0xFF host call); this is replaced by
//! kempelen-emulator's machine once it exists.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;
use z80::{Z80, Z80_io};

use crate::setup::Setup;
use crate::symbols::Symbols;

/// Where the engine's sources live.
pub fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("z80")
}

/// A move as the engine stores it: `from` and `to` are 0x88 squares, `promo` is the piece
/// type a pawn becomes (2 knight ... 5 queen) or 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub promo: u8,
}

impl Move {
    /// Decodes the 2-byte protocol form; `None` for the "no move" marker FFh FFh.
    /// `promo_possible` tells whether the mover was a pawn reaching the last rank (the
    /// promotion bits are only meaningful then; the engine's PV moves always are).
    pub fn from_bytes(from: u8, to: u8) -> Option<Move> {
        if from == 0xFF {
            return None;
        }
        let sq = to & 0x77;
        let last_rank = sq >> 4 == 7 || sq >> 4 == 0;
        let promo = if last_rank {
            promo_of_bits(to & 0x88)
        } else {
            0
        };
        Some(Move {
            from: from & 0x77,
            to: sq,
            promo,
        })
    }

    /// The move with its promotion decided by the piece that makes it.
    pub fn with_board(self, board: &[u8; 128]) -> Move {
        if board[self.from as usize] & 7 != 1 {
            Move { promo: 0, ..self }
        } else {
            self
        }
    }

    /// Coordinate notation (`e2e4`, `e7e8q`).
    pub fn uci(&self) -> String {
        let sq = |s: u8| format!("{}{}", (b'a' + (s & 7)) as char, (s >> 4) + 1);
        let p = match self.promo {
            2 => "n",
            3 => "b",
            4 => "r",
            5 => "q",
            _ => "",
        };
        format!("{}{}{}", sq(self.from), sq(self.to), p)
    }
}

fn promo_of_bits(bits: u8) -> u8 {
    match bits {
        0x00 => 5,
        0x08 => 4,
        0x80 => 3,
        _ => 2,
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

/// What went wrong running the Z80 engine.
#[derive(Debug, Error)]
pub enum Z80Error {
    #[error("assembling {file}: {message}")]
    Assemble { file: String, message: String },
    #[error("the symbol table has no `{0}`: engine sources and host glue disagree")]
    MissingSymbol(&'static str),
    #[error("the engine stopped with status {code} ({})", status_name(*code))]
    Status { code: u8 },
    #[error("the engine did not finish within {0} cycles")]
    Timeout(u64),
    #[error("the CPU halted without the host call at PC {0:#06x}")]
    Halted(u16),
    #[error("host call {0:#04x} is reserved")]
    HostCall(u8),
    #[error("history has {0} keys; the engine takes at most {1}")]
    HistoryTooLong(usize, usize),
}

/// The name of an engine status code (ram.inc, docs/PROTOCOL.md).
pub fn status_name(code: u8) -> &'static str {
    match code {
        0 => "ok",
        1 => "bad command",
        2 => "bad position",
        3 => "history overflow",
        4 => "history mismatch",
        5 => "search stack overflow",
        6 => "counter overflow",
        _ => "unknown status",
    }
}

/// Result of a perft run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftOutcome {
    pub count: u64,
    pub cycles: u64,
}

/// Result of a search run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    pub best: Option<Move>,
    pub score: i16,
    pub depth: u8,
    pub nodes: u32,
    pub pv: Vec<Move>,
    pub cycles: u64,
    /// Distinct RAM bytes written by the host or the engine during the run.
    pub ram_bytes: usize,
    /// Highest search-stack address written (frames and move lists).
    pub frames_top: u16,
    /// Lowest address the Z80 stack reached.
    pub stack_low: u16,
}

/// Protocol addresses, read from the symbol table.
#[derive(Debug, Clone)]
struct Layout {
    p_cmd: u16,
    p_depth: u16,
    p_nodes: u16,
    p_side: u16,
    p_castle: u16,
    p_ep: u16,
    p_half: u16,
    p_hcount: u16,
    r_status: u16,
    r_depth: u16,
    r_best: u16,
    r_score: u16,
    r_nodes: u16,
    r_perft: u16,
    r_pvlen: u16,
    r_pv: u16,
    board: u16,
    hist: u16,
    hist_max: u16,
    frames: u16,
    cmd_perft: u8,
    cmd_search: u8,
}

impl Layout {
    fn from_symbols(s: &Symbols) -> Result<Layout, Z80Error> {
        let g = |n: &'static str| s.get(n).ok_or(Z80Error::MissingSymbol(n));
        Ok(Layout {
            p_cmd: g("P_CMD")?,
            p_depth: g("P_DEPTH")?,
            p_nodes: g("P_NODES")?,
            p_side: g("P_SIDE")?,
            p_castle: g("P_CASTLE")?,
            p_ep: g("P_EP")?,
            p_half: g("P_HALF")?,
            p_hcount: g("P_HCOUNT")?,
            r_status: g("R_STATUS")?,
            r_depth: g("R_DEPTH")?,
            r_best: g("R_BEST")?,
            r_score: g("R_SCORE")?,
            r_nodes: g("R_NODES")?,
            r_perft: g("R_PERFT")?,
            r_pvlen: g("R_PVLEN")?,
            r_pv: g("R_PV")?,
            board: g("BOARD")?,
            hist: g("HIST")?,
            hist_max: g("HIST_MAX_GAME")?,
            frames: g("FRAMES")?,
            cmd_perft: g("CMD_PERFT")? as u8,
            cmd_search: g("CMD_SEARCH")? as u8,
        })
    }
}

/// The assembled engine, ready to run commands.
#[derive(Debug, Clone)]
pub struct Z80Engine {
    rom: Vec<u8>,
    symbols: Symbols,
    layout: Layout,
    /// Cycle budget of one command.
    pub max_cycles: u64,
}

impl Z80Engine {
    /// Builds the engine from an assembled image (loaded at 0x0000) and its symbols.
    pub fn new(rom: Vec<u8>, symbols: Symbols) -> Result<Z80Engine, Z80Error> {
        let layout = Layout::from_symbols(&symbols)?;
        Ok(Z80Engine {
            rom,
            symbols,
            layout,
            max_cycles: 2_000_000_000_000,
        })
    }

    /// Assembles `z80/engine.asm` with pasmo (development path).
    pub fn assemble_with_pasmo() -> Result<Z80Engine, Z80Error> {
        let dir = source_dir();
        let out = std::env::temp_dir().join(format!("kempelen-z80-{}", std::process::id()));
        std::fs::create_dir_all(&out).map_err(|e| asm_err("engine.asm", e))?;
        let bin = out.join("engine.bin");
        let sym = out.join("engine.sym");
        let st = std::process::Command::new("pasmo")
            .current_dir(&dir)
            .arg("--bin")
            .arg("engine.asm")
            .arg(&bin)
            .arg(&sym)
            .output()
            .map_err(|e| asm_err("engine.asm", e))?;
        if !st.status.success() {
            return Err(Z80Error::Assemble {
                file: "engine.asm".into(),
                message: String::from_utf8_lossy(&st.stderr).into_owned()
                    + &String::from_utf8_lossy(&st.stdout),
            });
        }
        let rom = std::fs::read(&bin).map_err(|e| asm_err("engine.bin", e))?;
        let symbols = std::fs::read_to_string(&sym).map_err(|e| asm_err("engine.sym", e))?;
        let _ = std::fs::remove_dir_all(&out);
        Z80Engine::new(rom, Symbols::parse(&symbols))
    }

    /// The assembled image.
    pub fn rom(&self) -> &[u8] {
        &self.rom
    }

    /// The symbol table.
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// Counts the leaves of the legal move tree of `depth` plies.
    pub fn perft(&self, setup: &Setup, depth: u8) -> Result<PerftOutcome, Z80Error> {
        let l = &self.layout;
        let mut m = self.machine();
        self.write_position(&mut m, setup, &[])?;
        m.host_write(l.p_cmd, &[l.cmd_perft]);
        m.host_write(l.p_depth, &[depth]);
        let cycles = m.run(self.max_cycles)?;
        self.check_status(&m)?;
        Ok(PerftOutcome {
            count: m.read_u32(l.r_perft) as u64,
            cycles,
        })
    }

    /// Development aid: the whole memory after a perft run.
    pub fn perft_memory(&self, setup: &Setup, depth: u8) -> Result<Vec<u8>, Z80Error> {
        let l = &self.layout;
        let mut m = self.machine();
        self.write_position(&mut m, setup, &[])?;
        m.host_write(l.p_cmd, &[l.cmd_perft]);
        m.host_write(l.p_depth, &[depth]);
        m.run(self.max_cycles)?;
        Ok(m.mem)
    }

    /// Searches `setup` to `depth` (1..=32), or with a node limit (`nodes` > 0) up to
    /// `depth`. `history` holds the keys of the game positions before the root, oldest
    /// first, and ends with the root's own key (may be empty).
    pub fn search(
        &self,
        setup: &Setup,
        history: &[u32],
        depth: u8,
        nodes: u32,
    ) -> Result<SearchOutcome, Z80Error> {
        let l = &self.layout;
        let mut m = self.machine();
        self.write_position(&mut m, setup, history)?;
        m.host_write(l.p_cmd, &[l.cmd_search]);
        m.host_write(l.p_depth, &[depth]);
        m.host_write(l.p_nodes, &nodes.to_le_bytes());
        let cycles = m.run(self.max_cycles)?;
        self.check_status(&m)?;
        let pvlen = m.mem[l.r_pvlen as usize] as usize;
        let pv = (0..pvlen)
            .filter_map(|i| {
                let a = l.r_pv as usize + 2 * i;
                Move::from_bytes(m.mem[a], m.mem[a + 1])
            })
            .collect();
        let best = Move::from_bytes(m.mem[l.r_best as usize], m.mem[l.r_best as usize + 1]);
        let frames_top = (l.frames as usize..0xF800)
            .rev()
            .find(|&a| m.written[a])
            .unwrap_or(l.frames as usize) as u16;
        Ok(SearchOutcome {
            best: best.map(|b| b.with_board(&setup.board)),
            score: m.read_u16(l.r_score) as i16,
            depth: m.mem[l.r_depth as usize],
            nodes: m.read_u32(l.r_nodes),
            pv,
            cycles,
            ram_bytes: m.written[0x8000..].iter().filter(|&&w| w).count(),
            frames_top,
            stack_low: m.stack_low,
        })
    }

    fn machine(&self) -> Machine {
        let mut m = Machine::new();
        m.mem[..self.rom.len()].copy_from_slice(&self.rom);
        m
    }

    fn write_position(&self, m: &mut Machine, s: &Setup, history: &[u32]) -> Result<(), Z80Error> {
        let l = &self.layout;
        if history.len() > l.hist_max as usize {
            return Err(Z80Error::HistoryTooLong(history.len(), l.hist_max as usize));
        }
        m.host_write(l.board, &s.board);
        m.host_write(l.p_side, &[s.side]);
        m.host_write(l.p_castle, &[s.castling]);
        m.host_write(l.p_ep, &[s.ep]);
        m.host_write(l.p_half, &s.halfmove.to_le_bytes());
        m.host_write(l.p_hcount, &[history.len() as u8]);
        let bytes: Vec<u8> = history.iter().flat_map(|k| k.to_le_bytes()).collect();
        m.host_write(l.hist, &bytes);
        Ok(())
    }

    fn check_status(&self, m: &Machine) -> Result<(), Z80Error> {
        match m.mem[self.layout.r_status as usize] {
            0 => Ok(()),
            code => Err(Z80Error::Status { code }),
        }
    }

    /// Runs a search and returns the cycles spent per routine (by the nearest preceding
    /// code symbol), highest first. A development aid until the emulator's profiler lands.
    pub fn profile_search(
        &self,
        setup: &Setup,
        depth: u8,
    ) -> Result<(SearchOutcome, Vec<(String, u64)>), Z80Error> {
        let l = &self.layout;
        let mut m = self.machine();
        m.profile = Some(vec![0u64; 65536]);
        self.write_position(&mut m, setup, &[])?;
        m.host_write(l.p_cmd, &[l.cmd_search]);
        m.host_write(l.p_depth, &[depth]);
        m.host_write(l.p_nodes, &0u32.to_le_bytes());
        let cycles = m.run(self.max_cycles)?;
        self.check_status(&m)?;
        let prof = m.profile.take().unwrap_or_default();
        let code: Vec<(String, u16)> = self
            .symbols
            .sorted()
            .into_iter()
            .filter(|(n, v)| {
                (*v as usize) < self.rom.len() && *v >= 0x0F00 && n.to_lowercase() == *n
            })
            .collect();
        let mut by: HashMap<String, u64> = HashMap::new();
        for (pc, &c) in prof.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let name = code
                .iter()
                .rev()
                .find(|(_, v)| (*v as usize) <= pc)
                .map(|(n, _)| n.clone())
                .unwrap_or_else(|| format!("{pc:04x}"));
            *by.entry(name).or_default() += c;
        }
        let mut v: Vec<(String, u64)> = by.into_iter().collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.1));
        let out = SearchOutcome {
            best: None,
            score: m.read_u16(l.r_score) as i16,
            depth: m.mem[l.r_depth as usize],
            nodes: m.read_u32(l.r_nodes),
            pv: vec![],
            cycles,
            ram_bytes: 0,
            frames_top: 0,
            stack_low: m.stack_low,
        };
        Ok((out, v))
    }
}

fn asm_err(file: &str, e: std::io::Error) -> Z80Error {
    Z80Error::Assemble {
        file: file.to_string(),
        message: e.to_string(),
    }
}

/// Flat 64 KB memory with the Kempelen port contract.
struct Machine {
    mem: Vec<u8>,
    written: Vec<bool>,
    done: Option<u8>,
    stack_low: u16,
    profile: Option<Vec<u64>>,
}

impl Machine {
    fn new() -> Machine {
        Machine {
            mem: vec![0; 65536],
            written: vec![false; 65536],
            done: None,
            stack_low: 0xFFFF,
            profile: None,
        }
    }

    fn host_write(&mut self, addr: u16, bytes: &[u8]) {
        let a = addr as usize;
        self.mem[a..a + bytes.len()].copy_from_slice(bytes);
        for w in &mut self.written[a..a + bytes.len()] {
            *w = true;
        }
    }

    fn read_u16(&self, a: u16) -> u16 {
        u16::from_le_bytes([self.mem[a as usize], self.mem[a as usize + 1]])
    }

    fn read_u32(&self, a: u16) -> u32 {
        let a = a as usize;
        u32::from_le_bytes([
            self.mem[a],
            self.mem[a + 1],
            self.mem[a + 2],
            self.mem[a + 3],
        ])
    }

    fn run(&mut self, max_cycles: u64) -> Result<u64, Z80Error> {
        let mut cpu = Z80::new();
        cpu.init();
        let mut cycles = 0u64;
        loop {
            let pc = cpu.pc;
            let c = cpu.step(self) as u64;
            cycles += c;
            if let Some(p) = &mut self.profile {
                p[pc as usize] += c;
            }
            if cpu.sp < self.stack_low && cpu.sp >= 0x8000 {
                self.stack_low = cpu.sp;
            }
            if let Some(v) = self.done {
                return if v == 0 {
                    Ok(cycles)
                } else {
                    Err(Z80Error::HostCall(v))
                };
            }
            if cpu.halted {
                return Err(Z80Error::Halted(cpu.pc));
            }
            if cycles > max_cycles {
                return Err(Z80Error::Timeout(max_cycles));
            }
        }
    }
}

impl Z80_io for Machine {
    fn read_byte(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }

    fn write_byte(&mut self, addr: u16, value: u8) {
        // ROM below 0x8000 is read-only.
        if addr >= 0x8000 {
            self.mem[addr as usize] = value;
            self.written[addr as usize] = true;
        }
    }

    fn port_in(&self, _addr: u16) -> u8 {
        0
    }

    fn port_out(&mut self, addr: u16, value: u8) {
        if addr & 0xFF == 0xFF {
            self.done = Some(value);
        }
    }
}
