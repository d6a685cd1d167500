//! Runs one benchmark workload once, bare or through the machine, for deterministic
//! measurements of the host's work with an instruction counter:
//!
//! ```text
//! cargo build --release -p kempelen-emulator --example workload
//! valgrind --tool=callgrind target/release/examples/workload machine z80
//! valgrind --tool=callgrind target/release/examples/workload machine z80 zx-spectrum/48k
//! ```
//!
//! A third argument, `MACHINE/MODEL`, runs the machine under that timing model.
//!
//! `cargo bench` times the same runs; this binary exists because timing on a shared machine is
//! noisy, while callgrind's instruction count of a run is the same every time.

use kempelen_emulator::bench::{MOS6502_SIEVE, Z80_SIEVE, run_bare, run_with};
use kempelen_emulator::timing::Timing;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (layer, cpu, model) = match args.as_slice() {
        [layer, cpu] => (layer.as_str(), cpu.as_str(), None),
        [layer, cpu, model] => (layer.as_str(), cpu.as_str(), Some(model.as_str())),
        _ => {
            eprintln!("usage: workload bare|machine|rustzx z80|6502 [MACHINE/MODEL]");
            std::process::exit(2);
        }
    };
    let model = model.map(|m| {
        let (machine, id) = m.split_once('/').unwrap_or((m, "machine"));
        match Timing::parse(id).model_for(machine) {
            Ok(Some(model)) => model,
            Ok(None) => {
                eprintln!("{machine} has no timing model");
                std::process::exit(2);
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    });
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
        "machine" => run_with(workload, model, None).0,
        // The Z80 on the core that per-access models run on, without a model.
        "rustzx" => {
            run_with(
                workload,
                model,
                Some(kempelen_emulator::CoreKind::RustzxZ80),
            )
            .0
        }
        _ => {
            eprintln!("unknown layer `{layer}` (bare, machine or rustzx)");
            std::process::exit(2);
        }
    };
    println!(
        "{}: {} cycles, result {}",
        workload.name, outcome.cycles, outcome.result
    );
}
