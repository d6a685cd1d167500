//! Statements: a parsed line, classified once per file and reused by every pass.

use std::rc::Rc;
use std::sync::Arc;

use crate::Cpu;
use crate::expr::{Expr, Span};
use crate::isa::{self, Dialect, Form, mos6502::Mode};
use crate::parse::{self, ExprSyntax, MosArg, SyntaxError, Z80Arg};

pub(crate) mod tdl;

/// How a line is read: the instruction set, the dialect and, in TDL, the radix of numbers
/// (which `.RADIX` changes for the lines after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Syntax {
    pub cpu: Cpu,
    pub dialect: Dialect,
    pub radix: u32,
    /// `--paren-closes-bracket`: a `)` that closes nothing in a `.DEFINE` closes its `[`.
    pub paren_closes_bracket: bool,
}

impl Syntax {
    pub fn tdl(&self) -> bool {
        self.dialect == Dialect::Tdl
    }

    /// The expression grammar of this syntax.
    pub fn expr(&self) -> ExprSyntax {
        ExprSyntax {
            tdl: self.tdl(),
            radix: self.radix,
        }
    }

    /// Whether `name` is a mnemonic of this syntax.
    pub fn is_mnemonic(&self, name: &str) -> bool {
        if self.tdl() {
            isa::tdl::is_mnemonic(name)
        } else {
            isa::is_mnemonic(self.cpu, name)
        }
    }
}

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
    /// TDL's `.BLKB n`: `n` bytes reserved, nothing written.
    ReserveBytes,
    /// TDL's `.BLKW n`: `n` words reserved, nothing written.
    ReserveWords,
    /// TDL's `.ASCII`: strings (`'..'`, `".."`, `/../`), `[expr]` bytes and byte values.
    Ascii,
    /// TDL's `.ASCIZ`: `.ASCII` and a zero byte.
    AsciiZ,
    /// TDL's `.ASCIS`: `.ASCII` with bit 7 set in the last byte.
    AsciiS,
    /// TDL's `.RADIX n`: the radix of the numbers on the lines after it (read when the file is
    /// parsed; nothing to do in a pass).
    Radix,
    /// TDL's `.DEFINE`; its line becomes a [`Body::Define`].
    Define,
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

/// TDL's pseudo-operations that Kempelen's own directives do not spell (`.BYTE`, `.WORD`,
/// `.END` and `.PAGE` are in [`DIRECTIVES`]), taken with `--dialect tdl`, always with their dot.
pub(crate) const TDL_DIRECTIVES: &[(&str, Dir)] = &[
    (".LOC", Dir::Org),
    (".BLKB", Dir::ReserveBytes),
    (".BLKW", Dir::ReserveWords),
    (".ASCII", Dir::Ascii),
    (".ASCIZ", Dir::AsciiZ),
    (".ASCIS", Dir::AsciiS),
    (".RADIX", Dir::Radix),
    (".DEFINE", Dir::Define),
    (".INSERT", Dir::Include),
    (".TITLE", Dir::Page),
    (".SBTTL", Dir::Page),
];

/// The directive `name` spells, if any. A mnemonic wins over an undotted directive of the same
/// name (`RES` is a Z80 instruction; the ca65 directive is written `.RES`).
pub(crate) fn directive_for(syntax: &Syntax, name: &str) -> Option<Dir> {
    if !name.starts_with('.') && syntax.is_mnemonic(name) {
        return None;
    }
    directive(syntax, name)
}

fn directive(syntax: &Syntax, name: &str) -> Option<Dir> {
    if syntax.tdl()
        && let Some(&(_, d)) = TDL_DIRECTIVES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        return Some(d);
    }
    let bare = name.strip_prefix('.').unwrap_or(name);
    DIRECTIVES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(bare))
        .map(|&(_, d)| d)
}

/// Whether a word in column 1 is an operation rather than a label. A word with a leading dot
/// cannot be a symbol, so it is always an operation (a directive, or an unknown one that gets
/// its own error).
pub(crate) fn is_operation(syntax: &Syntax, word: &str) -> bool {
    word.starts_with('.') || directive(syntax, word).is_some() || syntax.is_mnemonic(word)
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
    /// TDL's `.DEFINE NAME[params]=[body]`: a macro, its body read from the lines that
    /// follow up to its closing `]`.
    Define(Rc<tdl::Define>),
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

fn dir_value(syntax: &Syntax, text: &str, span: Span) -> Result<DirValue, SyntaxError> {
    if let Some(body) = parse::string_literal(text) {
        return Ok(DirValue::Str(body.as_bytes().to_vec()));
    }
    parse::parse_expr_in(syntax.expr(), text, span.start as usize).map(DirValue::Expr)
}

/// Parses and classifies one line.
pub(crate) fn parse_line(syntax: &Syntax, text: &str) -> Stmt {
    let raw = parse::split_line(text, &|w| is_operation(syntax, w));
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
    let body = if let Some(dir) = directive_for(syntax, op) {
        directive_body(syntax, text, dir, op_span, &raw)
    } else if syntax.tdl() && isa::tdl::is_mnemonic(op) {
        tdl::instruction(syntax, op, op_span, &raw.args, raw.operands_span)
    } else if !syntax.tdl() && isa::is_mnemonic(syntax.cpu, op) {
        let operands = match syntax.cpu {
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
                    isa::rows(syntax.cpu, upper)
                        .any(|i| i.form == Form::Mos6502(Mode::ZeroPageRelative))
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

/// The body of a directive line: its operands parsed as strings or expressions (TDL's
/// `.ASCII` items and `.DEFINE` headers by their own rules).
fn directive_body(
    syntax: &Syntax,
    text: &str,
    dir: Dir,
    op_span: Span,
    raw: &parse::RawLine,
) -> Body {
    let rest = Span::new(raw.operands_span.start as usize, text.len());
    let args = match dir {
        // Read by the TDL reader, which follows its body over the lines after it.
        Dir::Define => Vec::new(),
        Dir::Ascii | Dir::AsciiZ | Dir::AsciiS => match tdl::ascii_items(syntax, text, rest) {
            Ok(args) => args,
            Err(e) => return Body::Error(e),
        },
        Dir::Radix => match tdl::radix(op_span, &raw.args) {
            Ok(radix) => vec![DirArg {
                raw: radix.to_string(),
                span: raw.operands_span,
                value: Ok(DirValue::Expr(Expr::Num(radix.into()))),
            }],
            Err(e) => return Body::Error(e),
        },
        _ => raw
            .args
            .iter()
            .map(|&(text, span)| DirArg {
                raw: text.to_string(),
                span,
                value: dir_value(syntax, text, span),
            })
            .collect(),
    };
    Body::Dir {
        dir,
        span: op_span,
        args,
        operands_span: raw.operands_span,
    }
}

/// One parsed line of a file or a macro expansion, and the radix it was read in.
pub(crate) struct Parsed {
    pub stmt: Stmt,
    pub radix: u32,
}

/// Parses the lines of a file (or of a macro's expansion) in order: in TDL, `.RADIX` changes
/// how the lines after it are read, and a `.DEFINE` takes the lines up to its closing `]` as
/// its body. `None` stands for a line that is not UTF-8 (its statement is made by the caller).
pub(crate) fn parse_lines(syntax: Syntax, lines: &[(u32, Option<Arc<str>>)]) -> Vec<Parsed> {
    if !syntax.tdl() {
        return lines
            .iter()
            .map(|(_, text)| Parsed {
                stmt: text.as_deref().map_or(empty(), |t| parse_line(&syntax, t)),
                radix: syntax.radix,
            })
            .collect();
    }
    tdl::Reader::new(syntax).read(lines)
}

/// A statement that does nothing (a line of a `.DEFINE` body, a placeholder).
pub(crate) fn empty() -> Stmt {
    Stmt {
        label: None,
        body: Body::Empty,
    }
}
