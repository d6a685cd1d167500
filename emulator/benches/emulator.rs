//! `cargo bench -p kempelen-emulator`: emulated MHz of both CPUs through Kempelen's machine
//! layer beside the bare crates (`z80`, `mos6502`) on the same workload, in the same run, and
//! the machine layer's overhead.
//!
//! Time is the CPU time of the benchmark thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`,
//! which the kernel brings up to date when it is read, to the nanosecond), so time the thread
//! spends waiting for a core while other jobs run does not count; where there is no such
//! clock it falls back to wall time. (`/proc/thread-self/schedstat`, read before, advances
//! only at the scheduler's tick, 4 ms here: a 6502 run of 0.2 s could only come out in steps
//! of 2 %.) Bare and machine runs alternate, and each
//! figure is the best of the repetitions. Other jobs still slow both down (shared caches), so
//! the load average is printed with the table. For figures that do not depend on the load,
//! count host instructions with `valgrind --tool=callgrind` on the `workload` example (see
//! `docs/MACHINE.md`).

use kempelen_emulator::CoreKind;
use kempelen_emulator::bench::{
    MOS6502_SIEVE, Outcome, Workload, Z80_SIEVE, models_for, run_bare, run_machine, run_with,
};
use std::time::{Duration, Instant};

const REPEATS: usize = 9;

/// CPU time of this thread, if the host reports it.
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the call writes nothing else.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (r == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

/// CPU time of this thread: not available here, so the benchmark uses wall time.
#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
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
    let picked: Vec<&Workload> = [&Z80_SIEVE, &MOS6502_SIEVE]
        .into_iter()
        .filter(|w| filters.is_empty() || filters.iter().any(|f| w.name.contains(f.as_str())))
        .collect();
    for w in &picked {
        report(w, repeats);
    }
    println!();
    println!(
        "timing models: emulated MHz under each model, its cost over the machine without one \
         (the same workload, cycles and core), and the machine's time over the CPU clock's"
    );
    println!(
        "{:<26} {:<24} {:>11} {:>12} {:>8} {:>10}",
        "workload", "model", "core", "machine MHz", "cost", "time x"
    );
    for w in &picked {
        report_models(w, repeats);
    }
    println!("{}", load());
}

/// Emulated MHz of `w` on `core` under `model` (or none), best of `repeats`, with the
/// model's ticks.
fn best(
    w: &Workload,
    model: Option<&'static kempelen_emulator::TimingModel>,
    core: Option<CoreKind>,
    repeats: usize,
) -> (f64, u64, Option<u64>) {
    let mut t = Duration::MAX;
    let mut cycles = 0;
    let mut ticks = None;
    for _ in 0..repeats {
        let ((out, k), d) = {
            let (cpu, wall) = (thread_cpu_time(), Instant::now());
            let r = run_with(w, model, core);
            let d = match (cpu, thread_cpu_time()) {
                (Some(a), Some(b)) => b - a,
                _ => wall.elapsed(),
            };
            (r, d)
        };
        assert_eq!(out.result, 1899, "the sieve finds 1899 primes");
        cycles = out.cycles;
        ticks = k;
        t = t.min(d);
    }
    (mhz(cycles, t), cycles, ticks)
}

/// Each model's cost: the run under it against the run without one on the same core (the
/// `rustzx-z80` core for the Z80 models that need every access, which the table also shows
/// without a model).
fn report_models(w: &Workload, repeats: usize) {
    let (plain, cycles, _) = best(w, None, None, repeats);
    println!(
        "{:<26} {:<24} {:>11} {:>12.1} {:>8} {:>10}",
        w.name,
        "none",
        CoreKind::default_for(w.cpu).name(),
        plain,
        "",
        "1.000"
    );
    let rustzx = (w.cpu == kempelen_emulator::Cpu::Z80)
        .then(|| best(w, None, Some(CoreKind::RustzxZ80), repeats).0);
    if let Some(r) = rustzx {
        println!(
            "{:<26} {:<24} {:>11} {:>12.1} {:>7.1} % {:>10}",
            w.name,
            "none",
            CoreKind::RustzxZ80.name(),
            r,
            (plain / r - 1.0) * 100.0,
            "1.000"
        );
    }
    for model in models_for(w.cpu) {
        let (core, base) = if model.per_access() {
            (CoreKind::RustzxZ80, rustzx.unwrap_or(plain))
        } else {
            (CoreKind::default_for(w.cpu), plain)
        };
        let (m, c, ticks) = best(w, Some(model), None, repeats);
        assert_eq!(c, cycles, "a model changes no CPU cycle");
        let ticks = ticks.expect("a timed run");
        let stretch = ticks as f64 / (cycles * u64::from(model.cycle_ticks)) as f64;
        println!(
            "{:<26} {:<24} {:>11} {:>12.1} {:>7.1} % {:>10.3}",
            w.name,
            model.full_id(),
            core.name(),
            m,
            (base / m - 1.0) * 100.0,
            stretch
        );
    }
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
