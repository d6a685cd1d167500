//! Progress of the long commands (`bench`, `claims`): indicatif draws a bar or spinner on a
//! terminal and nothing otherwise, so a run whose standard error goes to a file or a CI log
//! would say nothing for minutes. [`Ticker`] fills that gap: when standard error is not a
//! terminal it prints the bar's state as a plain line every few seconds.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a line is printed when standard error is not a terminal.
const EVERY: Duration = Duration::from_secs(10);

/// A bar of `len` steps named `unit` ("searches", "games"): `{msg} [====>   ] 3/16 searches,
/// 2s`. Drawn on a terminal unless `quiet` (JSON output), where it only counts.
pub fn bar(len: u64, unit: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{elapsed}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Prints the state of a progress bar as lines on standard error while it lives, when standard
/// error is not a terminal (on a terminal the bar draws itself). Stops when dropped.
pub struct Ticker {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    /// Starts printing `label: pos/len message (N s)` lines for `bar`, unless `quiet` (JSON
    /// output) or standard error is a terminal.
    pub fn start(label: &'static str, bar: &ProgressBar, quiet: bool) -> Ticker {
        let off = quiet || std::io::stderr().is_terminal();
        Ticker::start_every(label, bar, off, EVERY, |l| eprintln!("{l}"))
    }

    fn start_every(
        label: &'static str,
        bar: &ProgressBar,
        off: bool,
        every: Duration,
        sink: impl Fn(String) + Send + 'static,
    ) -> Ticker {
        let stop = Arc::new(AtomicBool::new(false));
        if off {
            return Ticker { stop, thread: None };
        }
        let bar = bar.clone();
        let flag = Arc::clone(&stop);
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let mut next = started + every;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                if Instant::now() < next || flag.load(Ordering::Relaxed) {
                    continue;
                }
                next += every;
                sink(line(label, &bar, started.elapsed()));
            }
        });
        Ticker {
            stop,
            thread: Some(thread),
        }
    }
}

/// One progress line: `bench: 12/140 searches, z80 depth 3 (20 s)`.
fn line(label: &str, bar: &ProgressBar, elapsed: Duration) -> String {
    let count = match bar.length() {
        Some(len) => format!("{}/{len}", bar.position()),
        None => format!("{} steps", bar.position()),
    };
    let message = bar.message();
    let message = if message.is_empty() {
        String::new()
    } else {
        format!(", {message}")
    };
    format!("{label}: {count}{message} ({} s)", elapsed.as_secs())
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_how_far_and_what() {
        let bar = ProgressBar::hidden();
        bar.set_length(140);
        bar.set_position(12);
        bar.set_message("z80 depth 3");
        assert_eq!(
            line("bench", &bar, Duration::from_secs(20)),
            "bench: 12/140, z80 depth 3 (20 s)"
        );
        let spinner = ProgressBar::hidden();
        spinner.set_position(3);
        assert_eq!(
            line("claims", &spinner, Duration::ZERO),
            "claims: 3 steps (0 s)"
        );
    }

    #[test]
    fn a_ticker_prints_lines_until_dropped() {
        let (tx, rx) = std::sync::mpsc::channel();
        let bar = ProgressBar::hidden();
        bar.set_message("measuring");
        let ticker = Ticker::start_every(
            "claims",
            &bar,
            false,
            Duration::from_millis(100),
            move |l| {
                let _ = tx.send(l);
            },
        );
        let first = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(first.starts_with("claims: 0 steps, measuring ("), "{first}");
        drop(ticker);
        // Nothing after the drop (the thread has ended: the sender is gone).
        while rx.recv_timeout(Duration::from_secs(30)).is_ok() {}
        // Off (a terminal, or JSON): no thread, no line.
        let (tx, rx) = std::sync::mpsc::channel();
        let off = Ticker::start_every("x", &bar, true, Duration::from_millis(1), move |l| {
            let _ = tx.send(l);
        });
        assert!(off.thread.is_none());
        drop(off);
        assert!(rx.recv_timeout(Duration::from_millis(50)).is_err());
    }
}
