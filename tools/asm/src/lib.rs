//! Kempelen's cross-assembler and disassembler for the Z80 and the NMOS 6502.
//!
//! - [`isa`]: one instruction table per CPU, shared by the assembler, the disassembler and the
//!   emulator's tracer.
//! - [`disasm`]: decode one instruction (length, text, cycles) or a whole buffer.
//! - [`symbols`]: the symbol file the assembler writes and the profiler and tracer read.
//! - [`assemble`]: the assembler (sources through [`source::SourceProvider`], outputs an
//!   [`Image`], a [`listing::Listing`], a [`SymbolTable`] and [`diag::Diagnostic`]s).

pub mod assemble;
mod cpu;
pub mod diag;
pub mod disasm;
mod expr;
pub mod isa;
pub mod listing;
mod parse;
pub mod source;
pub mod symbols;

pub use assemble::{Assembly, Image, Options, assemble, assemble_source};
pub use cpu::{Cpu, UnknownCpu};
pub use disasm::{DecodeError, Decoded, decode, decode_with, disassemble};
pub use isa::{CycleExtra, Cycles, Instr};
pub use symbols::{SymbolKind, SymbolTable};
