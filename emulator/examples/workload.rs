//! Runs one benchmark workload once, bare or through the machine, for deterministic
//! measurements of the host's work with an instruction counter:
//!
//! ```text
//! cargo build --release -p kempelen-emulator --example workload
//! valgrind --tool=callgrind target/release/examples/workload machine z80
//! ```
//!
//! `cargo bench` times the same runs; this binary exists because timing on a shared machine is
//! noisy, while callgrind's instruction count of a run is the same every time.

use kempelen_emulator::bench::{MOS6502_SIEVE, Z80_SIEVE, run_bare, run_machine};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (layer, cpu) = match args.as_slice() {
        [layer, cpu] => (layer.as_str(), cpu.as_str()),
        _ => {
            eprintln!("usage: workload bare|machine z80|6502");
            std::process::exit(2);
        }
    };
    let workload = match cpu {
        "z80" => &Z80_SIEVE,
        "6502" => &MOS6502_SIEVE,
        _ => {
            eprintln!("unknown CPU `{cpu}` (z80 or 6502)");
            std::process::exit(2);
        }
    };
    let outcome = match layer {
        "bare" => run_bare(workload),
        "machine" => run_machine(workload),
        _ => {
            eprintln!("unknown layer `{layer}` (bare or machine)");
            std::process::exit(2);
        }
    };
    println!(
        "{}: {} cycles, result {}",
        workload.name, outcome.cycles, outcome.result
    );
}
