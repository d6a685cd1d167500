//! External engines as [`Engine`] backends: a UCI or an xboard (CECP) program run as a child
//! process over pipes. Every wait has a deadline, so an engine that hangs, dies or talks
//! nonsense becomes an [`EngineError`] with the reason, never a hung tournament.
//!
//! The returned best move is only checked for syntax here; whether it is legal is the game's
//! business (an illegal move forfeits the game, see [`super::game`]).

use super::game::printable;
use crate::engine::{Engine, EngineError, Limits, MATE, SearchRequest, SearchResult};
use crate::game::Game;
use crate::moves::Move;
use crate::position::START_FEN;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

/// The longest an engine may take to answer the handshake (`uciok`, `readyok`): the move
/// timeout, at most this.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line read from an engine, in bytes. A longer one is an engine failure: no
/// protocol line comes near it (a principal variation of 100 moves is 500 bytes), and an
/// engine that floods its output without a line end must not take the host's memory.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines held between the reader thread and the game. When they are not taken, the reader
/// stops reading and the engine blocks on its full pipe: what it sends costs at most this many
/// lines of memory.
pub const QUEUED_LINES: usize = 1024;

/// What the reader thread passes on: a line (lossily decoded, so one Latin-1 byte does not end
/// the reader), or the reason it stopped reading.
type Received = Result<String, String>;

/// A child process with a line reader on its standard output. On Unix the child leads a
/// process group of its own, and the whole group is killed when the process is dropped, so a
/// wrapper script's children do not outlive it.
struct Process {
    label: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Received>,
}

/// Reads lines of at most [`MAX_LINE`] bytes into a queue of [`QUEUED_LINES`] until end of
/// file, an over-long line, or the receiver is gone.
fn read_lines(stdout: impl Read, tx: std::sync::mpsc::SyncSender<Received>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = match (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(n) => n,
            Err(e) => {
                let _ = tx.send(Err(format!("reading its output failed: {e}")));
                return;
            }
        };
        if n == 0 {
            return;
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            let _ = tx.send(Err(format!(
                "sent a line longer than {MAX_LINE} bytes (output read no further)"
            )));
            return;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']).to_string();
        if tx.send(Ok(line)).is_err() {
            return;
        }
    }
}

impl Process {
    fn spawn(label: &str, command: &[String]) -> Result<Process, EngineError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| EngineError::Backend(format!("{label}: empty engine command")))?;
        let mut cmd = Command::new(resolve(program));
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Backend(format!("{label}: cannot start '{program}': {e}")))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = sync_channel(QUEUED_LINES);
        std::thread::spawn(move || read_lines(stdout, tx));
        Ok(Process {
            label: label.to_string(),
            child,
            stdin,
            lines: rx,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Backend(format!("{}: cannot send '{line}': {e}", self.label)))
    }

    /// The next line before `deadline`. The deadline is looked at before the queue, so an
    /// engine that floods its output still runs out of time.
    fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let timeout = || {
            EngineError::Backend(format!(
                "{}: no {waiting_for} within the time limit",
                self.label
            ))
        };
        let now = Instant::now();
        if now >= deadline {
            return Err(timeout());
        }
        match self.lines.recv_timeout(deadline - now) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(reason)) => Err(EngineError::Backend(format!(
                "{}: {reason} while waiting for {waiting_for}",
                self.label
            ))),
            Err(RecvTimeoutError::Timeout) => Err(timeout()),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default();
                Err(EngineError::Backend(format!(
                    "{}: engine exited while waiting for {waiting_for}{status}",
                    self.label
                )))
            }
        }
    }

    /// Reads lines until one satisfies `done`, returning it.
    fn wait_for(
        &mut self,
        timeout: Duration,
        waiting_for: &str,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv(deadline, waiting_for)?;
            if done(line.trim()) {
                return Ok(line);
            }
        }
    }

    /// Kills the process group the child leads (the child and whatever it started).
    fn kill_group(&mut self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the child was
            // made the leader of at spawn (`process_group(0)`); no memory is involved.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Process {
    /// `quit`, half a second to end, then the child's whole process group is killed (also
    /// when the child ended: a wrapper's children may live on) and the child reaped.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `program` as given when it contains a `/`, else the first match in `PATH` or `/usr/games`
/// (where Debian installs chess engines), else as given (so the error names it).
pub fn resolve(program: &str) -> String {
    if program.contains('/') {
        return program.to_string();
    }
    let path = std::env::var("PATH").unwrap_or_default();
    for dir in path.split(':').chain(["/usr/games"]) {
        let candidate = std::path::Path::new(dir).join(program);
        if candidate.is_file() {
            return candidate.to_string_lossy().into_owned();
        }
    }
    program.to_string()
}

/// The longest a search may take before the engine is given up: `move_timeout` for depth and
/// node limits, the clock (or move time) plus `move_timeout` for timed searches.
fn search_deadline(limits: &Limits, side_white: bool, move_timeout: Duration) -> Duration {
    let clock = if side_white {
        limits.wtime
    } else {
        limits.btime
    };
    move_timeout + limits.movetime.or(clock).unwrap_or_default()
}

/// A UCI engine process.
pub struct UciEngine {
    process: Process,
    name: String,
    move_timeout: Duration,
}

impl UciEngine {
    /// Starts `command`, runs the handshake and sets `options` (name, value).
    pub fn start(
        label: &str,
        command: &[String],
        options: &[(String, String)],
        move_timeout: Duration,
    ) -> Result<UciEngine, EngineError> {
        let mut process = Process::spawn(label, command)?;
        process.send("uci")?;
        let mut name = label.to_string();
        let handshake = move_timeout.min(HANDSHAKE_TIMEOUT);
        process.wait_for(handshake, "'uciok'", |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = printable(n.trim());
            }
            l == "uciok"
        })?;
        for (k, v) in options {
            process.send(&format!("setoption name {k} value {v}"))?;
        }
        let mut engine = UciEngine {
            process,
            name,
            move_timeout,
        };
        engine.sync()?;
        Ok(engine)
    }

    fn sync(&mut self) -> Result<(), EngineError> {
        self.process.send("isready")?;
        let handshake = self.move_timeout.min(HANDSHAKE_TIMEOUT);
        self.process
            .wait_for(handshake, "'readyok'", |l| l == "readyok")?;
        Ok(())
    }
}

/// `position` command for a game.
fn position_command(game: &Game) -> String {
    let start = game.start().to_fen();
    let mut s = if start == START_FEN {
        "position startpos".to_string()
    } else {
        format!("position fen {start}")
    };
    if !game.moves().is_empty() {
        s.push_str(" moves");
        for m in game.moves() {
            s.push(' ');
            s.push_str(&m.to_uci());
        }
    }
    s
}

/// `go` command for limits.
fn go_command(limits: &Limits) -> String {
    let mut s = "go".to_string();
    let ms = |d: Duration| d.as_millis();
    if let Some(d) = limits.depth {
        s += &format!(" depth {d}");
    }
    if let Some(n) = limits.nodes {
        s += &format!(" nodes {n}");
    }
    if let Some(t) = limits.movetime {
        s += &format!(" movetime {}", ms(t));
    }
    for (word, v) in [
        ("wtime", limits.wtime),
        ("btime", limits.btime),
        ("winc", limits.winc),
        ("binc", limits.binc),
    ] {
        if let Some(v) = v {
            s += &format!(" {word} {}", ms(v));
        }
    }
    if let Some(m) = limits.movestogo {
        s += &format!(" movestogo {m}");
    }
    if !limits.searchmoves.is_empty() {
        s += " searchmoves";
        for m in &limits.searchmoves {
            s += &format!(" {}", m.to_uci());
        }
    }
    s
}

/// Parses an `info` line's depth, nodes and score into `result`.
fn parse_info(line: &str, result: &mut SearchResult) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i + 1 < words.len() {
        match words[i] {
            "depth" => result.depth = words[i + 1].parse().unwrap_or(result.depth),
            "nodes" => result.nodes = words[i + 1].parse().unwrap_or(result.nodes),
            "score" if i + 2 < words.len() => {
                let v: i32 = words[i + 2].parse().unwrap_or(0);
                result.score = match words[i + 1] {
                    "mate" if v > 0 => MATE - (2 * v - 1),
                    "mate" => -MATE + 2 * -v,
                    _ => v,
                };
                i += 1;
            }
            "pv" => break,
            _ => {}
        }
        i += 1;
    }
}

impl Engine for UciEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits) = (request.game, request.limits);
        let start = Instant::now();
        self.process.send(&position_command(game))?;
        self.process.send(&go_command(limits))?;
        let mut result = SearchResult::no_move(false, Duration::ZERO);
        let white = game.position().side() == 0;
        let timeout = search_deadline(limits, white, self.move_timeout);
        // The last thing the engine said in words, for the reason of a failure.
        let mut said: Option<String> = None;
        let line = self.process.wait_for(timeout, "'bestmove'", |l| {
            if let Some(text) = l.strip_prefix("info string ") {
                said = Some(text.chars().take(200).collect());
            } else if l.starts_with("info ") {
                parse_info(l, &mut result);
            }
            l.starts_with("bestmove")
        });
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                // Ask it to stop, so a slow engine does not keep a core busy.
                let _ = self.process.send("stop");
                return Err(e);
            }
        };
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let because = said
            .map(|s| format!("; it said '{}'", printable(&s)))
            .unwrap_or_default();
        if text == "0000" || text == "(none)" || text.is_empty() {
            // The null move: the engine has no move to play (the game only asks in a
            // position with legal moves), so it gives up the game.
            return Err(EngineError::Backend(format!(
                "{}: no move ('{}') in a position with legal moves{because}",
                self.process.label,
                printable(line.trim())
            )));
        }
        let best = Move::parse_uci_parts(text).ok_or_else(|| {
            EngineError::Backend(format!(
                "{}: bestmove '{}' is not a move ('{}'){because}",
                self.process.label,
                printable(text),
                printable(line.trim())
            ))
        })?;
        result.best = Some(best);
        result.pv = vec![best];
        result.time = start.elapsed();
        // It was sent the `searchmoves`; a move outside them is not played in its name.
        limits.unrestricted(
            result,
            &self.process.label,
            "it answered outside `searchmoves`",
        )
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.process.send("ucinewgame")?;
        self.sync()
    }
}

/// An xboard (CECP) engine process. Positions other than the standard start need the
/// `setboard` feature; fixed nodes are not part of the protocol and are refused.
pub struct XboardEngine {
    process: Process,
    name: String,
    move_timeout: Duration,
    setboard: bool,
    usermove: bool,
    /// What the engine has been told of the current game: start FEN and moves.
    sent_start: Option<String>,
    sent_moves: Vec<Move>,
    /// The limit command last sent (`sd`, `level`, `st`).
    sent_level: String,
}

impl XboardEngine {
    /// Starts `command` and runs the `xboard` / `protover 2` handshake.
    pub fn start(
        label: &str,
        command: &[String],
        move_timeout: Duration,
    ) -> Result<XboardEngine, EngineError> {
        let mut process = Process::spawn(label, command)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let (mut setboard, mut usermove, mut name) = (false, false, label.to_string());
        // Protocol 1 engines send no features: after a short wait assume the defaults.
        let deadline = Instant::now() + move_timeout.min(Duration::from_secs(2));
        loop {
            let line = match process.recv(deadline, "'feature done=1'") {
                Ok(line) => line,
                Err(_) if process.child.try_wait().ok().flatten().is_none() => break,
                Err(e) => return Err(e),
            };
            if !line.starts_with("feature") {
                continue;
            }
            let mut done = false;
            for (k, v) in parse_features(&line) {
                match k.as_str() {
                    "setboard" => setboard = v == "1",
                    "usermove" => usermove = v == "1",
                    "myname" => name = printable(&v),
                    "done" => done = v == "1",
                    _ => {}
                }
                if k != "done" {
                    process.send(&format!("accepted {k}"))?;
                }
            }
            if done {
                break;
            }
        }
        Ok(XboardEngine {
            process,
            name,
            move_timeout,
            setboard,
            usermove,
            sent_start: None,
            sent_moves: Vec::new(),
            sent_level: String::new(),
        })
    }

    fn send_move(&mut self, m: Move) -> Result<(), EngineError> {
        let text = m.to_uci();
        if self.usermove {
            self.process.send(&format!("usermove {text}"))
        } else {
            self.process.send(&text)
        }
    }
}

/// `feature a=1 b="x y"` as (key, value) pairs.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        rest = &rest[eq + 1..];
        let value;
        if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"').unwrap_or(r.len());
            value = r[..end].to_string();
            rest = r.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            value = rest[..end].to_string();
            rest = rest[end..].trim_start();
        }
        out.push((key, value));
    }
    out
}

impl XboardEngine {
    /// Tells the engine the game: the moves since what it was told last, or (another game,
    /// another start) `new`, the start position and every move.
    fn send_game(&mut self, game: &Game) -> Result<(), EngineError> {
        let label = self.process.label.clone();
        let start_fen = game.start().to_fen();
        let continues = self.sent_start.as_deref() == Some(start_fen.as_str())
            && game.moves().starts_with(&self.sent_moves);
        self.process.send("force")?;
        if !continues {
            self.process.send("new")?;
            self.process.send("force")?;
            if start_fen != START_FEN {
                if !self.setboard {
                    return Err(EngineError::Unsupported(format!(
                        "{label}: the engine cannot set up a position (no setboard feature); \
                         give openings as moves from the start position"
                    )));
                }
                self.process.send(&format!("setboard {start_fen}"))?;
            }
            self.sent_start = Some(start_fen);
            self.sent_moves.clear();
            self.sent_level.clear();
        }
        for &m in &game.moves()[self.sent_moves.len()..] {
            self.send_move(m)?;
            self.sent_moves.push(m);
        }
        Ok(())
    }

    /// The limit command of a search: `sd` for a depth, `st` for a time per move, `level`
    /// for a clock (set once a game, from the clock of its first search, which is still the
    /// base time; `time` and `otim` track it).
    fn level_command(&self, limits: &Limits, white: bool) -> String {
        if let Some(d) = limits.depth {
            format!("sd {d}")
        } else if let Some(t) = limits.movetime {
            format!("st {}", t.as_secs().max(1))
        } else if self.sent_level.starts_with("level") {
            self.sent_level.clone()
        } else {
            let own = if white { limits.wtime } else { limits.btime };
            let inc = if white { limits.winc } else { limits.binc };
            let base = own.unwrap_or(Duration::from_secs(60));
            // Moves per period: the moves to go at the game's first search (`40/7200`: 40).
            format!(
                "level {} {}:{:02} {}",
                limits.movestogo.unwrap_or(0),
                base.as_secs() / 60,
                base.as_secs() % 60,
                inc.unwrap_or_default().as_secs_f64()
            )
        }
    }

    /// Sends the limit (when it changed) and both clocks (in a game with a clock).
    fn send_limits(&mut self, limits: &Limits, white: bool) -> Result<(), EngineError> {
        let level = self.level_command(limits, white);
        if level != self.sent_level {
            self.process.send(&level)?;
            self.sent_level = level;
        }
        let (own, other) = if white {
            (limits.wtime, limits.btime)
        } else {
            (limits.btime, limits.wtime)
        };
        if let (Some(own), Some(other)) = (own, other) {
            self.process
                .send(&format!("time {}", own.as_millis() / 10))?;
            self.process
                .send(&format!("otim {}", other.as_millis() / 10))?;
        }
        Ok(())
    }

    /// Waits for the engine's move (reading its thinking output into `result`), or its
    /// refusal of the game's moves. Returns the line and the refusal, if any.
    fn await_move(
        &mut self,
        timeout: Duration,
        result: &mut SearchResult,
    ) -> Result<(String, Option<String>), EngineError> {
        let mut refusal = None;
        let line = self.process.wait_for(timeout, "'move'", |l| {
            if l.starts_with("Illegal move") || l.starts_with("Error") {
                refusal = Some(l.to_string());
                return true;
            }
            // Thinking output: "depth score time nodes pv".
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() >= 4 && w[..4].iter().all(|x| x.parse::<i64>().is_ok()) {
                result.depth = w[0].parse().unwrap_or(0);
                result.score = w[1].parse().unwrap_or(0);
                result.nodes = w[3].parse().unwrap_or(0);
            }
            l.starts_with("move ") || l.starts_with("resign") || l.contains("My move is")
        });
        match line {
            Ok(line) => Ok((line, refusal)),
            Err(e) => {
                self.process.send("?").ok();
                self.sent_start = None;
                Err(e)
            }
        }
    }

    /// The move of the engine's answer `line`, which it has played on its board; a refusal
    /// or a resignation is an error (and the engine is told the whole game next time).
    fn answer_move(&mut self, line: &str, refusal: Option<String>) -> Result<Move, EngineError> {
        let label = &self.process.label;
        if let Some(r) = refusal {
            self.sent_start = None;
            return Err(EngineError::Backend(format!(
                "{label}: refused the game's moves: '{}'",
                printable(&r)
            )));
        }
        if line.starts_with("resign") {
            self.sent_start = None;
            return Err(EngineError::Backend(format!("{label}: resigned")));
        }
        let text = line.split_whitespace().last().unwrap_or("");
        let best = Move::parse_uci_parts(text).ok_or_else(|| {
            EngineError::Backend(format!(
                "{label}: move '{}' is not a move in coordinate notation ('{}')",
                printable(text),
                printable(line.trim())
            ))
        })?;
        self.sent_moves.push(best);
        Ok(best)
    }
}

impl Engine for XboardEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits) = (request.game, request.limits);
        if limits.nodes.is_some() {
            return Err(EngineError::Unsupported(format!(
                "{}: xboard engines cannot search a fixed number of nodes (use depth or time)",
                self.process.label
            )));
        }
        self.send_game(game)?;
        let white = game.position().side() == 0;
        self.send_limits(limits, white)?;
        let start = Instant::now();
        self.process.send("go")?;
        let timeout = search_deadline(limits, white, self.move_timeout);
        let mut result = SearchResult::no_move(false, Duration::ZERO);
        let (line, refusal) = self.await_move(timeout, &mut result)?;
        let best = self.answer_move(&line, refusal)?;
        result.best = Some(best);
        result.pv = vec![best];
        result.time = start.elapsed();
        // The protocol has no `searchmoves`: a move outside them is refused (and the game
        // set up afresh next time, since the engine played it on its board).
        let result = limits.unrestricted(
            result,
            &self.process.label,
            "the xboard protocol has no searchmoves",
        );
        if result.is_err() {
            self.sent_start = None;
        }
        result
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.sent_start = None;
        self.sent_moves.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_features() {
        let mut g = Game::default();
        g.push_uci("e2e4").unwrap();
        assert_eq!(position_command(&g), "position startpos moves e2e4");
        assert_eq!(go_command(&Limits::nodes(500)), "go nodes 500");
        let clock = Limits {
            wtime: Some(Duration::from_secs(7200)),
            btime: Some(Duration::from_millis(7_100_500)),
            movestogo: Some(40),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&clock),
            "go wtime 7200000 btime 7100500 movestogo 40"
        );
        let f = parse_features("feature ping=1 myname=\"Fairy-Max 5.0\" setboard=0 done=1");
        assert_eq!(f[1], ("myname".to_string(), "Fairy-Max 5.0".to_string()));
        assert_eq!(f[3], ("done".to_string(), "1".to_string()));
        let mut r = SearchResult::no_move(false, Duration::ZERO);
        parse_info(
            "info depth 7 seldepth 9 score mate 2 nodes 1234 pv e2e4",
            &mut r,
        );
        assert_eq!((r.depth, r.nodes, r.score), (7, 1234, MATE - 3));
    }

    #[test]
    fn missing_program_is_an_error() {
        let err = UciEngine::start(
            "nosuch",
            &["/nonexistent/engine".to_string()],
            &[],
            Duration::from_secs(1),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("cannot start"), "{err}");
    }
}
