//! What the end-to-end tests share: running the `kempelen` binary as a user does.

#![allow(dead_code)] // each test binary uses its own part

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
pub fn with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = spawn(args);
    // A program that ends before reading all of its input closes the pipe: not an error here.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// Runs `kempelen args`, which must succeed: its standard output and standard error.
pub fn succeeds(args: &[&str]) -> (String, String) {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(ok, "{args:?}: {stderr}");
    (stdout, stderr)
}

/// Runs `kempelen args`, which must fail: its standard error.
pub fn fails(args: &[&str]) -> String {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(!ok, "{args:?} succeeded: {stdout}");
    stderr
}

/// Runs `kempelen args` (with `--json` among them), which must succeed, and parses its output.
pub fn json(args: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(ok, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
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
