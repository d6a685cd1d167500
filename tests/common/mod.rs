//! What the end-to-end tests share: running the `kempelen` binary as a user does.

#![allow(dead_code)] // each test binary uses its own part

use std::path::Path;
use std::process::Command;

/// Runs `kempelen args`: whether it succeeded, its standard output and its standard error.
pub fn kempelen(args: &[&str]) -> (bool, String, String) {
    outcome(&output(args))
}

/// A finished process: whether it succeeded, its standard output and its standard error.
pub fn outcome(out: &std::process::Output) -> (bool, String, String) {
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// Starts `kempelen args` with its standard input, output and error piped to the test.
pub fn spawn(args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kempelen")
}

/// `dir/start.epd`, written: the start position as the only opening of a tournament.
pub fn start_opening(dir: &std::path::Path) -> std::path::PathBuf {
    let start = dir.join("start.epd");
    std::fs::write(
        &start,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    start
}

/// The number of plies a PGN game's `[PlyCount]` tag gives.
pub fn ply_count(pgn: &str) -> usize {
    pgn.lines()
        .find_map(|l| l.strip_prefix("[PlyCount \""))
        .expect("a [PlyCount] tag")
        .trim_end_matches("\"]")
        .parse()
        .expect("a number of plies")
}

/// Runs `kempelen args` with `input` on its standard input (closed after it) and returns its
/// whole output.
pub fn with_input(args: &[&str], input: impl AsRef<[u8]>) -> std::process::Output {
    use std::io::Write;
    let mut child = spawn(args);
    // A program that ends before reading all of its input closes the pipe: not an error here.
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    child.wait_with_output().unwrap()
}

/// Runs `kempelen args`, which must succeed: its standard output and standard error.
#[track_caller]
pub fn succeeds(args: &[&str]) -> (String, String) {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(ok, "{args:?}: {stderr}");
    (stdout, stderr)
}

/// Runs `kempelen args`, which must fail: its standard error.
#[track_caller]
pub fn fails(args: &[&str]) -> String {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(!ok, "{args:?} succeeded: {stdout}");
    stderr
}

/// Runs `kempelen args`, which must fail with a message that holds every one of `parts`: its
/// standard error.
#[track_caller]
pub fn fails_with(args: &[&str], parts: &[&str]) -> String {
    let stderr = fails(args);
    assert_contains(&format!("{args:?}"), &stderr, parts);
    stderr
}

/// Asserts that `text` holds every one of `parts`; a failure names `what` (the case or the
/// command) and the part that is missing.
#[track_caller]
pub fn assert_contains(what: &str, text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{what}: `{part}` missing in:\n{text}");
    }
}

/// The words of a command line, split at white space: `words("search --depth 2")`.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// A table of refusals: for each `(command line, part)` (the line split at white space by
/// [`words`]) `kempelen` must fail with a message that holds the part.
#[track_caller]
pub fn refusals(cases: &[(&str, &str)]) {
    for (line, part) in cases {
        fails_with(&words(line), &[part]);
    }
}

/// Runs `kempelen args` (with `--json` among them), which must succeed, and parses its output.
pub fn json(args: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(ok, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
}

/// The folder `KEMPELEN_HISTORICAL` names, where the historical programs are (they are not part
/// of Kempelen: the tests that run them need a local copy); `None`, with a `SKIPPED` line, when
/// the variable is not set.
pub fn historical_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("KEMPELEN_HISTORICAL").map(std::path::PathBuf::from);
    if dir.is_none() {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
    }
    dir
}

/// The path of `file` in [`historical_dir`], which must hold it (`None` when the variable is
/// not set).
pub fn historical_file(file: &str) -> Option<std::path::PathBuf> {
    let path = historical_dir()?.join(file);
    assert!(
        path.exists(),
        "{} is missing (see the adaptor file for where to get it)",
        path.display()
    );
    Some(path)
}

/// Whether python3 with python-chess is there (the UCI session tests skip without it).
pub fn python_chess_available() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `kempelen args` and returns its whole output (status, standard output and error as
/// bytes).
pub fn output(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run kempelen")
}

/// Runs `kempelen asm SOURCE --cpu CPU -o BINARY more...`: whether it succeeded, its standard
/// output and its standard error.
pub fn asm(source: &Path, cpu: &str, binary: &Path, more: &[&str]) -> (bool, String, String) {
    kempelen(
        &[
            &["asm", arg(source), "--cpu", cpu, "-o", arg(binary)][..],
            more,
        ]
        .concat(),
    )
}

/// [`asm`], which must succeed: its standard output and standard error.
#[track_caller]
pub fn assembles(source: &Path, cpu: &str, binary: &Path, more: &[&str]) -> (String, String) {
    let (ok, stdout, stderr) = asm(source, cpu, binary, more);
    assert!(ok, "asm {}: {stderr}", source.display());
    (stdout, stderr)
}

/// `kempelen asm SOURCE --cpu CPU -o BINARY more...` must fail with a message that holds every
/// one of `parts`, and write no binary.
#[track_caller]
pub fn asm_refused(source: &Path, cpu: &str, binary: &Path, more: &[&str], parts: &[&str]) {
    let (ok, _, err) = asm(source, cpu, binary, more);
    assert!(!ok, "asm --cpu {cpu} {more:?} succeeded");
    assert_contains(cpu, &err, parts);
    assert!(
        !binary.exists(),
        "no binary is written when there are errors"
    );
}

/// Asserts that every one of `expected` is one of `lines`; a failure names `what` and the line
/// that is missing.
#[track_caller]
pub fn assert_lines(what: &str, lines: &[String], expected: &[&str]) {
    for line in expected {
        assert!(
            lines.iter().any(|l| l == line),
            "{what}: no line `{line}` in {lines:#?}"
        );
    }
}

/// A path as an argument of a command line (it must be UTF-8).
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Bytes of an output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch folder of this test process under the system's temporary folder, created if
/// missing: `kempelen-NAME-PID`.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kempelen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// [`scratch`], emptied first: a fresh folder for one test.
pub fn fresh_scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kempelen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    scratch(name)
}

/// A fresh scratch folder for one test ([`fresh_scratch`]), removed when it goes out of scope
/// at the end of a test that passed (a failed test leaves it to be looked at).
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    /// `kempelen-NAME-PID` under the system's temporary folder, emptied.
    pub fn new(name: &str) -> Scratch {
        Scratch(fresh_scratch(name))
    }

    /// Writes `bytes` to the file `name` in the folder: its path.
    pub fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> std::path::PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            std::fs::remove_dir_all(&self.0).unwrap();
        }
    }
}

/// Writes `bytes` to `name` in the scratch folder `folder` and returns its path.
pub fn scratch_file(folder: &str, name: &str, bytes: impl AsRef<[u8]>) -> std::path::PathBuf {
    let path = scratch(folder).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs the python-chess script `tests/SCRIPT` with the kempelen binary and `args`, which must
/// succeed, and returns the fields of every line it printed that starts with `RESULT`. `None`
/// (with a `SKIPPED` line) when python3 or python-chess is missing.
pub fn python_session(script: &str, args: &[&str]) -> Option<Vec<Vec<String>>> {
    if !python_chess_available() {
        eprintln!("SKIPPED: python3 with the 'chess' package is not installed (pip install chess)");
        return None;
    }
    let script = format!("{}/tests/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run python3");
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{args:?}: session failed:\n{stdout}\n{}",
        text(&out.stderr)
    );
    let results: Vec<Vec<String>> = stdout
        .lines()
        .filter(|l| l.starts_with("RESULT"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    assert!(!results.is_empty(), "no RESULT line:\n{stdout}");
    Some(results)
}

/// One game through the python-chess script `tests/SCRIPT` ([`python_session`]): its line
/// `RESULT ... <result> <termination> <plies>` must give a proper result after more than
/// `min_plies` plies. Returns the line's fields (`None` when skipped).
pub fn python_game(script: &str, args: &[&str], min_plies: u32) -> Option<Vec<String>> {
    let f = python_session(script, args)?.swap_remove(0);
    let n = f.len();
    assert!(
        n >= 4 && ["1-0", "0-1", "1/2-1/2"].contains(&f[n - 3].as_str()),
        "{args:?}: {f:?}"
    );
    let plies: u32 = f[n - 1].parse().unwrap();
    assert!(plies > min_plies, "{args:?}: {f:?}");
    Some(f)
}

/// A running `kempelen uci ...` driven line by line, as a GUI drives it: what it prints is
/// read on a thread of its own, stamped with the host time it arrived, so a test can wait for
/// a line with a bound and measure how long the answer took.
pub struct UciSession {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<(std::time::Instant, String)>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl UciSession {
    /// Starts `kempelen` with `args`; its standard error is collected (see [`Self::finish`]).
    pub fn start(args: &[&str]) -> UciSession {
        use std::io::BufRead;
        let mut child = spawn(args);
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((std::time::Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        UciSession {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Sends one line; the host time it was sent.
    pub fn send(&mut self, line: &str) -> std::time::Instant {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").expect("write to kempelen");
        stdin.flush().expect("flush");
        std::time::Instant::now()
    }

    /// Waits (at most `within`) for a line starting with `prefix`: the line and when it came.
    /// Panics with everything seen so far when none comes.
    pub fn wait_for(
        &mut self,
        prefix: &str,
        within: std::time::Duration,
    ) -> (String, std::time::Instant) {
        let deadline = std::time::Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return (line, at);
                    }
                }
                Err(_) => panic!(
                    "no line starting with `{prefix}` within {within:?}; seen:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Sends `line` and waits for the answer, the line starting with `prefix`: that line and
    /// how long it took to come. The wait gives up after 60 s, a guard against a hang on a
    /// busy machine, never a measure of speed.
    pub fn ask(&mut self, line: &str, prefix: &str) -> (String, std::time::Duration) {
        let asked = self.send(line);
        let (answer, at) = self.wait_for(prefix, std::time::Duration::from_secs(60));
        (answer, at - asked)
    }

    /// The lines seen since `from` (an index into [`Self::seen`]).
    pub fn since(&self, from: usize) -> &[String] {
        &self.seen[from.min(self.seen.len())..]
    }

    /// Sends `quit`, closes the input and returns what it printed on standard error.
    pub fn finish(mut self) -> String {
        use std::io::Read;
        let _ = self.send("quit");
        drop(self.stdin.take());
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        let _ = self.child.wait();
        while let Ok((_, line)) = self.lines.try_recv() {
            self.seen.push(line);
        }
        err
    }
}

/// The JSON parts of a `tournament --json` or `ratings --json` report that describe the games
/// and the standings (not how they were played).
pub fn standings_of(v: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "players": v["players"],
        "crosstable": v["crosstable"],
        "pairings": v["pairings"],
        "terminations": v["terminations"],
        "games": v["games"],
    })
}

/// The games of a PGN file by round, as text.
pub fn games_by_round(text: &str) -> std::collections::BTreeMap<u64, String> {
    let mut out = std::collections::BTreeMap::new();
    for game in text
        .split("\n\n[Event")
        .map(|g| g.trim_start_matches("[Event"))
    {
        let round: u64 = game
            .lines()
            .find_map(|l| l.strip_prefix("[Round \""))
            .and_then(|r| r.trim_end_matches("\"]").parse().ok())
            .unwrap_or_else(|| panic!("no round: {game}"));
        out.insert(round, game.trim().to_string());
    }
    out
}
