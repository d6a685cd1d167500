//! Kempelen's cross-assembler and disassembler for the Z80 and the NMOS 6502.
//!
//! - [`isa`]: one instruction table per CPU, shared by the assembler, the disassembler and the
//!   emulator's tracer (the crate `kempelen-isa`, below both the assembler and the emulator).
//! - [`disasm`]: decode one instruction (length, text, cycles) or a whole buffer (`kempelen-isa`).
//! - [`symbols`]: the symbol file the assembler writes and the profiler and tracer read
//!   (`kempelen-isa`).
//! - [`assemble`](mod@assemble): the assembler (sources through [`source::SourceProvider`], outputs an
//!   [`Image`], a [`listing::Listing`], a [`SymbolTable`] and [`diag::Diagnostic`]s).
//!
//! The syntax, the directives and the diagnostics are described in `docs/ASSEMBLER.md`.
//!
//! ```
//! use kempelen_asm::{Cpu, assemble_source, decode};
//!
//! let out = assemble_source(Cpu::Mos6502, "loop.asm", "        .org $0600\n@l:     dex\n        bne @l\n");
//! assert!(out.is_ok(), "{}", out.report());
//! assert_eq!(out.image.bytes, [0xCA, 0xD0, 0xFD]);
//!
//! let bne = decode(Cpu::Mos6502, &out.image.bytes[1..], 0x0601).unwrap();
//! assert_eq!((bne.text().as_str(), bne.cycles.to_string().as_str()), ("BNE $0600", "2/3/4"));
//!
//! let bad = assemble_source(Cpu::Z80, "bad.asm", "        jr nowhere\n");
//! assert_eq!(bad.report().lines().next(), Some("bad.asm:1:12: error: undefined symbol 'nowhere'"));
//! ```

pub mod assemble;
pub mod diag;
mod expr;
pub mod listing;
mod parse;
pub mod source;

pub use assemble::{Assembly, Dialect, Image, Options, Overlap, assemble, assemble_source};
pub use kempelen_isa as isa;
pub use kempelen_isa::{
    Cpu, CycleExtra, Cycles, DecodeError, Decoded, Instr, SymbolKind, SymbolTable, UnknownCpu,
    decode, decode_with, disasm, disassemble, symbols,
};

#[cfg(test)]
mod tests {
    /// Results can be sent to and shared between threads (tests and the ROM glue assemble in
    /// parallel).
    #[test]
    fn outputs_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<crate::Assembly>();
        check::<crate::Decoded>();
        check::<crate::SymbolTable>();
    }
}
