//! The Z80 reference engine: assemble `z80/engine.asm`, load it, write a command and a
//! position into the protocol block (docs/PROTOCOL.md), run the CPU until the engine's
//! "done" host call, read the result back. Every address comes from the assembler's symbol
//! table. [`Z80Engine`] implements the native engine's [`Engine`] trait, so `perft`,
//! `search`, `compare`, `bench` and `uci` run it like the native engine.
//!
//! The CPU runs on the bare `z80` crate with a flat 64 KB memory (ROM below 0x8000, RAM
//! above) and the port contract of the Kempelen machine (0x00/0x01 console, 0xFF host call).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kempelen_engine::engine::{
    Engine, EngineError, Limits, SearchControl, SearchInfo, SearchResult,
};
use kempelen_engine::{Game, Move, Position, time};
use thiserror::Error;
use z80::{Z80, Z80_io};

use crate::setup::Setup;
use crate::symbols::Symbols;

/// Where the engine's sources live.
pub fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("z80")
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
    #[error("search depth {0} is outside 1..=32")]
    Depth(u32),
    #[error("the engine returned move {from:02x}{to:02x}, which is not legal in {fen}")]
    IllegalMove { from: u8, to: u8, fen: String },
}

/// The name of an engine status code (ram.inc, docs/PROTOCOL.md).
pub fn status_name(code: u8) -> &'static str {
    match code {
        0 => "ok",
        1 => "bad command",
        2 => "bad position",
        3 => "history overflow",
        5 => "search stack overflow",
        6 => "counter overflow",
        _ => "unknown status",
    }
}

/// Result of a perft run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftOutcome {
    /// Leaves of the legal move tree.
    pub count: u64,
    /// Z80 T-states the run took.
    pub cycles: u64,
}

/// Result of a search run: the engine's answer plus what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// Best move, score, principal variation, completed depth, nodes (`time` is the
    /// emulated time at [`Z80Engine::clock_hz`], or the host's time without a clock).
    pub result: SearchResult,
    /// Z80 T-states from reset to the "done" host call.
    pub cycles: u64,
    /// Distinct RAM bytes written by the host or the engine during the run.
    pub ram_bytes: usize,
    /// Highest address of the search stack written (frames and move lists).
    pub frames_top: u16,
    /// Lowest address the Z80 stack pointer reached.
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
    v_limit_on: u16,
    v_budget: u16,
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
            v_limit_on: g("V_LIMIT_ON")?,
            v_budget: g("V_BUDGET")?,
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
    /// Cycle budget of one command (a run that needs more ends with [`Z80Error::Timeout`]).
    pub max_cycles: u64,
    /// Clock of the emulated machine: with it, search times and time limits are emulated
    /// time (cycles / clock); without it, the host's time.
    pub clock_hz: Option<u64>,
    /// With a clock: hold the emulation back to the machine's real speed.
    pub realtime: bool,
}

/// How often the run loop looks at the stop flag, the clock and finished iterations.
const POLL_CYCLES: u64 = 1 << 20;

impl Z80Engine {
    /// Builds the engine from an assembled image (loaded at 0x0000) and its symbols.
    pub fn new(rom: Vec<u8>, symbols: Symbols) -> Result<Z80Engine, Z80Error> {
        let layout = Layout::from_symbols(&symbols)?;
        Ok(Z80Engine {
            rom,
            symbols,
            layout,
            max_cycles: 1 << 44,
            clock_hz: None,
            realtime: false,
        })
    }

    /// Assembles `z80/engine.asm` with pasmo (development path).
    pub fn assemble_with_pasmo() -> Result<Z80Engine, Z80Error> {
        let dir = source_dir();
        let out = std::env::temp_dir().join(format!(
            "kempelen-z80-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
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
    pub fn perft(&self, pos: &Position, depth: u8) -> Result<PerftOutcome, Z80Error> {
        let l = &self.layout;
        let mut m = self.machine();
        self.write_position(&mut m, &Setup::from_position(pos), &[])?;
        m.host_write(l.p_cmd, &[l.cmd_perft]);
        m.host_write(l.p_depth, &[depth]);
        let cycles = m.run(self.max_cycles, &mut |_, _| {})?;
        self.check_status(&m)?;
        Ok(PerftOutcome {
            count: m.read_u32(l.r_perft) as u64,
            cycles,
        })
    }

    /// Searches `pos` to `depth` (1..=32) with an optional node limit (ALGORITHM.md
    /// section 9). `history` holds the keys of the game positions before the root, oldest
    /// first, ending with the root's own key (see [`Game::reference_history`]); it may be
    /// empty.
    pub fn search(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
    ) -> Result<SearchOutcome, Z80Error> {
        self.search_with(pos, history, depth, nodes, None, None)
    }

    /// [`Z80Engine::search`] with a control (stop flag, info callback after every iteration)
    /// and time limits (soft: no new iteration, hard: stop), measured in emulated time when
    /// [`Z80Engine::clock_hz`] is set.
    pub fn search_with(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
        control: Option<&SearchControl>,
        budget: Option<time::TimeBudget>,
    ) -> Result<SearchOutcome, Z80Error> {
        if !(1..=32).contains(&depth) {
            return Err(Z80Error::Depth(depth));
        }
        let l = self.layout.clone();
        let mut m = self.machine();
        self.write_position(&mut m, &Setup::from_position(pos), history)?;
        m.host_write(l.p_cmd, &[l.cmd_search]);
        m.host_write(l.p_depth, &[depth as u8]);
        m.host_write(l.p_nodes, &nodes.unwrap_or(0).to_le_bytes());
        let start = control.map(|c| c.start).unwrap_or_else(Instant::now);
        let clock = self.clock_hz;
        let elapsed = |cycles: u64| match clock {
            Some(hz) => Duration::from_secs_f64(cycles as f64 / hz as f64),
            None => start.elapsed(),
        };
        let budget = budget.unwrap_or_default();
        let mut reported = 0u8;
        let mut stopping = false;
        let mut poll = |m: &mut Machine, cycles: u64| {
            if let (Some(hz), true) = (clock, self.realtime) {
                let due = Duration::from_secs_f64(cycles as f64 / hz as f64);
                if let Some(wait) = due.checked_sub(start.elapsed()) {
                    std::thread::sleep(wait);
                }
            }
            let done = m.mem[l.r_depth as usize];
            let t = elapsed(cycles);
            if done > reported {
                reported = done;
                if let Some(c) = control {
                    if let Ok(pv) = read_pv(m, &l, pos) {
                        c.report(&SearchInfo {
                            depth: done as u32,
                            seldepth: done as u32,
                            score: m.read_u16(l.r_score) as i16 as i32,
                            nodes: m.read_u32(l.r_nodes) as u64,
                            time: t,
                            pv,
                            hashfull: None,
                        });
                    }
                }
                if budget.soft.is_some_and(|s| t >= s) {
                    stopping = true;
                }
            }
            if control.is_some_and(|c| c.stopped()) || budget.hard.is_some_and(|h| t >= h) {
                stopping = true;
            }
            // A stop works like the node limit (ALGORITHM.md section 9): once iteration 1 is
            // complete the engine ends at its next node with the last completed iteration.
            if stopping && reported > 0 {
                m.host_write(l.v_budget, &[0; 4]);
                m.host_write(l.v_limit_on, &[1]);
            }
        };
        let cycles = m.run(self.max_cycles, &mut poll)?;
        self.check_status(&m)?;
        let pv = read_pv(&m, &l, pos)?;
        // R_BEST is the first PV move, or FFh FFh when the root has no legal move.
        let best = if m.mem[l.r_best as usize] == 0xFF {
            None
        } else {
            pv.first().copied()
        };
        let frames_top = (l.frames as usize..0xF800)
            .rev()
            .find(|&a| m.written[a])
            .unwrap_or(l.frames as usize) as u16;
        let result = SearchResult {
            best,
            score: m.read_u16(l.r_score) as i16 as i32,
            pv,
            depth: m.mem[l.r_depth as usize] as u32,
            nodes: m.read_u32(l.r_nodes) as u64,
            time: elapsed(cycles),
        };
        Ok(SearchOutcome {
            result,
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
    /// code label), highest first.
    pub fn profile_search(
        &self,
        pos: &Position,
        depth: u8,
    ) -> Result<(u64, Vec<(String, u64)>), Z80Error> {
        let l = &self.layout;
        let mut m = self.machine();
        m.profile = Some(vec![0u64; 65536]);
        self.write_position(&mut m, &Setup::from_position(pos), &[])?;
        m.host_write(l.p_cmd, &[l.cmd_search]);
        m.host_write(l.p_depth, &[depth]);
        let cycles = m.run(self.max_cycles, &mut |_, _| {})?;
        self.check_status(&m)?;
        let prof = m.profile.take().unwrap_or_default();
        // Code labels are lower case; upper-case names are tables and equates.
        let code: Vec<(String, u16)> = self
            .symbols
            .sorted()
            .into_iter()
            .filter(|(n, v)| (*v as usize) < self.rom.len() && n.to_lowercase() == *n)
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
        Ok((cycles, v))
    }
}

/// Decodes the principal variation in RAM by replaying it: the promotion bits of a `to`
/// byte only mean something for a pawn reaching the last rank.
fn read_pv(m: &Machine, l: &Layout, root: &Position) -> Result<Vec<Move>, Z80Error> {
    let len = m.mem[l.r_pvlen as usize] as usize;
    let mut pos = root.clone();
    let mut pv = Vec::with_capacity(len);
    for i in 0..len.min(32) {
        let a = l.r_pv as usize + 2 * i;
        let (from, to) = (m.mem[a], m.mem[a + 1]);
        let promo = match to & 0x88 {
            0x00 => 5,
            0x08 => 4,
            0x80 => 3,
            _ => 2,
        };
        let legal = pos.legal_moves();
        let found = legal.iter().copied().find(|mv| {
            mv.from() == from
                && mv.to() == to & 0x77
                && (mv.promotion() == 0 || mv.promotion() == promo)
        });
        let Some(mv) = found else {
            return Err(Z80Error::IllegalMove {
                from,
                to,
                fen: pos.to_fen(),
            });
        };
        pos.play(mv);
        pv.push(mv);
    }
    Ok(pv)
}

fn asm_err(file: &str, e: std::io::Error) -> Z80Error {
    Z80Error::Assemble {
        file: file.to_string(),
        message: e.to_string(),
    }
}

fn backend(e: Z80Error) -> EngineError {
    EngineError::Backend(e.to_string())
}

impl Engine for Z80Engine {
    fn name(&self) -> String {
        format!("Kempelen {} (Z80 reference)", env!("CARGO_PKG_VERSION"))
    }

    fn perft(&mut self, pos: &Position, depth: u32) -> Result<u64, EngineError> {
        let d = u8::try_from(depth)
            .map_err(|_| EngineError::Unsupported(format!("perft depth {depth} above 255")))?;
        Z80Engine::perft(self, pos, d)
            .map(|p| p.count)
            .map_err(backend)
    }

    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
    ) -> Result<SearchResult, EngineError> {
        let depth = limits.depth.unwrap_or(32);
        if !(1..=32).contains(&depth) {
            return Err(EngineError::Unsupported(format!(
                "depth {depth}: the Z80 engine searches depths 1 to 32"
            )));
        }
        let nodes =
            match limits.nodes {
                None => None,
                Some(n) => Some(u32::try_from(n).map_err(|_| {
                    EngineError::Unsupported(format!("node limit {n} above 2^32 - 1"))
                })?),
            };
        let pos = game.position();
        let budget = time::budget(limits, pos.side());
        let out = self
            .search_with(
                pos,
                &game.reference_history(),
                depth,
                nodes,
                Some(control),
                Some(budget),
            )
            .map_err(backend)?;
        Ok(out.result)
    }
}

/// Flat 64 KB memory with the Kempelen port contract.
struct Machine {
    mem: Vec<u8>,
    written: Vec<bool>,
    done: Option<u8>,
    stack_low: u16,
    cycles: u64,
    profile: Option<Vec<u64>>,
}

impl Machine {
    fn new() -> Machine {
        Machine {
            mem: vec![0; 65536],
            written: vec![false; 65536],
            done: None,
            stack_low: 0xFFFF,
            cycles: 0,
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

    /// Runs from reset until the host call; `poll` sees the machine every [`POLL_CYCLES`].
    fn run(
        &mut self,
        max_cycles: u64,
        poll: &mut dyn FnMut(&mut Machine, u64),
    ) -> Result<u64, Z80Error> {
        let mut cpu = Z80::new();
        cpu.init();
        let mut next_poll = POLL_CYCLES;
        loop {
            let pc = cpu.pc;
            let c = cpu.step(self) as u64;
            self.cycles += c;
            if let Some(p) = &mut self.profile {
                p[pc as usize] += c;
            }
            if cpu.sp < self.stack_low && cpu.sp >= 0x8000 {
                self.stack_low = cpu.sp;
            }
            if let Some(v) = self.done {
                return if v == 0 {
                    Ok(self.cycles)
                } else {
                    Err(Z80Error::HostCall(v))
                };
            }
            if cpu.halted {
                return Err(Z80Error::Halted(cpu.pc));
            }
            if self.cycles >= next_poll {
                next_poll += POLL_CYCLES;
                if self.cycles > max_cycles {
                    return Err(Z80Error::Timeout(max_cycles));
                }
                let c = self.cycles;
                poll(self, c);
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
