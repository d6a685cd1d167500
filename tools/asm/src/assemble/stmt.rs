//! Statements: a parsed line, classified once per file and reused by every pass.

use crate::Cpu;
use crate::expr::{Expr, Span};
use crate::isa::{self, Form, mos6502::Mode};
use crate::parse::{self, MosArg, SyntaxError, Z80Arg};

/// The directives. Every name is accepted with or without a leading dot, in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    Org,
    Byte,
    Word,
    Space,
    Equ,
    Include,
    Incbin,
    If,
    IfDef,
    IfNDef,
    Else,
    EndIf,
    Align,
    Macro,
    EndMacro,
    End,
    Error,
    /// `PAGE`: a listing page break (with optional page size); no bytes.
    Page,
    /// `CPU name` / `.SETCPU "name"`: the source names its instruction set; it must be the
    /// one being assembled.
    CpuCheck,
    /// `.EXPORT`: names visible to other modules. Every symbol is in the symbol file, so this
    /// changes nothing here.
    Export,
    /// `.IMPORT`: names defined in another module; Kempelen links no modules, so an imported
    /// name must still be defined in this program.
    Import,
    /// `.FEATURE name`: a ca65 syntax switch.
    Feature,
    /// `.SEGMENT "name"`: a ca65 linker segment (refused: placement needs ld65's linker
    /// configuration).
    Segment,
}

/// Directive spellings, for lookup and for "did you mean" suggestions.
pub(crate) const DIRECTIVES: &[(&str, Dir)] = &[
    ("ORG", Dir::Org),
    ("*=", Dir::Org),
    ("DB", Dir::Byte),
    ("DEFB", Dir::Byte),
    ("DEFM", Dir::Byte),
    ("BYTE", Dir::Byte),
    ("DW", Dir::Word),
    ("DEFW", Dir::Word),
    ("WORD", Dir::Word),
    ("DS", Dir::Space),
    ("DEFS", Dir::Space),
    ("RES", Dir::Space),
    ("EQU", Dir::Equ),
    ("=", Dir::Equ),
    ("INCLUDE", Dir::Include),
    ("INCBIN", Dir::Incbin),
    ("IF", Dir::If),
    ("IFDEF", Dir::IfDef),
    ("IFNDEF", Dir::IfNDef),
    ("ELSE", Dir::Else),
    ("ENDIF", Dir::EndIf),
    ("ALIGN", Dir::Align),
    ("MACRO", Dir::Macro),
    ("ENDM", Dir::EndMacro),
    ("ENDMACRO", Dir::EndMacro),
    ("END", Dir::End),
    ("ERROR", Dir::Error),
    ("ASC", Dir::Byte),
    ("PAGE", Dir::Page),
    ("CPU", Dir::CpuCheck),
    ("SETCPU", Dir::CpuCheck),
    ("EXPORT", Dir::Export),
    ("EXPORTZP", Dir::Export),
    ("GLOBAL", Dir::Export),
    ("GLOBALZP", Dir::Export),
    ("IMPORT", Dir::Import),
    ("IMPORTZP", Dir::Import),
    ("FEATURE", Dir::Feature),
    ("SEGMENT", Dir::Segment),
];

/// The directive `name` spells, if any. A mnemonic wins over an undotted directive of the same
/// name (`RES` is a Z80 instruction; the ca65 directive is written `.RES`).
pub(crate) fn directive_for(cpu: Cpu, name: &str) -> Option<Dir> {
    if !name.starts_with('.') && isa::is_mnemonic(cpu, name) {
        return None;
    }
    directive(name)
}

fn directive(name: &str) -> Option<Dir> {
    let bare = name.strip_prefix('.').unwrap_or(name);
    DIRECTIVES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(bare))
        .map(|&(_, d)| d)
}

/// Whether a word in column 1 is an operation rather than a label. A word with a leading dot
/// cannot be a symbol, so it is always an operation (a directive, or an unknown one that gets
/// its own error).
pub(crate) fn is_operation(cpu: Cpu, word: &str) -> bool {
    word.starts_with('.') || directive(word).is_some() || isa::is_mnemonic(cpu, word)
}

/// A directive operand: parsed as a string or an expression up front, with its raw text for
/// directives that take names or file names.
#[derive(Clone, Debug)]
pub(crate) struct DirArg {
    pub raw: String,
    pub span: Span,
    pub value: Result<DirValue, SyntaxError>,
}

#[derive(Clone, Debug)]
pub(crate) enum DirValue {
    Str(Vec<u8>),
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub(crate) enum Operands {
    Z80(Vec<(Z80Arg, Span)>),
    Mos6502(MosArg),
}

#[derive(Clone, Debug)]
pub(crate) enum Body {
    Empty,
    Instr {
        mnemonic: String,
        span: Span,
        operands: Result<Operands, SyntaxError>,
        operands_span: Span,
    },
    Dir {
        dir: Dir,
        span: Span,
        args: Vec<DirArg>,
        operands_span: Span,
    },
    /// A word that is neither mnemonic nor directive: a macro call, or an unknown mnemonic.
    Call {
        name: String,
        span: Span,
        args: Vec<(String, Span)>,
    },
    Error(SyntaxError),
}

#[derive(Clone, Debug)]
pub(crate) struct Stmt {
    pub label: Option<(String, Span)>,
    pub body: Body,
}

impl Stmt {
    pub fn directive(&self) -> Option<Dir> {
        match self.body {
            Body::Dir { dir, .. } => Some(dir),
            _ => None,
        }
    }
}

fn dir_value(text: &str, span: Span) -> Result<DirValue, SyntaxError> {
    if let Some(body) = parse::string_literal(text) {
        return Ok(DirValue::Str(body.as_bytes().to_vec()));
    }
    parse::parse_expr(text, span.start as usize).map(DirValue::Expr)
}

/// Parses and classifies one line.
pub(crate) fn parse_line(cpu: Cpu, text: &str) -> Stmt {
    let raw = parse::split_line(text, &|w| is_operation(cpu, w));
    let label = raw.label.map(|(name, span)| (name.to_string(), span));
    if let Some(e) = raw.error {
        return Stmt {
            label,
            body: Body::Error(e),
        };
    }
    let Some((op, op_span)) = raw.op else {
        return Stmt {
            label,
            body: Body::Empty,
        };
    };
    let body = if let Some(dir) = directive_for(cpu, op) {
        let args = raw
            .args
            .iter()
            .map(|&(text, span)| DirArg {
                raw: text.to_string(),
                span,
                value: dir_value(text, span),
            })
            .collect();
        Body::Dir {
            dir,
            span: op_span,
            args,
            operands_span: raw.operands_span,
        }
    } else if isa::is_mnemonic(cpu, op) {
        let operands = match cpu {
            Cpu::Z80 => raw
                .args
                .iter()
                .map(|&(text, span)| {
                    parse::parse_z80_arg(text, span.start as usize).map(|a| (a, span))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Operands::Z80),
            Cpu::Mos6502 | Cpu::Cmos65c02 => {
                let bit_branch = isa::with_upper(op, |upper| {
                    isa::rows(cpu, upper).any(|i| i.form == Form::Mos6502(Mode::ZeroPageRelative))
                });
                parse::parse_6502_args(&raw.args, bit_branch).map(Operands::Mos6502)
            }
        };
        Body::Instr {
            mnemonic: op.to_ascii_uppercase(),
            span: op_span,
            operands,
            operands_span: raw.operands_span,
        }
    } else {
        Body::Call {
            name: op.to_string(),
            span: op_span,
            args: raw.args.iter().map(|&(t, s)| (t.to_string(), s)).collect(),
        }
    };
    Stmt { label, body }
}
