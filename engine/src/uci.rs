//! The UCI protocol loop, the engine crate's only I/O. It reads commands from any `BufRead`,
//! writes to any `Write`, and runs searches on a second thread so that `isready`, `stop` and
//! `quit` are answered while the engine thinks (a backend looks at the stop flag often enough
//! to end within a few milliseconds). A command that needs the engine (`position`,
//! `ucinewgame`, `setoption`, `uci`) sent during a bounded search waits for its `bestmove`; an
//! infinite search it stops. A failed search says why in an `info string` and answers
//! `bestmove 0000`: no move is sent in an engine's name that it did not choose. Malformed
//! commands and illegal moves get an `info string error ...` line naming the command, and the
//! loop keeps going.

use crate::engine::{Engine, EngineError, Limits, OptionKind, SearchControl, SearchInfo, mate_in};
use crate::game::Game;
use crate::moves::Move;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, ScopedJoinHandle};
use std::time::Duration;
use web_time::Instant;

/// Formats a score as UCI `score cp N` or `score mate N`.
pub fn format_score(score: i32) -> String {
    match mate_in(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// Formats an `info` line: only the fields the engine reported (an adapted program may know
/// no depth, score or node count); `nps` only with nodes.
pub fn format_info(info: &SearchInfo) -> String {
    let mut s = String::from("info");
    if let Some(depth) = info.depth {
        s.push_str(&format!(" depth {depth}"));
        // A selective depth of 0 is unknown (the 8-bit builds, adapted programs): not printed.
        if info.seldepth > 0 {
            s.push_str(&format!(" seldepth {}", info.seldepth.max(depth)));
        }
    }
    if let Some(score) = info.score {
        s.push_str(&format!(" score {}", format_score(score)));
    }
    if let Some(nodes) = info.nodes {
        let ms = info.time.as_millis().max(1) as u64;
        s.push_str(&format!(" nodes {nodes} nps {}", nodes * 1000 / ms));
    }
    s.push_str(&format!(" time {}", info.time.as_millis()));
    if let Some(h) = info.hashfull {
        s.push_str(&format!(" hashfull {h}"));
    }
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&m.to_uci());
        }
    }
    if let Some(text) = &info.string {
        s.push_str(" string ");
        s.push_str(&one_line(text));
    }
    s
}

/// `text` on one line: line breaks and other control characters become spaces, so that an
/// engine's message (a fault with its trace, say) stays one UCI line.
pub fn one_line(text: &str) -> String {
    let flat: String = text
        .trim_end()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    flat
}

/// Parses the arguments of `position`.
pub fn parse_position(args: &[&str]) -> Result<Game, String> {
    let (mut game, rest) = match args.first() {
        Some(&"startpos") => (Game::default(), &args[1..]),
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(args.len());
            let fen = args[1..end].join(" ");
            let game = Game::from_fen(&fen).map_err(|e| e.to_string())?;
            (game, &args[end..])
        }
        Some(other) => return Err(format!("expected 'startpos' or 'fen', found '{other}'")),
        None => return Err("expected 'startpos' or 'fen'".into()),
    };
    if let Some((&first, moves)) = rest.split_first() {
        if first != "moves" {
            return Err(format!("expected 'moves', found '{first}'"));
        }
        for (i, text) in moves.iter().enumerate() {
            game.push_uci(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
    }
    Ok(game)
}

/// The words of `go` (a `searchmoves` list ends at the next of them).
const GO_WORDS: [&str; 12] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Parses the arguments of `go` for a search of `pos` (the moves of `searchmoves` are legal
/// moves there, in UCI notation; each once).
pub fn parse_go(args: &[&str], pos: &crate::position::Position) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    let mut any = false;
    while i < args.len() {
        let word = args[i];
        let mut number = || -> Result<i64, String> {
            i += 1;
            let v = args
                .get(i)
                .ok_or_else(|| format!("'{word}' needs a number"))?;
            v.parse::<i64>().map_err(|_| {
                if v.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                {
                    format!("'{word}' {v} is out of range (at most {})", i64::MAX)
                } else {
                    format!("'{word}' needs a number, found '{v}'")
                }
            })
        };
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        // A count or a time to search for must not be negative (clock times may be: a GUI
        // sends a flagged clock as a negative number).
        let positive = |v: i64| -> Result<i64, String> {
            if v < 0 {
                Err(format!("'{word}' must not be negative, found {v}"))
            } else {
                Ok(v)
            }
        };
        match word {
            "depth" => {
                let d = number()?;
                if d < 1 {
                    return Err("'depth' must be at least 1".into());
                }
                limits.depth = Some(d.min(1000) as u32);
            }
            "nodes" => limits.nodes = Some(positive(number()?)?.max(1) as u64),
            "movetime" => limits.movetime = Some(ms(positive(number()?)?)),
            "wtime" => limits.wtime = Some(ms(number()?)),
            "btime" => limits.btime = Some(ms(number()?)),
            "winc" => limits.winc = Some(ms(number()?)),
            "binc" => limits.binc = Some(ms(number()?)),
            "movestogo" => limits.movestogo = Some(positive(number()?)?.clamp(1, 1000) as u32),
            "mate" => limits.depth = Some((positive(number()?)?.clamp(1, 500) * 2) as u32),
            "infinite" | "ponder" => limits.infinite = true,
            "searchmoves" => {
                let first = limits.searchmoves.len();
                while let Some(&text) = args.get(i + 1).filter(|t| !GO_WORDS.contains(t)) {
                    let m = pos
                        .parse_uci(text)
                        .map_err(|e| format!("'searchmoves' {text}: {e}"))?;
                    if !limits.searchmoves.contains(&m) {
                        limits.searchmoves.push(m);
                    }
                    i += 1;
                }
                if limits.searchmoves.len() == first {
                    return Err("'searchmoves' needs at least one move".into());
                }
                // The moves bound no search: `go searchmoves e2e4` alone runs until `stop`.
                i += 1;
                continue;
            }
            other => return Err(format!("unknown 'go' parameter '{other}'")),
        }
        any = true;
        i += 1;
    }
    if !any {
        limits.infinite = true;
    }
    Ok(limits)
}

type Running<'scope> = ScopedJoinHandle<'scope, &'scope mut dyn Engine>;

struct Shared<W> {
    out: Mutex<W>,
    /// The running search has sent its `bestmove` (its thread is about to end).
    answered: AtomicBool,
}

impl<W: Write> Shared<W> {
    /// Writes a search's `bestmove` line and notes that the search has answered.
    fn answer(&self, text: &str) {
        self.line(text);
        self.answered.store(true, Ordering::Release);
    }

    /// Writes `text` as one line (an engine's message with line breaks is joined).
    fn line(&self, text: &str) {
        let text = if text.contains(|c: char| c.is_control()) {
            std::borrow::Cow::Owned(one_line(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// Runs the UCI loop until `quit` or end of input.
pub fn run<R: BufRead, W: Write + Send>(
    engine: &mut dyn Engine,
    input: R,
    output: W,
) -> io::Result<()> {
    let shared = Shared {
        out: Mutex::new(output),
        answered: AtomicBool::new(false),
    };
    let shared = &shared;
    thread::scope(|scope| -> io::Result<()> {
        let mut session = Session::new(engine, shared);
        let mut lines = Lines {
            input,
            raw: Vec::new(),
            number: 0,
        };
        while let Some(line) = lines.next(shared)? {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&command, args)) = words.split_first() else {
                continue;
            };
            if session.command(scope, command, args) == Flow::Quit {
                return Ok(());
            }
        }
        session.end_of_input();
        Ok(())
    })
}

/// The input's lines, each read within [`MAX_LINE`] bytes and checked to be UTF-8: a line that
/// is too long or not UTF-8 is reported (with its number) and skipped, and the loop lives on
/// (also while a search runs, so that `stop` and `isready` still reach it).
struct Lines<R> {
    input: R,
    raw: Vec<u8>,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// The next line that can be read, `None` at the end of input.
    fn next<W: Write>(&mut self, shared: &Shared<W>) -> io::Result<Option<String>> {
        loop {
            self.raw.clear();
            let (read, too_long) = read_line_bounded(&mut self.input, &mut self.raw)?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            let number = self.number;
            if too_long {
                shared.line(&format!(
                    "info string error: input line {number} is longer than {MAX_LINE} bytes; line ignored"
                ));
                continue;
            }
            match std::str::from_utf8(&self.raw) {
                Ok(line) => return Ok(Some(line.to_string())),
                Err(e) => shared.line(&format!(
                    "info string error: input line {number} is not valid UTF-8 (byte 0x{:02X} at column {}); line ignored",
                    self.raw[e.valid_up_to()],
                    e.valid_up_to() + 1
                )),
            }
        }
    }
}

/// Whether the loop goes on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The loop's state between commands: the engine (idle, or lent to the search thread), the
/// game of the last accepted `position`, and why the last one was refused.
struct Session<'scope, W> {
    shared: &'scope Shared<W>,
    idle: Option<&'scope mut dyn Engine>,
    running: Option<Running<'scope>>,
    stop: Arc<AtomicBool>,
    game: Game,
    /// Why the last `position` was refused, until one is accepted or a new game begins.
    refused: Option<String>,
    /// The running search ends only when stopped (`go infinite`, or a `go` that bounds
    /// nothing for the side to move).
    infinite: bool,
}

impl<'scope, W: Write + Send> Session<'scope, W> {
    fn new(engine: &'scope mut dyn Engine, shared: &'scope Shared<W>) -> Self {
        Session {
            shared,
            idle: Some(engine),
            running: None,
            stop: Arc::new(AtomicBool::new(false)),
            game: Game::default(),
            refused: None,
            infinite: false,
        }
    }

    /// One command with its arguments.
    fn command<'env>(
        &mut self,
        scope: &'scope thread::Scope<'scope, 'env>,
        command: &str,
        args: &[&str],
    ) -> Flow {
        self.reap();
        match command {
            "uci" => self.identify(),
            "isready" => self.shared.line("readyok"),
            "debug" | "register" | "ponderhit" => {}
            "ucinewgame" => self.new_game(),
            "position" => self.position(args),
            "setoption" => self.set_option(args),
            "go" => self.go(scope, args),
            "stop" => self.finish(),
            "quit" => {
                self.finish();
                return Flow::Quit;
            }
            "d" => self.shared.line(&format!(
                "info string fen {}",
                self.game.position().to_fen()
            )),
            other => self
                .shared
                .line(&format!("info string error: unknown command '{other}'")),
        }
        Flow::Continue
    }

    /// The engine between commands (a command that needs it first settles the search).
    fn engine(&mut self) -> &mut (dyn Engine + 'scope) {
        self.settle();
        self.idle
            .as_deref_mut()
            .expect("the engine is idle once settled")
    }

    /// `uci`: the engine's name, author and options, then `uciok`.
    fn identify(&mut self) {
        let engine = self.engine();
        let lines: Vec<String> = [
            format!("id name {}", engine.name()),
            format!("id author {}", engine.author()),
        ]
        .into_iter()
        .chain(engine.options().iter().map(option_line))
        .collect();
        for line in lines {
            self.shared.line(&line);
        }
        self.shared.line("uciok");
    }

    /// `ucinewgame`: the start position, and the engine forgets what it learnt.
    fn new_game(&mut self) {
        let result = self.engine().new_game();
        self.game = Game::default();
        self.refused = None;
        if let Err(e) = result {
            self.shared
                .line(&format!("info string error: ucinewgame: {e}"));
        }
    }

    /// `position`: the game to search next; a refused one is remembered, so that the next
    /// `go` searches nothing.
    fn position(&mut self, args: &[&str]) {
        self.settle();
        match parse_position(args) {
            Ok(g) => {
                self.game = g;
                self.refused = None;
            }
            Err(e) => {
                self.shared
                    .line(&format!("info string error: position: {e}"));
                self.refused = Some(e);
            }
        }
    }

    /// `setoption`.
    fn set_option(&mut self, args: &[&str]) {
        let result =
            parse_setoption(args).and_then(|(name, value)| self.engine().set_option(&name, &value));
        if let Err(e) = result {
            self.shared
                .line(&format!("info string error: setoption: {e}"));
        }
    }

    /// `go`: starts the search on a thread of its own. A `go` that cannot run is still
    /// answered, with `bestmove 0000`: a GUI waits for its `bestmove`, and a move for another
    /// position than the one it sent (the one before a refused `position`) would be a move
    /// the engine did not choose.
    fn go<'env>(&mut self, scope: &'scope thread::Scope<'scope, 'env>, args: &[&str]) {
        // A search that has answered is over, even if its thread has not quite ended: a GUI
        // sends the next `go` as soon as it has the `bestmove`.
        if self.shared.answered.load(Ordering::Acquire) {
            self.finish();
        }
        if self.running.is_some() {
            self.shared
                .line("info string error: go: already searching (send 'stop' first)");
            return;
        }
        let refuse = |why: String| {
            self.shared.line(&format!("info string error: go: {why}"));
            self.shared.line("bestmove 0000");
        };
        let limits = match parse_go(args, self.game.position()) {
            Ok(l) => l,
            Err(e) => {
                refuse(e);
                return;
            }
        };
        if let Some(e) = &self.refused {
            refuse(format!(
                "the last 'position' was refused ({e}); send a position first"
            ));
            return;
        }
        // A search that only `stop` ends (no depth, nodes, movetime or clock of the side to
        // move: `go binc 2` for White) is stopped by the next command that needs the engine,
        // as an infinite one is, never waited for.
        let side = self.game.position().side();
        self.infinite = !limits.bounded_for(side);
        if !limits.infinite && self.infinite {
            self.shared.line(&format!(
                "info string go: no depth, nodes, movetime or {} for the side to move; searching until stopped",
                if side == crate::piece::BLACK {
                    "btime"
                } else {
                    "wtime"
                }
            ));
        }
        self.stop = Arc::new(AtomicBool::new(false));
        self.shared.answered.store(false, Ordering::Release);
        let engine = self.idle.take().expect("the engine is idle");
        let flag = Arc::clone(&self.stop);
        let game = self.game.clone();
        let shared = self.shared;
        self.running =
            Some(scope.spawn(move || search_thread(engine, &game, &limits, flag, shared)));
    }

    /// Takes the engine back from a search thread that has ended.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|h| h.is_finished()) {
            let handle = self.running.take().expect("checked");
            self.join(handle);
        }
    }

    fn join(&mut self, handle: Running<'scope>) {
        match handle.join() {
            Ok(e) => self.idle = Some(e),
            Err(_) => self
                .shared
                .line("info string error: the search thread panicked"),
        }
    }

    /// Takes the engine back for a command that needs it (`uci`, `ucinewgame`, `position`,
    /// `setoption`): a bounded search is let finish (its `bestmove` comes first, as the
    /// commands were sent after it), an infinite one is stopped.
    fn settle(&mut self) {
        if !self.infinite {
            if let Some(handle) = self.running.take() {
                self.join(handle);
            }
        }
        self.finish();
    }

    /// Stops a running search (if any) and takes the engine back.
    fn finish(&mut self) {
        if let Some(handle) = self.running.take() {
            self.stop.store(true, Ordering::Relaxed);
            self.join(handle);
        }
    }

    /// End of input: a bounded search is let finish, an infinite one stopped.
    fn end_of_input(&mut self) {
        self.settle();
    }
}

/// The `option` line of `uci` for one option.
fn option_line(o: &crate::engine::EngineOption) -> String {
    match &o.kind {
        OptionKind::Spin { default, min, max } => {
            format!(
                "option name {} type spin default {default} min {min} max {max}",
                o.name
            )
        }
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", o.name)
        }
        OptionKind::Combo { default, choices } => {
            let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
            format!(
                "option name {} type combo default {default} {}",
                o.name,
                vars.join(" ")
            )
        }
    }
}

/// The longest input line the loop reads (a `position ... moves` line of a 1,000-move game is
/// under 6 KB); the rest of a longer line is skipped, so endless input without a newline
/// (`kempelen uci < /dev/zero`) cannot exhaust memory.
pub const MAX_LINE: usize = 64 * 1024;

/// Reads one line into `raw` (at most [`MAX_LINE`] bytes kept): the bytes consumed (0 at end
/// of input) and whether the line was cut.
fn read_line_bounded<R: BufRead>(input: &mut R, raw: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((consumed, too_long));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let len = chunk.len();
        if raw.len() + len > MAX_LINE {
            too_long = true;
        } else {
            raw.extend_from_slice(chunk);
        }
        input.consume(len);
        consumed += len;
        if done {
            return Ok((consumed, too_long));
        }
    }
}

fn search_thread<'a, W: Write + Send>(
    engine: &'a mut dyn Engine,
    game: &Game,
    limits: &Limits,
    stop: Arc<AtomicBool>,
    shared: &Shared<W>,
) -> &'a mut dyn Engine {
    let control = SearchControl {
        stop: Arc::clone(&stop),
        info: Some(Box::new(|info: &SearchInfo| {
            shared.line(&format_info(info))
        })),
        start: Instant::now(),
    };
    let result = engine.search(game, limits, &control);
    // UCI: in infinite mode the best move is only sent after "stop".
    if limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(2));
        }
    }
    match result {
        Ok(r) => {
            let mut line = format!(
                "bestmove {}",
                r.best.map_or("0000".to_string(), Move::to_uci)
            );
            if let Some(ponder) = r.pv.get(1) {
                line.push_str(&format!(" ponder {ponder}"));
            }
            shared.answer(&line);
        }
        // No move is sent in an engine's name that it did not choose: a failed search says
        // why and gives no move.
        Err(e) => {
            shared.line(&format!("info string error: go: {e}"));
            shared.answer("bestmove 0000");
        }
    }
    engine
}

/// Parses `setoption name <name...> [value <value...>]`.
pub fn parse_setoption(args: &[&str]) -> Result<(String, String), EngineError> {
    if args.first() != Some(&"name") {
        return Err(EngineError::Unsupported(
            "expected 'setoption name <name> value <value>'".into(),
        ));
    }
    let value_at = args
        .iter()
        .position(|&t| t == "value")
        .unwrap_or(args.len());
    let name = args[1..value_at].join(" ");
    if name.is_empty() {
        return Err(EngineError::Unsupported("missing option name".into()));
    }
    let value = if value_at < args.len() {
        args[value_at + 1..].join(" ")
    } else {
        String::new()
    };
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchRequest;
    use crate::native::{NativeEngine, Profile};

    /// `go` with `args` in the start position.
    fn go(args: &[&str]) -> Result<Limits, String> {
        parse_go(args, &crate::position::Position::startpos())
    }

    fn session(input: &str) -> String {
        let mut engine = NativeEngine::new(Profile::Reference);
        let mut out = Vec::new();
        run(&mut engine, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_lists_options() {
        let out = session("uci\nisready\nquit\n");
        assert!(out.contains("id name Kempelen"));
        assert!(out.contains("option name Hash type spin"));
        assert!(
            out.contains("option name Profile type combo default reference var full var reference")
        );
        assert!(out.contains("uciok\nreadyok\n"));
    }

    #[test]
    fn fixed_depth_search_reports_info_and_bestmove() {
        let out = session("position startpos moves e2e4\ngo depth 3\nisready\n");
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(" pv ")),
            "{out}"
        );
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{out}");
    }

    #[test]
    fn mate_scores_are_printed_as_mate() {
        let out = session("position fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1\ngo depth 2\n");
        assert!(out.contains("score mate 1"), "{out}");
        assert!(out.contains("bestmove a1a8"), "{out}");
    }

    #[test]
    fn errors_are_reported_and_the_loop_continues() {
        let out = session(
            "position startpos moves e2e5\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo depth x\nfoo\nsetoption name Hash value abc\nsetoption name Nope value 1\nisready\n",
        );
        assert!(
            out.contains("info string error: position: move 1 (e2e5): 'e2e5' is not a legal move"),
            "{out}"
        );
        assert!(out.contains("info string error: position: invalid FEN, piece placement (field 1): White has no king"), "{out}");
        assert!(
            out.contains("info string error: go: 'depth' needs a number, found 'x'"),
            "{out}"
        );
        assert!(
            out.contains("info string error: unknown command 'foo'"),
            "{out}"
        );
        assert!(
            out.contains("invalid value 'abc' for option 'Hash'"),
            "{out}"
        );
        assert!(out.contains("unknown option 'Nope'"), "{out}");
        assert!(out.trim_end().ends_with("readyok"), "{out}");
    }

    #[test]
    fn infinite_search_waits_for_stop() {
        let out =
            session("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1\ngo infinite\nisready\nstop\nquit\n");
        let ready = out.find("readyok").expect("readyok");
        let best = out.find("bestmove").expect("bestmove");
        assert!(ready < best, "{out}");
    }

    #[test]
    fn go_parsing() {
        let l = go(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "movestogo",
            "3",
        ])
        .unwrap();
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::ZERO));
        assert_eq!(l.movestogo, Some(3));
        assert!(go(&[]).unwrap().infinite);
        assert!(go(&["depth", "0"]).is_err());
        assert!(go(&["bogus"]).is_err());
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_the_engine_lives_on() {
        let mut engine = NativeEngine::new(Profile::Reference);
        let mut out = Vec::new();
        run(&mut engine, &b"isready\n\xff\nisready\n"[..], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out,
            "readyok\ninfo string error: input line 2 is not valid UTF-8 (byte 0xFF at column 1); line ignored\nreadyok\n"
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_during_go_infinite_leaves_stop_and_isready_working() {
        let mut engine = NativeEngine::new(Profile::Reference);
        let mut out = Vec::new();
        let input =
            &b"position startpos\ngo infinite\nbad \xc3\x28 line\nisready\nstop\nquit\n"[..];
        run(&mut engine, input, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let bad = out
            .find("input line 3 is not valid UTF-8 (byte 0xC3 at column 5)")
            .expect(&out);
        let ready = out.find("readyok").expect(&out);
        let best = out.find("bestmove").expect(&out);
        assert!(bad < ready && ready < best, "{out}");
    }

    #[test]
    fn an_endless_line_is_cut_and_reported() {
        let mut input = vec![b'x'; 3 * MAX_LINE];
        input.extend_from_slice(b"\nisready\n");
        let mut engine = NativeEngine::new(Profile::Reference);
        let mut out = Vec::new();
        run(&mut engine, &input[..], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out,
            format!(
                "info string error: input line 1 is longer than {MAX_LINE} bytes; line ignored\nreadyok\n"
            )
        );
    }

    #[test]
    fn negative_node_and_time_limits_are_errors() {
        assert_eq!(
            go(&["nodes", "-5"]).unwrap_err(),
            "'nodes' must not be negative, found -5"
        );
        assert_eq!(
            go(&["movetime", "-1"]).unwrap_err(),
            "'movetime' must not be negative, found -1"
        );
        assert!(go(&["mate", "-2"]).is_err());
        assert_eq!(go(&["nodes", "0"]).unwrap().nodes, Some(1));
        // A refused `go` is answered with the null move (a GUI waits for a `bestmove`).
        let out = session("go nodes -5\nisready\n");
        assert_eq!(
            out,
            "info string error: go: 'nodes' must not be negative, found -5\nbestmove 0000\nreadyok\n"
        );
        assert_eq!(
            go(&["movetime", "18446744073709551615"]).unwrap_err(),
            "'movetime' 18446744073709551615 is out of range (at most 9223372036854775807)"
        );
    }

    #[test]
    fn go_after_a_refused_position_searches_nothing() {
        // The last position sent was refused: no move of the one before it is played.
        let out = session(
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1\nposition fen 8/8/8/8/8/8/8/K6k w - - 0\ngo depth 1\nisready\n",
        );
        let after: Vec<&str> = out.lines().skip(1).collect();
        assert!(
            after[0]
                .starts_with("info string error: go: the last 'position' was refused (invalid FEN"),
            "{out}"
        );
        assert_eq!(after[1..], ["bestmove 0000", "readyok"], "{out}");
        // An accepted position (or a new game) ends it.
        let out = session(
            "position fen garbage\nposition fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1\ngo depth 2\nisready\n",
        );
        assert!(out.contains("bestmove a1a8"), "{out}");
        let out = session("position fen garbage\nucinewgame\ngo depth 1\nisready\n");
        assert!(
            !out.contains("bestmove 0000") && out.contains("bestmove "),
            "{out}"
        );
    }

    /// A backend whose every search fails with a message of several lines (an emulator
    /// fault and its trace).
    struct Failing;

    impl Engine for Failing {
        fn name(&self) -> String {
            "Failing 1.0".into()
        }
        fn author(&self) -> String {
            "A. Programmer (adapted by the Kempelen developers)".into()
        }
        fn search_request(
            &mut self,
            _: SearchRequest<'_>,
        ) -> Result<crate::SearchResult, EngineError> {
            Err(EngineError::Backend(
                "the program faulted: illegal opcode $ED $FF at $1234\nlast 2 instructions:\n  1232  NOP\nregisters: A=00 F=44".into(),
            ))
        }
    }

    #[test]
    fn a_failed_search_says_why_on_one_line_and_gives_no_move() {
        let mut engine = Failing;
        let mut out = Vec::new();
        run(
            &mut engine,
            &b"uci\nposition startpos\ngo depth 1\nisready\n"[..],
            &mut out,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("id author A. Programmer (adapted by the Kempelen developers)\n"),
            "{out}"
        );
        assert!(
            out.contains(
                "info string error: go: engine backend failed: the program faulted: illegal opcode $ED $FF at $1234 last 2 instructions:   1232  NOP registers: A=00 F=44\nbestmove 0000\n"
            ),
            "{out}"
        );
        // Nothing but UCI lines: no bare trace line, no legal move of the loop's own.
        for line in out.lines() {
            assert!(
                ["id ", "uciok", "info ", "bestmove ", "readyok"]
                    .iter()
                    .any(|p| line.starts_with(p)),
                "{line}"
            );
        }
        assert_eq!(out.matches("bestmove").count(), 1, "{out}");
    }

    #[test]
    fn info_lines_print_only_what_the_engine_reported() {
        let e2e4 = Game::default().position().parse_uci("e2e4").unwrap();
        let info = SearchInfo {
            depth: None,
            seldepth: 0,
            score: None,
            nodes: None,
            time: Duration::from_millis(1500),
            pv: vec![e2e4],
            hashfull: None,
            string: Some("value 163\nof 255".into()),
        };
        assert_eq!(
            format_info(&info),
            "info time 1500 pv e2e4 string value 163 of 255"
        );
        let info = SearchInfo {
            depth: Some(2),
            score: Some(-25),
            nodes: Some(3000),
            string: None,
            ..info
        };
        assert_eq!(
            format_info(&info),
            "info depth 2 score cp -25 nodes 3000 nps 2000 time 1500 pv e2e4"
        );
    }

    /// A backend whose search ends only when stopped (or, if never stopped, after a minute,
    /// saying so in its result: a loop that waits for it fails the test instead of hanging).
    struct UntilStopped;

    impl Engine for UntilStopped {
        fn name(&self) -> String {
            "Until stopped".into()
        }
        fn search_request(
            &mut self,
            request: SearchRequest<'_>,
        ) -> Result<crate::SearchResult, EngineError> {
            let start = Instant::now();
            while !request.control.stop.load(Ordering::Relaxed) {
                if start.elapsed() > Duration::from_secs(60) {
                    return Err(EngineError::Backend("never stopped".into()));
                }
                thread::sleep(Duration::from_millis(1));
            }
            let best = request.game.position().parse_uci("e2e4").ok();
            Ok(crate::SearchResult::of_iteration(
                1,
                0,
                best.into_iter().collect(),
                1,
                start.elapsed(),
            ))
        }
    }

    #[test]
    fn a_go_that_only_stop_ends_is_stopped_by_the_next_command_not_waited_for() {
        // Increments, moves to go or the other side's clock alone bound nothing: such a
        // search is stopped by the next command that needs the engine (as `go infinite` is)
        // and at the end of input, so the loop reads on and `quit` ends it.
        for (position, go, clock) in [
            ("startpos", "go binc 2", "wtime"),
            ("startpos", "go winc 100 movestogo 5", "wtime"),
            ("startpos moves e2e4", "go wtime 1000 winc 10", "btime"),
        ] {
            let notice = format!(
                "info string go: no depth, nodes, movetime or {clock} for the side to move; searching until stopped\n"
            );
            for then in [
                "setoption name Hash value 1",
                "position startpos",
                "ucinewgame",
                "uci",
            ] {
                for end in ["isready\nquit\n", "isready\n"] {
                    let input = format!("position {position}\n{go}\n{then}\n{end}");
                    let mut out = Vec::new();
                    run(&mut UntilStopped, input.as_bytes(), &mut out).unwrap();
                    let out = String::from_utf8(out).unwrap();
                    assert!(out.contains(&notice), "{input}: {out}");
                    assert!(!out.contains("never stopped"), "{input}: {out}");
                    assert_eq!(out.matches("bestmove ").count(), 1, "{input}: {out}");
                    assert!(out.ends_with("readyok\n"), "{input}: {out}");
                }
            }
        }
        // The native engine on the session the fuzzer found (it searched towards depth 32
        // while `setoption` waited for it), and at the end of input.
        for input in [
            "go binc 2\nsetoption w\nisready\nstop\nquit\n",
            "go movestogo 5\n",
        ] {
            let out = session(input);
            assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
        }
        // A search with a bound of its own gets no notice (and is let finish, as before).
        for go in [
            "go depth 1 binc 2",
            "go nodes 50",
            "go movetime 5",
            "go wtime 100",
        ] {
            let out = session(&format!("{go}\nposition startpos\nquit\n"));
            assert!(!out.contains("searching until stopped"), "{out}");
            assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
        }
    }

    #[test]
    fn checkmated_position_gives_null_bestmove() {
        let out = session("position fen R6k/8/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
        assert!(out.contains("bestmove 0000"), "{out}");
    }
}
