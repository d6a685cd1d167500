//! `kempelen debug --program FILE.toml`: an adapted program under the debugger
//! (`kempelen_adaptor::session`), set up in a position the way its adaptor sets it up for a
//! game and paused where its turn begins. It runs to breakpoints given by label, line or
//! address (or to where a lesson's step is about), and prints at each stop the source line
//! with its author's comment, the instruction with its cycles, the registers and flags, and
//! the variables its adaptor file declares (text, or `--json`).

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_adaptor::Adaptor;
use kempelen_adaptor::lessons::LessonStep;
use kempelen_adaptor::session::{Session, StopView};
use kempelen_emulator::debug::Why;
use kempelen_engine::{Game, Position};
use std::path::PathBuf;
use std::sync::Arc;

/// Most cycles one `--break` run goes before it gives up (the turn budget of the adaptor
/// ends a turn earlier).
const RUN_BUDGET: u64 = u64::MAX / 4;

#[derive(Args, Debug)]
pub struct DebugArgs {
    /// The adaptor file of the program (`adaptors/sargon-book-jupiter3.toml`).
    #[arg(long, value_name = "FILE.toml")]
    pub program: PathBuf,
    /// The position, the program to move (default: the start position, or the lesson's).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position first (UCI), the program to move after them.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// The program's level (Sargon's look-ahead); default: its adaptor's, or the lesson's.
    #[arg(long)]
    pub level: Option<u32>,
    /// Stop here: a label (`FNDMOV`), `LABEL+offset`, `$ADDRESS`, or a line (`FILE:LINE`,
    /// `:LINE`). Repeatable.
    #[arg(long = "break", value_name = "WHERE")]
    pub breaks: Vec<String>,
    /// Print at most this many stops.
    #[arg(long, default_value_t = 10)]
    pub stops: usize,
    /// After each stop, step this many instructions, printing each.
    #[arg(long, default_value_t = 0)]
    pub steps: usize,
    /// Open at step N of the program's lesson (its routine, on its position).
    #[arg(long, value_name = "N")]
    pub lesson: Option<u32>,
    /// Open at this many cycles of the turn (a stop read before: reproduces it).
    #[arg(long, value_name = "CYCLES")]
    pub at: Option<u64>,
    /// Print JSON: one object with every stop.
    #[arg(long)]
    pub json: bool,
}

/// The game to open: the lesson's, or `--fen` and `--moves`.
fn game_of(args: &DebugArgs, step: Option<&LessonStep>) -> Result<Game> {
    if let Some(s) = step {
        if args.fen.is_none() && args.moves.is_empty() {
            return s
                .game()
                .map_err(|e| anyhow::anyhow!("lesson step {}: {e}", s.step));
        }
    }
    let start = match &args.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("--fen '{f}'"))?,
        None => Position::startpos(),
    };
    let mut g = Game::new(start);
    for m in &args.moves {
        g.push_uci(m).with_context(|| format!("--moves: {m}"))?;
    }
    Ok(g)
}

/// A stop as text: where, the source line, the instruction, registers, flags, variables.
fn text(n: usize, why: &str, v: &StopView) -> String {
    let mut s = format!(
        "stop {n}: {why} at ${:04X}{}, after {} cycles of the turn ({:.3} s at {} MHz){}\n",
        v.pc,
        v.routine
            .as_deref()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default(),
        v.cycles,
        v.cycles as f64 / (v.mhz * 1e6),
        v.mhz,
        if v.over { "; the turn is over" } else { "" }
    );
    match &v.source {
        Some(l) => s.push_str(&format!("  {}:{}  {}\n", l.file, l.line, l.text.trim_end())),
        None => s.push_str("  (no source line here)\n"),
    }
    if let Some(d) = &v.differs {
        s.push_str(&format!("  {d}\n"));
    }
    let bytes: Vec<String> = v.bytes.iter().map(|b| format!("{b:02X}")).collect();
    s.push_str(&format!(
        "  ${:04X}  {:<12} {:<24} {} cycles\n",
        v.pc,
        bytes.join(" "),
        v.instruction,
        v.instruction_cycles
    ));
    let regs: Vec<String> = v
        .registers
        .iter()
        .map(|r| {
            if r.bits == 8 {
                format!("{}={:02X}", r.name, r.value)
            } else {
                format!("{}={:04X}", r.name, r.value)
            }
        })
        .collect();
    s.push_str(&format!("  registers: {}\n", regs.join(" ")));
    if let Some(f) = &v.flags {
        let flags: Vec<String> = f
            .iter()
            .map(|f| {
                if f.set {
                    f.name.to_string()
                } else {
                    f.name.to_lowercase()
                }
            })
            .collect();
        s.push_str(&format!("  flags: {}\n", flags.join(" ")));
    }
    for var in &v.variables {
        let note = var
            .note
            .as_deref()
            .map(|n| format!("  ({n})"))
            .unwrap_or_default();
        if var.text.contains('\n') {
            s.push_str(&format!("  {}:{note}\n", var.name));
            for line in var.text.lines() {
                s.push_str(&format!("      {line}\n"));
            }
        } else {
            s.push_str(&format!("  {} = {}{note}\n", var.name, var.text));
        }
    }
    s
}

/// What a stop's reason reads as.
fn why_text(why: Why) -> String {
    match why {
        Why::Done => "reached".into(),
        Why::Breakpoint(_) => "breakpoint".into(),
        Why::Budget => "paused".into(),
        Why::Stopped(r) => format!("stopped ({r})"),
    }
}

/// Opens the session where the arguments ask: at the lesson's routine, at `--at` cycles, or at
/// the start of the turn. Returns the stop's name.
fn open(args: &DebugArgs, adaptor: Adaptor) -> Result<(Session, String, Option<LessonStep>)> {
    let step = match args.lesson {
        None => None,
        Some(n) => Some(
            adaptor
                .lessons()
                .iter()
                .find(|s| s.step == n)
                .cloned()
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--lesson {n}: {} names no such step (it names {})",
                        args.program.display(),
                        adaptor
                            .lessons()
                            .iter()
                            .map(|s| s.step.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?,
        ),
    };
    let game = game_of(args, step.as_ref())?;
    let level = args.level.or(step.as_ref().and_then(|s| s.level));
    let mut s = Session::open(Arc::new(adaptor), &game, level)?;
    if let Some(at) = args.at {
        if !s.seek(at, RUN_BUDGET)? {
            bail!("--at {at}: not reached");
        }
        return Ok((s, format!("at {at} cycles"), step));
    }
    if let Some(st) = &step {
        if !s.run_to_lesson(st, RUN_BUDGET)? {
            bail!(
                "--lesson {}: the turn ended before {} was reached",
                st.step,
                st.name
            );
        }
        return Ok((
            s,
            format!("lesson {}, step {}: {}", st.lesson, st.step, st.name),
            step,
        ));
    }
    Ok((s, "the turn begins".into(), step))
}

pub fn run(args: &DebugArgs) -> Result<()> {
    let adaptor = Adaptor::from_file(&args.program)
        .with_context(|| format!("--program {}", args.program.display()))?;
    let (mut s, first, step) = open(args, adaptor)?;
    let mut breaks = Vec::new();
    for b in &args.breaks {
        let a = s.resolve(b).with_context(|| format!("--break {b}"))?;
        s.debugger().set_breakpoint(a);
        breaks.push(a);
    }
    let mut stops: Vec<(String, StopView)> = vec![(first, s.view())];
    stepped(&mut s, args.steps, &mut stops)?;
    while stops.len() < args.stops && !s.over() && !breaks.is_empty() {
        let st = s.run(RUN_BUDGET)?;
        stops.push((why_text(st.why), s.view()));
        stepped(&mut s, args.steps, &mut stops)?;
    }
    stops.truncate(args.stops.max(1));
    let printed = s.printed().to_string();
    if args.json {
        let lesson = step.as_ref().map(|st| {
            serde_json::json!({
                "lesson": st.lesson, "step": st.step, "title": st.title, "routine": st.name,
                "why": st.why, "fen": st.fen, "level": st.level,
                "paragraph": kempelen_claims::lessons::lesson(&st.lesson).and_then(|l| l.step(st.step)),
            })
        });
        let out = serde_json::json!({
            "program": s.adaptor().name(),
            "fen": s.game().position().to_fen(),
            "level": s.level(),
            "lesson": lesson,
            "stops": stops.iter().map(|(why, v)| serde_json::json!({"why": why, "stop": v})).collect::<Vec<_>>(),
            "printed": printed,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{} on {}{}",
        s.adaptor().name(),
        s.game().position().to_fen(),
        s.level()
            .map(|l| format!(", level {l}"))
            .unwrap_or_default()
    );
    if let Some(st) = &step {
        println!(
            "lesson {}, step {}: {} ({})",
            st.lesson, st.step, st.title, st.why
        );
        if let Some(p) = kempelen_claims::lessons::lesson(&st.lesson).and_then(|l| l.step(st.step))
        {
            for line in p.lines() {
                println!("  | {line}");
            }
        }
    }
    for (i, (why, v)) in stops.iter().enumerate() {
        print!("{}", text(i + 1, why, v));
    }
    if s.over() {
        println!("the program answered: {}", printed.trim());
    }
    Ok(())
}

/// `--steps`: single steps after a stop, each printed.
fn stepped(s: &mut Session, n: usize, stops: &mut Vec<(String, StopView)>) -> Result<()> {
    for _ in 0..n {
        if s.over() {
            break;
        }
        s.step()?;
        stops.push(("step".into(), s.view()));
    }
    Ok(())
}
