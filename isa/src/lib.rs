//! What Kempelen's assembler and its emulated machine agree on, below both: the CPUs
//! ([`Cpu`]), the instruction tables (one per instruction set, shared by the assembler, the
//! disassembler and the emulator's tracer), decoding ([`disasm`]), the symbol file the
//! assembler writes and the profiler and tracer read ([`symbols`]), and the source map that
//! gives a debugger the source line of each address ([`source_map`]).
//!
//! Each table is written so that it can be read side by side with the datasheet: the Z80 table
//! in [`z80`] has one block per prefix group (unprefixed, `CB`, `ED`, `DD`/`FD`, `DDCB`/`FDCB`),
//! the 6502 table in [`mos6502`] is the 16x16 opcode grid. Both are parsed once into a list of
//! [`Instr`] rows; everything else (encoding, decoding, listings, cycle counts) reads those rows.
//!
//! ```
//! use kempelen_isa::{Cpu, decode};
//!
//! let bne = decode(Cpu::Mos6502, &[0xD0, 0xFD], 0x0601).unwrap();
//! assert_eq!((bne.text().as_str(), bne.cycles.to_string().as_str()), ("BNE $0600", "2/3/4"));
//! ```

mod cpu;
mod dialect;
pub mod disasm;
pub mod files;
pub mod hash;
mod lookup;
pub mod mos6502;
mod overlap;
mod row;
pub mod source_map;
pub mod symbols;
pub mod tdl;
pub mod z80;

pub use cpu::{Cpu, UnknownCpu};
pub use dialect::Dialect;
pub use disasm::{DecodeError, Decoded, decode, decode_with, disassemble, hex_bytes};
pub use lookup::{forms, instructions, is_mnemonic, mnemonics, rows, with_upper};
pub use overlap::Overlap;
pub use row::{CycleExtra, Cycles, Form, Instr};
pub use source_map::{SourceLine, SourceMap};
pub use symbols::{SymbolKind, SymbolTable};
