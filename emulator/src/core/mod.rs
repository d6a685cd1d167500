//! CPU cores behind one narrow trait.
//!
//! Kempelen does not emulate CPUs itself: it wraps well-tested crates and gives them one face,
//! [`Core`], so the machine, the tracer and the profiler never care which CPU runs.
//!
//! | core | crate | CPU | registers visible |
//! |---|---|---|---|
//! | [`Z80Core`] | `z80` (fast, passes ZEXDOC/ZEXALL) | Z80 | PC, SP, IX, IY, I, R, IFFs, IM (A, F, BC, DE, HL are private to the crate) |
//! | [`RustzxCore`] | `rustzx-z80` | Z80 | all |
//! | [`Mos6502Core`] | `mos6502`, NMOS variant | 6502 | all |
//! | [`Cmos65c02Core`] | `mos6502`, `W65C02S` variant | 65C02 (WDC W65C02S) | all |
//!
//! The machine runs Z80 programs on [`Z80Core`] by default and switches to [`RustzxCore`] when
//! a trace must show every register; `tests/cores_agree.rs` proves both give the same memory and
//! the same cycle totals.

mod interface;
mod mos6502;
mod rustzx;
mod z80;

pub use self::interface::{
    Core, Flag, Mos6502Registers, RegisterValue, Registers, Z80MainRegisters, Z80Registers,
};
pub use self::mos6502::{Cmos65c02Core, Family, Mos6502Core};
pub use self::rustzx::RustzxCore;
pub use self::z80::Z80Core;
