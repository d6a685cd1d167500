//! `cargo bench -p kempelen-emulator`: emulated MHz of both CPUs through Kempelen's machine
//! layer beside the bare crates (`z80`, `mos6502`) on the same workload, in the same run, and
//! the machine layer's overhead.
//!
//! Time is the CPU time of the benchmark thread (Linux `/proc/thread-self/schedstat`, in
//! nanoseconds), so time the thread spends waiting for a core while other jobs run does not
//! count; elsewhere it falls back to wall time. Bare and machine runs alternate, and each
//! figure is the best of the repetitions. Other jobs still slow both down (shared caches), so
//! the load average is printed with the table. For figures that do not depend on the load,
//! count host instructions with `valgrind --tool=callgrind` on the `workload` example (see
//! `docs/MACHINE.md`).

use kempelen_emulator::bench::{
    MOS6502_SIEVE, Outcome, Workload, Z80_SIEVE, run_bare, run_machine,
};
use std::time::{Duration, Instant};

const REPEATS: usize = 9;

/// CPU time of this thread, if the host reports it.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs `f` and returns its outcome and the time it took.
fn timed(f: impl FnOnce() -> Outcome) -> (Outcome, Duration) {
    let (cpu, wall) = (thread_cpu_time(), Instant::now());
    let out = f();
    let time = match (cpu, thread_cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed(),
    };
    (out, time)
}

fn mhz(cycles: u64, time: Duration) -> f64 {
    cycles as f64 / time.as_secs_f64() / 1e6
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then run once, quickly.
    let repeats = if std::env::args().any(|a| a == "--bench") {
        REPEATS
    } else {
        1
    };
    let clock = if thread_cpu_time().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    println!("emulated MHz, best of {repeats} runs ({clock}), {}", load());
    println!(
        "{:<26} {:>12} {:>10} {:>12} {:>9}",
        "workload", "cycles", "bare MHz", "machine MHz", "overhead"
    );
    // Other arguments that are not options pick workloads by part of their name
    // (`cargo bench -p kempelen-emulator -- Z80`).
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for w in [&Z80_SIEVE, &MOS6502_SIEVE] {
        if filters.is_empty() || filters.iter().any(|f| w.name.contains(f.as_str())) {
            report(w, repeats);
        }
    }
    println!("{}", load());
}

/// The host's load average and core count, where the host reports them.
fn load() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    match std::fs::read_to_string("/proc/loadavg") {
        Ok(text) => {
            let avg = text.split_whitespace().next().unwrap_or("?");
            format!("load average {avg} on {cores} cores")
        }
        Err(_) => format!("{cores} cores"),
    }
}

fn report(w: &Workload, repeats: usize) {
    let mut bare = Duration::MAX;
    let mut machine = Duration::MAX;
    let mut cycles = 0;
    for _ in 0..repeats {
        let (b, tb) = timed(|| run_bare(w));
        let (m, tm) = timed(|| run_machine(w));
        assert_eq!(
            b.cycles, m.cycles,
            "bare crate and machine disagree on cycles"
        );
        assert_eq!(
            (b.result, m.result),
            (1899, 1899),
            "the sieve finds 1899 primes"
        );
        cycles = b.cycles;
        bare = bare.min(tb);
        machine = machine.min(tm);
    }
    let overhead = (machine.as_secs_f64() / bare.as_secs_f64() - 1.0) * 100.0;
    println!(
        "{:<26} {:>12} {:>10.1} {:>12.1} {:>8.1} %",
        w.name,
        cycles,
        mhz(cycles, bare),
        mhz(cycles, machine),
        overhead
    );
}
