//! ZEXDOC and ZEXALL, Frank Cringle's Z80 instruction exercisers, through Kempelen's machine.
//!
//! Each exerciser runs every sub-test as its own `#[test]` (the machine's CP/M shim, the
//! sub-test table patched to hold one entry), so a failure names the instruction group.

mod common;

use kempelen_emulator::{RunStats, StopReason, cpm};
use std::time::Instant;

/// Address of the table of sub-test pointers in both exercisers (`LD HL,tests` at $0122).
const TEST_TABLE: usize = 0x013A;

/// Budget for one sub-test; the largest group (`aluop a,<b,c,d,e,h,l,(hl),a>`) needs about 21 billion.
const BUDGET: u64 = 50_000_000_000;

fn exerciser(name: &str) -> Vec<u8> {
    common::crate_file("iz80", "0.5", &format!("tests/res/{name}.com"))
}

/// Runs sub-test `index` of the exerciser `name` (`zexdoc`, `zexall`) and returns its console
/// output and the run's statistics.
fn run_subtest(name: &str, index: usize) -> (String, RunStats) {
    let mut image = exerciser(name);
    let at = TEST_TABLE - cpm::TPA as usize;
    let entry = at + 2 * index;
    let (lo, hi) = (image[entry], image[entry + 1]);
    assert_ne!((lo, hi), (0, 0), "{name} has no sub-test {index}");
    image[at..at + 4].copy_from_slice(&[lo, hi, 0, 0]);
    let mut m = cpm::builder(&image).build().expect("CP/M machine");
    let stats = m
        .run(BUDGET)
        .unwrap_or_else(|e| panic!("{name} sub-test {index}: {e}"));
    assert_eq!(stats.stop, StopReason::HostDone, "{name} ends by warm boot");
    let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
    (out, stats)
}

/// Prints every sub-test's cycles, instructions and time: the source of the tables below.
/// `ZEX=zexall cargo test -p kempelen-emulator --test zex -- --ignored --nocapture survey`
#[test]
#[ignore = "survey for the tables: about two minutes"]
fn survey() {
    let name = std::env::var("ZEX").unwrap_or_else(|_| "zexdoc".to_string());
    let mut total = 0;
    for i in 0..67 {
        let t = Instant::now();
        let (out, stats) = run_subtest(&name, i);
        total += stats.cycles;
        let line = out.lines().nth(1).unwrap_or("").to_string();
        println!(
            "{i:2} {:>14} cycles {:>12} instr {:6.2} s  {}",
            stats.cycles,
            stats.instructions,
            t.elapsed().as_secs_f64(),
            line.trim()
        );
    }
    println!("total {total}");
}
