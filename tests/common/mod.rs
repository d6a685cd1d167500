//! What the end-to-end tests share: running the `kempelen` binary as a user does.

#![allow(dead_code)] // each test binary uses its own part

use std::process::Command;

/// Runs `kempelen args`: whether it succeeded, its standard output and its standard error.
pub fn kempelen(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run kempelen");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
        use std::process::Stdio;
        let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run kempelen");
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
