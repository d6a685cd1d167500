//! `kempelen uci`: an engine as a UCI engine on standard input and output: the native engine
//! (either profile) or an 8-bit build (`--cpu z80|6502`) run in Kempelen's emulator.
//!
//! Time with an 8-bit engine: every time figure is emulated time at the chosen machine's clock
//! (default the ZX Spectrum's 3.5 MHz). `go movetime 10000` means "what the Z80 would do in
//! ten seconds at that clock", and `info ... time` and `nps` are that machine's. The emulator
//! runs as fast as the host allows, so a move usually takes a small part of the real time the
//! GUI granted. With `--realtime` the emulator is held to the machine's clock, so the emulated
//! time is also the real time: the engine thinks as long as the machine would have.
//!
//! With an 8-bit engine a GUI can set the UCI options `Machine` (the port's machines) and
//! `Realtime` (`true`/`false`). Its info lines are reported as each iteration completes (the
//! engine's host call "iteration complete"), the same lines as the native reference engine's.
//! Two commands are handled before they reach the protocol loop ([`PortInput`]): `go nodes N`
//! with N above the engine's 32-bit node counter is refused with an `info string error` line
//! and no `bestmove` (nothing was searched; the engine lives on), and `ponderhit` ends the
//! ponder search like `stop`, so the engine answers at once with the best move of the
//! position it pondered (the 8-bit engines do not carry a ponder search over into a timed
//! one).

use crate::engine_common::{CpuArg, ProfileArg, port_engine, port_machine, present_port};
use anyhow::bail;
use kempelen_emulator::Timing;
use kempelen_engine::Engine;
use kempelen_roms::Port;
use std::io::{BufRead, Read, Write};

/// Arguments of `kempelen uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {
    /// Search profile at start-up: reference, full, or a historical one (docs/history/); the
    /// UCI option `Profile` changes it. The 8-bit engines have only `reference`.
    #[arg(long)]
    pub profile: Option<ProfileArg>,
    /// Which engine plays: the native one or an 8-bit build in the emulator (`--engine` is an
    /// alias).
    #[arg(long, value_enum, alias = "engine", default_value = "native")]
    pub cpu: CpuArg,
    /// 8-bit engine: the machine whose clock time limits and reported times refer to (see
    /// `kempelen machines`; default zx-spectrum for the Z80, kim-1 for the 6502).
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    /// 8-bit engine or adapted program: run at the machine's real speed, so a move takes the
    /// historical time (the UCI option `Realtime`).
    #[arg(long)]
    pub realtime: bool,
    /// 8-bit engine: the machine's time (its timing model) or the CPU clock's; the UCI option
    /// `Timing` (machine or cpu) changes it.
    #[arg(long, value_name = "MODEL", default_value = "machine", value_parser = crate::engine_common::parse_timing, help = crate::engine_common::TIMING_HELP)]
    pub timing: Timing,
    /// Play a console chess program through an engine adaptor file (see `adaptors/`).
    #[arg(long, value_name = "FILE.toml", conflicts_with_all = ["cpu", "machine", "profile"])]
    pub program: Option<std::path::PathBuf>,
}

/// Runs the UCI loop until `quit` or end of input; `native` builds the native backend for a
/// profile.
pub fn run(
    args: &UciArgs,
    native: impl FnOnce(ProfileArg) -> Box<dyn Engine>,
) -> anyhow::Result<()> {
    if let Some(file) = &args.program {
        let mut engine = kempelen_adaptor::AdaptorEngine::new(file)?;
        engine.set_realtime(args.realtime);
        kempelen_engine::uci::run(&mut engine, std::io::stdin().lock(), std::io::stdout())?;
        return Ok(());
    }
    let port = present_port(args.cpu)?;
    let mut engine: Box<dyn Engine> = match port {
        None => {
            if args.machine.is_some() || args.realtime {
                bail!("{}", native_with_machine_flags(args));
            }
            crate::engine_common::native_timing(&args.timing)?;
            native(args.profile.unwrap_or(ProfileArg::Full))
        }
        Some(port) => {
            if let Some(p) = args.profile.filter(|&p| p != ProfileArg::Reference) {
                bail!(
                    "--profile {p}: the {} build runs the reference profile only (the {p} profile is the native engine's)",
                    port.name
                );
            }
            let clock = port_machine(port, args.machine.as_deref())?;
            Box::new(port_engine(port, clock, &args.timing, args.realtime, None)?)
        }
    };
    let stdin = std::io::stdin();
    match port {
        None => kempelen_engine::uci::run(engine.as_mut(), stdin.lock(), std::io::stdout())?,
        Some(port) => {
            let input = PortInput::new(port, stdin.lock(), std::io::stdout());
            kempelen_engine::uci::run(engine.as_mut(), input, std::io::stdout())?
        }
    }
    Ok(())
}

/// Why `--machine` or `--realtime` cannot go with the native engine, naming the flags given
/// and the `--cpu` a named machine needs.
fn native_with_machine_flags(args: &UciArgs) -> String {
    let given: Vec<String> = args
        .machine
        .iter()
        .map(|m| format!("--machine {m}"))
        .chain(args.realtime.then(|| "--realtime".to_string()))
        .collect();
    let hint = match args
        .machine
        .as_deref()
        .and_then(kempelen_emulator::clock::machine)
    {
        // A 65C02 machine's engine is the 6502 build.
        Some(m) => format!(
            "; {} has a {} CPU: add --cpu {}",
            m.id,
            m.cpu.title(),
            if m.cpu.is_6502_family() {
                "6502"
            } else {
                "z80"
            }
        ),
        None => " (add --cpu z80 or --cpu 6502)".to_string(),
    };
    format!(
        "{} without --cpu: the native engine runs on the host, at no machine's clock; only an 8-bit build runs at one{hint}",
        given.join(" and ")
    )
}

/// The UCI input of an 8-bit engine, line by line, with the commands the protocol loop does
/// not know to treat for it: `go` with a node limit above 2^32 - 1 is answered here with an
/// `info string error` line (to `out`) and dropped; `ponderhit` becomes `stop`. Every other
/// byte passes unchanged.
pub struct PortInput<R, W> {
    port: &'static Port,
    inner: R,
    out: W,
    line: Vec<u8>,
    pos: usize,
}

impl<R: BufRead, W: Write> PortInput<R, W> {
    /// Wraps `inner`; refusals are written to `out`.
    pub fn new(port: &'static Port, inner: R, out: W) -> Self {
        PortInput {
            port,
            inner,
            out,
            line: Vec::new(),
            pos: 0,
        }
    }

    /// What the protocol loop gets instead of `line` (`None`: unchanged).
    fn rewrite(&mut self) -> std::io::Result<Option<&'static [u8]>> {
        let Ok(text) = std::str::from_utf8(&self.line) else {
            return Ok(None);
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first() {
            Some(&"ponderhit") => Ok(Some(b"stop\n")),
            Some(&"go") => {
                let too_big = words
                    .windows(2)
                    .find(|w| w[0] == "nodes")
                    .and_then(|w| w[1].parse::<u64>().ok())
                    .filter(|&n| n > u64::from(u32::MAX));
                if let Some(n) = too_big {
                    // Refused, and answered with the null move: a GUI waits for a `bestmove`.
                    writeln!(
                        self.out,
                        "info string error: go: nodes {n}: the {} engine's node limit is at most 4294967295\nbestmove 0000",
                        self.port.name
                    )?;
                    self.out.flush()?;
                    return Ok(Some(b"\n"));
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }
}

impl<R: BufRead, W: Write> Read for PortInput<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead, W: Write> BufRead for PortInput<R, W> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.line.len() {
            self.line.clear();
            self.pos = 0;
            self.inner.read_until(b'\n', &mut self.line)?;
            if let Some(replacement) = self.rewrite()? {
                self.line = replacement.to_vec();
            }
        }
        Ok(&self.line[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.line.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(input: &str) -> (String, String) {
        let mut out = Vec::new();
        let mut passed = String::new();
        PortInput::new(&kempelen_roms::port::Z80, input.as_bytes(), &mut out)
            .read_to_string(&mut passed)
            .unwrap();
        (passed, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_node_limit_above_32_bits_is_refused_and_dropped() {
        let (passed, out) = through("isready\ngo nodes 99999999999\ngo nodes 4294967295\n");
        assert_eq!(passed, "isready\n\ngo nodes 4294967295\n");
        assert_eq!(
            out,
            "info string error: go: nodes 99999999999: the Z80 engine's node limit is at most 4294967295\nbestmove 0000\n"
        );
    }

    #[test]
    fn ponderhit_becomes_stop_and_other_bytes_pass() {
        let (passed, out) = through("go ponder\nponderhit\nquit");
        assert_eq!(passed, "go ponder\nstop\nquit");
        assert!(out.is_empty());
        let mut raw = Vec::new();
        let bytes: &[u8] = b"isready\n\xff\n";
        PortInput::new(&kempelen_roms::port::Z80, bytes, Vec::new())
            .read_to_end(&mut raw)
            .unwrap();
        assert_eq!(raw, bytes);
    }
}
