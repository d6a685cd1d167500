//! Assembly speed on a generated 20,000-line source per CPU (`cargo bench -p kempelen-asm`).
//! Criterion reports the throughput in lines (elements) per second.
//!
//! The sources look like real programs: a routine every ten lines with a local loop label,
//! calls to routines further down (forward references, so at least two passes), indexed and
//! immediate operands with expressions, data lines with strings, and comments.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kempelen_asm::{Cpu, assemble_source};

const LINES: usize = 20_000;

/// `header`, then routines of ten lines each (`routine(k, n)`: routine `k`, which calls
/// `k + 1`, with `n = k % 100` in its operands) up to about [`LINES`] lines, then `last(k)`:
/// the last routine and the data.
fn source(
    header: &str,
    routine: impl Fn(usize, usize) -> String,
    last: impl Fn(usize) -> String,
) -> String {
    let mut s = String::from(header);
    let mut lines = 3;
    let mut k = 0;
    while lines < LINES {
        s += &routine(k, k % 100);
        lines += 10;
        k += 1;
    }
    s + &last(k)
}

fn z80_source() -> String {
    source(
        "        org $0100\nCOUNT   equ 10\ntable:  ds 16\n",
        |k, n| {
            format!(
                "routine{k}:\n@loop:  ld b,COUNT\n        ld a,(ix+{n})\n        ld hl,table+{n}*2\n        add a,b\n        ; keep the loop going\n        ld (iy-{n}),a\n        bit {},(hl)\n        jr nz,@loop\n        call routine{}\n",
                k % 8,
                k + 1
            )
        },
        |k| format!("routine{k}:\n        ret\n        db \"end\",0\n"),
    )
}

fn mos6502_source() -> String {
    source(
        "        .org $0800\nptr = $10\ncount = 10\n",
        |k, n| {
            format!(
                "routine{k}:\n        ldx #count\n@loop:  lda table+{n},x\n        sta ptr\n        ; keep the loop going\n        lda (ptr),y\n        adc #<({n}*3)\n        dex\n        bne @loop\n        jsr routine{}\n",
                k + 1
            )
        },
        |k| format!("routine{k}:\n        rts\ntable:  .byte \"end\",0\n"),
    )
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("assemble");
    for (cpu, source) in [(Cpu::Z80, z80_source()), (Cpu::Mos6502, mos6502_source())] {
        let lines = source.lines().count();
        // The benchmark only means something if the source assembles.
        let check = assemble_source(cpu, "bench.asm", &source);
        assert!(check.is_ok(), "{}", check.report());
        group.throughput(Throughput::Elements(lines as u64));
        group.bench_function(format!("{cpu} {lines} lines"), |b| {
            b.iter(|| assemble_source(cpu, "bench.asm", black_box(&source)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
