//! `cargo bench -p kempelen-emulator`: emulated MHz of both CPUs through Kempelen's machine
//! layer beside the bare crates on the same workload, in the same run, and the machine layer's
//! overhead. Wall-clock figures are noisy on a shared machine: each figure is the best of
//! several runs.

use kempelen_emulator::bench::{
    MOS6502_SIEVE, Workload, Z80_SIEVE, best_of, run_bare, run_machine,
};

const REPEATS: usize = 7;

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then run once, quickly.
    let repeats = if std::env::args().any(|a| a == "--bench") {
        REPEATS
    } else {
        1
    };
    println!(
        "{:<26} {:>14} {:>11} {:>13} {:>9}",
        "workload", "cycles", "bare MHz", "machine MHz", "overhead"
    );
    for w in [&Z80_SIEVE, &MOS6502_SIEVE] {
        report(w, repeats);
    }
}

fn report(w: &Workload, repeats: usize) {
    // Interleave the two so load changes on the machine hit both alike.
    let mut bare = Vec::new();
    let mut machine = Vec::new();
    for _ in 0..repeats {
        bare.push(run_bare(w));
        machine.push(run_machine(w));
    }
    let b = best_of(1, || *bare.iter().min_by_key(|m| m.elapsed).unwrap());
    let m = best_of(1, || *machine.iter().min_by_key(|m| m.elapsed).unwrap());
    assert_eq!(
        b.cycles, m.cycles,
        "bare crate and machine disagree on cycles"
    );
    assert_eq!(
        (b.result, m.result),
        (1899, 1899),
        "the sieve finds 1899 primes"
    );
    let overhead = (m.elapsed.as_secs_f64() / b.elapsed.as_secs_f64() - 1.0) * 100.0;
    println!(
        "{:<26} {:>14} {:>11.1} {:>13.1} {:>8.1} %",
        w.name,
        b.cycles,
        b.mhz(),
        m.mhz(),
        overhead
    );
}
