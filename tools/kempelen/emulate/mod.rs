//! Assemble and emulate: the cross-assembler and disassembler (`asm`, `disasm`), a program in
//! Kempelen's machine (`run`), and the tables the 8-bit ports share with the native engine
//! (`gen-tables`).

pub mod asm;
pub mod gen_tables;
pub mod run;
