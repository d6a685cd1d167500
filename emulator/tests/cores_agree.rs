//! The two Z80 cores agree: the same program on the `z80` crate (the default, fast) and on
//! `rustzx-z80` (used for traces, because it shows every register) leaves identical memory
//! after identical cycle and instruction counts.
//!
//! Programs: the benchmark sieve, and ZEXDOC sub-tests covering loads, index-register
//! arithmetic, bit operations, rotates and block instructions (each compares its CRC over
//! thousands of machine states, so identical final memory means identical results).

mod common;

use kempelen_emulator::bench::Z80_SIEVE;
use kempelen_emulator::{CoreKind, Cpu, MachineBuilder, RunStats, StopReason, cpm};

/// Runs the program from `builder` on `core`; returns the statistics and all 64 KB.
fn run_on(builder: MachineBuilder, core: CoreKind) -> (RunStats, Vec<u8>) {
    let mut m = builder.core(core).build().expect("machine");
    let stats = m
        .run(10_000_000_000)
        .unwrap_or_else(|e| panic!("{core:?}: {e}"));
    assert_eq!(stats.stop, StopReason::HostDone);
    (stats, m.read_bytes(0, 0x10000))
}

fn assert_agree(what: &str, builder: MachineBuilder) {
    let (fast, fast_mem) = run_on(builder.clone(), CoreKind::Z80);
    let (zx, zx_mem) = run_on(builder, CoreKind::RustzxZ80);
    assert_eq!(fast.cycles, zx.cycles, "{what}: cycles");
    assert_eq!(fast.instructions, zx.instructions, "{what}: instructions");
    let differ: Vec<usize> = (0..0x10000).filter(|&a| fast_mem[a] != zx_mem[a]).collect();
    assert!(
        differ.is_empty(),
        "{what}: memory differs at {} addresses, first ${:04X}",
        differ.len(),
        differ[0]
    );
}

#[test]
fn sieve() {
    let w = Z80_SIEVE;
    assert_agree(
        "sieve",
        MachineBuilder::new(Cpu::Z80).load(w.origin, w.code),
    );
}

/// ZEXDOC with its sub-test table patched to run sub-test `index` only.
fn zexdoc_subtest(index: usize) -> MachineBuilder {
    let mut image = common::crate_file("iz80", "0.5", "tests/res/zexdoc.com");
    let at = 0x013A - 0x0100 + 2 * index;
    let (lo, hi) = (image[at], image[at + 1]);
    image[0x3A..0x3E].copy_from_slice(&[lo, hi, 0, 0]);
    cpm::builder(&image)
}

macro_rules! zexdoc_agree {
    ($($name:ident = $index:literal;)*) => {
        $(
            #[test]
            fn $name() {
                assert_agree(stringify!($name), zexdoc_subtest($index));
            }
        )*
    };
}

zexdoc_agree! {
    zexdoc_bitx = 8;
    zexdoc_ld161 = 32;
    zexdoc_ld16ix = 41;
    zexdoc_ld8bd = 42;
    zexdoc_ld8ix1 = 45;
    zexdoc_ld8ixy = 48;
    zexdoc_lda = 51;
    zexdoc_ldd1 = 52;
    zexdoc_ldi2 = 55;
    zexdoc_rotxy = 59;
    zexdoc_srzx = 62;
    zexdoc_st8ix1 = 63;
    zexdoc_stabd = 66;
}
