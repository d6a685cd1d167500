//! The rules the machine applies to each CPU's instructions: which opcodes it refuses or stops
//! at, which instructions may jump to themselves, which repeat in place, and (6502) which must
//! run with every bus access checked. One module per CPU ([`z80`], [`mos6502`]); this module
//! holds what both share: the opcode classes and the dispatch on the CPU.
//!
//! The bus marks instructions for the step loop's slow path with `needs_check`; the builder
//! makes the class table once per machine with `class_table`. Neither the bus nor the step
//! loop knows an opcode by itself.

pub mod mos6502;
pub mod z80;

use crate::Cpu;

pub use self::mos6502::is_documented_6502;
pub use self::z80::is_defined_z80_ed;

/// Opcode classes for the pre-check before each instruction.
pub(crate) mod class {
    /// Nothing to check.
    pub const PLAIN: u8 = 0;
    /// Z80 `HALT`: stop.
    pub const HALT: u8 = 1;
    /// Z80 `ED` prefix: check the second byte.
    pub const ED: u8 = 2;
    /// 6502 `BRK`: stop.
    pub const BRK: u8 = 3;
    /// Refused opcode.
    pub const ILLEGAL: u8 = 4;
    /// 6502: an opcode that may read outside plain memory other than through its decoded
    /// address (pointers, stack, vectors): run it with every access checked.
    pub const CAREFUL: u8 = 5;
    /// 65C02 `WAI`: run it (with every access checked, so the interrupt is served after it)
    /// when an interrupt is pending, else stop.
    pub const WAI: u8 = 6;
    /// 65C02 `STP`: stop.
    pub const STP: u8 = 7;
}

/// The builder's choices about opcodes, in a module of their own so that the per-CPU modules
/// and this one both use it without using each other.
pub(crate) mod choices {
    /// What a machine's builder chose about the opcodes it refuses or stops at (the 6502's; the
    /// Z80's rules have no choices).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) struct OpcodeRules {
        /// Undocumented opcodes run (default: they stop the run as illegal).
        pub allow_undocumented: bool,
        /// `BRK` ends the run (the default) rather than going through the IRQ vector.
        pub stop_on_brk: bool,
    }

    impl Default for OpcodeRules {
        fn default() -> Self {
            OpcodeRules {
                allow_undocumented: false,
                stop_on_brk: true,
            }
        }
    }
}

pub(crate) use self::choices::OpcodeRules;

/// Whether the instruction at `a` needs the step loop's slow path (`attr::CHECK`): its
/// opcode is to be checked before it runs (a class other than plain; a Z80 `ED` prefix only
/// when the second byte makes it illegal), or it may jump to itself (see
/// [`z80::may_jump_to_itself`] and [`mos6502::may_jump_to_itself`]). The jump-to-itself test
/// runs only on the instructions marked here, so the marks must cover every instruction that
/// can leave PC and SP as they were.
pub(crate) fn needs_check(cpu: Cpu, class: &[u8; 256], mem: &[u8; 0x10000], a: u16) -> bool {
    let byte = |d: u16| mem[usize::from(a.wrapping_add(d))];
    match class[usize::from(byte(0))] {
        class::PLAIN => {}
        class::ED if is_defined_z80_ed(byte(1)) => {}
        _ => return true,
    }
    match cpu {
        Cpu::Z80 => z80::may_jump_to_itself(byte, a),
        Cpu::Mos6502 | Cpu::Cmos65c02 => mos6502::may_jump_to_itself(cpu, byte, a),
    }
}

/// The opcode classes of a machine for `cpu`, whose pages `plain` reports plain memory (see
/// [`crate::Bus::plain_page`]).
pub(crate) fn class_table(cpu: Cpu, rules: OpcodeRules, plain: impl Fn(u8) -> bool) -> [u8; 256] {
    match cpu {
        Cpu::Z80 => z80::class_table(),
        Cpu::Mos6502 | Cpu::Cmos65c02 => mos6502::class_table(cpu, rules, plain),
    }
}

/// Instructions whose PC stays put while they make progress (not jumps to themselves).
#[inline(always)]
pub(crate) fn repeats_in_place(cpu: Cpu, op: u8) -> bool {
    cpu == Cpu::Z80 && z80::repeats_in_place(op)
}
