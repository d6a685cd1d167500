//! Instruction encoding: pick the table row the operands select and produce its bytes.
//!
//! An encoder always returns bytes of the row's length once a row matches, even when a value
//! is unknown or out of range (then with placeholder zeros and a problem), so that addresses
//! stay stable and every other error in the run is still found.

use super::forms;
use crate::Cpu;
use crate::expr::{Env, EvalError, Expr, Span};
use crate::isa::mos6502::Mode;
use crate::isa::z80::{Kw, Operand};
use crate::isa::{self, Dialect, Form, Instr};
use crate::parse::{Force, Index, MosArg, Z80Arg};

/// Something wrong with one instruction.
#[derive(Clone, Debug)]
pub(crate) enum Problem {
    /// A value could not be computed (undefined symbol, division by zero).
    Eval(EvalError),
    /// Anything else, at a span of the line.
    At {
        span: Span,
        message: String,
        notes: Vec<String>,
    },
}

fn at(span: Span, message: impl Into<String>) -> Problem {
    Problem::At {
        span,
        message: message.into(),
        notes: Vec::new(),
    }
}

/// The chosen row and its bytes.
pub(crate) struct Encoded {
    pub instr: &'static Instr,
    pub bytes: Vec<u8>,
}

struct Values<'a> {
    env: &'a dyn Env,
    problems: Vec<Problem>,
}

impl Values<'_> {
    fn eval(&mut self, e: &Expr) -> Option<i64> {
        match e.eval(self.env) {
            Ok(v) => Some(v),
            Err(err) => {
                self.problems.push(Problem::Eval(err));
                None
            }
        }
    }

    /// `v` if it lies in `range`, else a problem (made by `message`) and 0.
    fn check(
        &mut self,
        v: Option<i64>,
        range: std::ops::RangeInclusive<i64>,
        span: Span,
        message: impl Fn(i64) -> String,
    ) -> i64 {
        match v {
            Some(v) if range.contains(&v) => v,
            Some(v) => {
                self.problems.push(at(span, message(v)));
                0
            }
            None => 0,
        }
    }

    fn byte(&mut self, e: &Expr, span: Span) -> u8 {
        let v = self.eval(e);
        self.check(v, -128..=255, span, |v| {
            format!("value {v} does not fit in a byte (-128..255)")
        }) as u8
    }

    fn word(&mut self, e: &Expr, span: Span) -> [u8; 2] {
        let v = self.eval(e);
        (self.check(v, -32768..=65535, span, |v| {
            format!("value {v} does not fit in 16 bits (-32768..65535)")
        }) as u16)
            .to_le_bytes()
    }

    fn address(&mut self, e: &Expr, span: Span) -> [u8; 2] {
        let v = self.eval(e);
        (self.check(v, 0..=0xFFFF, span, |v| {
            format!("address {v} out of range (0..$FFFF)")
        }) as u16)
            .to_le_bytes()
    }

    fn zero_page(&mut self, e: &Expr, span: Span) -> u8 {
        let v = self.eval(e);
        self.check(v, 0..=255, span, |v| {
            format!("zero-page address {v} out of range (0..255)")
        }) as u8
    }

    /// The signed offset from `next` to the target `e`, for relative jumps and branches.
    fn relative(&mut self, e: &Expr, span: Span, next: u32, what: &str) -> u8 {
        let Some(target) = self.eval(e) else { return 0 };
        let distance = target - next as i64;
        // Targets may also be reached by wrapping around the 64K address space.
        let wrapped = (distance as u16) as i16 as i64;
        if (-128..=127).contains(&distance) {
            distance as i8 as u8
        } else if (0..=0xFFFF).contains(&target) && (-128..=127).contains(&wrapped) {
            wrapped as i8 as u8
        } else {
            self.problems.push(Problem::At {
                span,
                message: format!(
                    "{what} out of range: the target is {distance} bytes away, the reach is -128..+127"
                ),
                notes: Vec::new(),
            });
            0
        }
    }
}

/// Encodes one instruction at `pc`. `None` when no row takes these operands (the problem says
/// which forms would).
pub(crate) fn encode(
    cpu: Cpu,
    dialect: Dialect,
    mnemonic: &str,
    operands: &super::stmt::Operands,
    operands_span: Span,
    env: &dyn Env,
    pc: u32,
) -> (Option<Encoded>, Vec<Problem>) {
    let mut values = Values {
        env,
        problems: Vec::new(),
    };
    let encoded = match operands {
        super::stmt::Operands::Z80(args) => {
            encode_z80(dialect, mnemonic, args, operands_span, &mut values, pc)
        }
        super::stmt::Operands::Mos6502(arg) => {
            encode_6502(cpu, mnemonic, arg, operands_span, &mut values, pc)
        }
    };
    debug_assert!(cpu == Cpu::Z80 || matches!(operands, super::stmt::Operands::Mos6502(_)));
    (encoded, values.problems)
}

fn invalid_operands(rows: &[&'static Instr], mnemonic: &str, span: Span, why: &str) -> Problem {
    Problem::At {
        span,
        message: format!("invalid operand for {mnemonic}: {why}"),
        notes: vec![forms::forms_note(rows)],
    }
}

// ---------------------------------------------------------------------------------------------
// Z80

fn z80_shape_matches(pattern: &Operand, arg: &Z80Arg) -> bool {
    match (pattern, arg) {
        (Operand::Word(k), Z80Arg::Word(a)) => k == a,
        (Operand::Ind(k), Z80Arg::Ind(a)) => k == a,
        (Operand::Indexed(k), Z80Arg::Indexed(a, _)) => k == a,
        (Operand::Indexed(k), Z80Arg::Ind(a)) => k == a,
        (Operand::Imm8 | Operand::Imm16 | Operand::Rel | Operand::Fixed(_), Z80Arg::Expr(_)) => {
            true
        }
        (Operand::Port | Operand::Mem, Z80Arg::Mem(_)) => true,
        _ => false,
    }
}

fn z80_ops(instr: &Instr) -> &[Operand] {
    match &instr.form {
        Form::Z80(ops) => ops,
        Form::Mos6502(_) => &[],
    }
}

fn describe_z80_arg(arg: &Z80Arg) -> &'static str {
    match arg {
        Z80Arg::Word(_) => "register",
        Z80Arg::Ind(_) => "register pointer",
        Z80Arg::Indexed(..) => "indexed operand",
        Z80Arg::Mem(_) => "memory operand",
        Z80Arg::Expr(_) => "value",
    }
}

/// The rows that agree with the first operand when some do (for a shorter "accepted forms"
/// note), else all rows.
fn related_forms(rows: &[&'static Instr], args: &[(Z80Arg, Span)]) -> Vec<&'static Instr> {
    let related: Vec<&'static Instr> = match args.first() {
        Some((first, _)) => rows
            .iter()
            .copied()
            .filter(|r| {
                z80_ops(r)
                    .first()
                    .is_some_and(|p| z80_shape_matches(p, first))
            })
            .collect(),
        None => Vec::new(),
    };
    if related.is_empty() {
        rows.to_vec()
    } else {
        related
    }
}

/// Whether the Zilog `mnemonic` has a row that takes operands of the shapes of `args`.
pub(crate) fn z80_has_form(mnemonic: &str, args: &[(Z80Arg, Span)]) -> bool {
    isa::rows(Cpu::Z80, mnemonic).any(|r| {
        let ops = z80_ops(r);
        ops.len() == args.len()
            && ops
                .iter()
                .zip(args)
                .all(|(p, (a, _))| z80_shape_matches(p, a))
    })
}

fn encode_z80(
    dialect: Dialect,
    mnemonic: &str,
    args: &[(Z80Arg, Span)],
    operands_span: Span,
    values: &mut Values,
    pc: u32,
) -> Option<Encoded> {
    // Rows are only collected on the error paths; the common case allocates nothing.
    let all_rows = || isa::rows(Cpu::Z80, mnemonic).collect::<Vec<&'static Instr>>();
    let register = args.iter().find_map(|(a, span)| match a {
        Z80Arg::Expr(e) | Z80Arg::Mem(e) | Z80Arg::Indexed(_, e) => e
            .find_symbol(&|n| reserved_name(Cpu::Z80, dialect, n))
            .map(|n| (n, *span)),
        _ => None,
    });
    if let Some((name, span)) = register {
        let why = format!("'{name}' is a register and cannot be part of an expression");
        values.problems.push(invalid_operands(
            &related_forms(&all_rows(), args),
            mnemonic,
            span,
            &why,
        ));
        return None;
    }
    let shape_matches = |r: &&'static Instr| {
        let ops = z80_ops(r);
        ops.len() == args.len()
            && ops
                .iter()
                .zip(args)
                .all(|(p, (a, _))| z80_shape_matches(p, a))
    };
    let candidates = || isa::rows(Cpu::Z80, mnemonic).filter(shape_matches);
    let Some(first) = candidates().next() else {
        let rows = all_rows();
        let span = operands_span;
        let shown = related_forms(&rows, args);
        let why = match (
            args.len(),
            rows.iter().map(|r| z80_ops(r).len()).max().unwrap_or(0),
        ) {
            (0, _) => "it needs operands".to_string(),
            (_, 0) => "it takes no operands".to_string(),
            (n, max) if n > max => format!("{n} operands given, at most {max} allowed"),
            _ => {
                let kinds: Vec<&str> = args.iter().map(|(a, _)| describe_z80_arg(a)).collect();
                format!("no form takes ({})", kinds.join(", "))
            }
        };
        values
            .problems
            .push(invalid_operands(&shown, mnemonic, span, &why));
        return None;
    };
    let instr = fixed_number_row(mnemonic, args, first, &candidates, values);
    Some(Encoded {
        instr,
        bytes: z80_bytes(instr, mnemonic, args, values, pc),
    })
}

/// `BIT`/`SET`/`RES`/`IM`/`RST`: the number is part of the opcode, so it picks the row among
/// the `candidates` whose operands have the shape of `args` (`first` is the first of them).
/// An impossible number is a problem, and `first` stays the row.
fn fixed_number_row<I: Iterator<Item = &'static Instr>>(
    mnemonic: &str,
    args: &[(Z80Arg, Span)],
    first: &'static Instr,
    candidates: &dyn Fn() -> I,
    values: &mut Values,
) -> &'static Instr {
    let position = z80_ops(first)
        .iter()
        .position(|o| matches!(o, Operand::Fixed(_)));
    let Some(p) = position else {
        return first;
    };
    let (Z80Arg::Expr(e), span) = &args[p] else {
        return first;
    };
    let choices: Vec<u8> = candidates()
        .filter_map(|c| match z80_ops(c)[p] {
            Operand::Fixed(v) => Some(v),
            _ => None,
        })
        .collect();
    let Some(v) = values.eval(e) else {
        return first;
    };
    match candidates().find(|c| z80_ops(c)[p] == Operand::Fixed(v.clamp(0, 255) as u8)) {
        Some(c) if (0..=255).contains(&v) => c,
        _ => {
            let list: Vec<String> = choices
                .iter()
                .map(|c| {
                    if mnemonic == "RST" {
                        format!("${c:02X}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            let message = match mnemonic {
                "BIT" | "SET" | "RES" => format!("bit number {v} out of range (0..7)"),
                "IM" => format!("interrupt mode {v} does not exist (0, 1 or 2)"),
                "RST" => format!("RST {v} is not a restart address ({})", list.join(", ")),
                _ => format!("{mnemonic} takes {} here, not {v}", list.join(", ")),
            };
            values.problems.push(at(*span, message));
            first
        }
    }
}

/// The bytes of `instr` with the values of `args`: prefix, opcode, displacement and
/// immediate (a `DD CB`/`FD CB` instruction has its displacement before the opcode).
fn z80_bytes(
    instr: &'static Instr,
    mnemonic: &str,
    args: &[(Z80Arg, Span)],
    values: &mut Values,
    pc: u32,
) -> Vec<u8> {
    let mut bytes = instr.prefix.to_vec();
    let next = pc + instr.len as u32;
    if instr.prefix.len() != 2 {
        bytes.push(instr.opcode);
    }
    for (pattern, (arg, span)) in z80_ops(instr).iter().zip(args) {
        match (pattern, arg) {
            (Operand::Indexed(_), Z80Arg::Indexed(_, e)) => {
                let v = values.eval(e);
                let d = values.check(v, -128..=127, *span, |v| {
                    format!("index displacement {v} out of range (-128..127)")
                });
                bytes.push(d as u8);
            }
            (Operand::Indexed(_), _) => bytes.push(0),
            (Operand::Imm8, Z80Arg::Expr(e)) => bytes.push(values.byte(e, *span)),
            (Operand::Port, Z80Arg::Mem(e)) => {
                let v = values.eval(e);
                bytes.push(values.check(v, 0..=255, *span, |v| {
                    format!("port number {v} out of range (0..255)")
                }) as u8);
            }
            (Operand::Imm16, Z80Arg::Expr(e)) | (Operand::Mem, Z80Arg::Mem(e)) => {
                bytes.extend(values.word(e, *span))
            }
            (Operand::Rel, Z80Arg::Expr(e)) => {
                let what = if mnemonic == "DJNZ" {
                    "DJNZ"
                } else {
                    "relative jump"
                };
                bytes.push(values.relative(e, *span, next, what));
            }
            _ => {}
        }
    }
    if instr.prefix.len() == 2 {
        bytes.push(instr.opcode);
    }
    debug_assert_eq!(bytes.len(), instr.len as usize, "{}", instr.syntax());
    bytes
}

// ---------------------------------------------------------------------------------------------
// 6502

/// A 6502 instruction: the opcode of `instr` and its operand bytes.
fn with_operand(instr: &'static Instr, operand: &[u8]) -> Option<Encoded> {
    let mut bytes = vec![instr.opcode];
    bytes.extend_from_slice(operand);
    Some(Encoded { instr, bytes })
}

fn encode_6502(
    cpu: Cpu,
    mnemonic: &str,
    arg: &MosArg,
    span: Span,
    values: &mut Values,
    pc: u32,
) -> Option<Encoded> {
    let rows = || isa::rows(cpu, mnemonic);
    let has = |mode| rows().find(|r| r.form == Form::Mos6502(mode));
    let invalid = |why: &str| invalid_operands(&rows().collect::<Vec<_>>(), mnemonic, span, why);
    if !matches!(arg, MosArg::None) && rows().all(|r| r.form == Form::Mos6502(Mode::Implied)) {
        values.problems.push(invalid("it takes no operands"));
        return None;
    }
    let expr = match arg {
        MosArg::Imm(e)
        | MosArg::Ind(e)
        | MosArg::IndX(e)
        | MosArg::IndY(e)
        | MosArg::Addr { expr: e, .. } => Some(e),
        MosArg::None | MosArg::Acc => None,
        MosArg::BitBranch { zp, target, .. } => Some(
            if zp
                .find_symbol(&|n| reserved_name(cpu, Dialect::Kempelen, n))
                .is_some()
            {
                zp
            } else {
                target
            },
        ),
    };
    if let Some(name) =
        expr.and_then(|e| e.find_symbol(&|n| reserved_name(cpu, Dialect::Kempelen, n)))
    {
        values.problems.push(invalid(&format!(
            "'{name}' is a register and cannot be part of an expression"
        )));
        return None;
    }
    match arg {
        MosArg::None => {
            if let Some(i) = has(Mode::Implied).or_else(|| has(Mode::Accumulator)) {
                return with_operand(i, &[]);
            }
            values.problems.push(invalid("it needs an operand"));
            None
        }
        MosArg::Acc => match has(Mode::Accumulator) {
            Some(i) => with_operand(i, &[]),
            None => {
                values
                    .problems
                    .push(invalid("no accumulator mode ('A' is reserved for it)"));
                None
            }
        },
        MosArg::Imm(e) => match has(Mode::Immediate) {
            Some(i) => {
                let b = values.byte(e, span);
                with_operand(i, &[b])
            }
            None => {
                values.problems.push(invalid("no immediate mode"));
                None
            }
        },
        MosArg::Ind(e) => match (has(Mode::Indirect), has(Mode::ZeroPageIndirect)) {
            (Some(i), _) => {
                let w = values.address(e, span);
                with_operand(i, &w)
            }
            (None, Some(i)) => {
                let b = values.zero_page(e, span);
                with_operand(i, &[b])
            }
            (None, None) => {
                let why = if has(Mode::IndirectY).is_some() {
                    "'(zp)' without an index is a 65C02 mode; the NMOS 6502 has '(zp,X)' and '(zp),Y'"
                } else {
                    "no indirect mode"
                };
                values.problems.push(invalid(why));
                None
            }
        },
        MosArg::IndX(e) if has(Mode::AbsoluteIndexedIndirect).is_some() => {
            let i = has(Mode::AbsoluteIndexedIndirect).expect("checked");
            let w = values.address(e, span);
            with_operand(i, &w)
        }
        MosArg::IndX(e) | MosArg::IndY(e) => {
            let mode = if matches!(arg, MosArg::IndX(_)) {
                Mode::IndirectX
            } else {
                Mode::IndirectY
            };
            match has(mode) {
                Some(i) => {
                    let b = values.zero_page(e, span);
                    with_operand(i, &[b])
                }
                None => {
                    values
                        .problems
                        .push(invalid(&format!("no {} mode", mode.notation())));
                    None
                }
            }
        }
        MosArg::BitBranch {
            zp,
            zp_span,
            target,
            target_span,
        } => {
            let i = has(Mode::ZeroPageRelative).expect("parsed as a bit branch");
            let b = values.zero_page(zp, *zp_span);
            let offset = values.relative(target, *target_span, pc + 3, "branch");
            with_operand(i, &[b, offset])
        }
        MosArg::Addr { .. } if has(Mode::ZeroPageRelative).is_some() => {
            values
                .problems
                .push(invalid("it takes a zero-page address and a branch target"));
            None
        }
        MosArg::Addr { expr, index, force } => {
            encode_6502_address(cpu, mnemonic, (expr, *index, *force), span, values, pc)
        }
    }
}

/// An address operand (`expr`, `expr,X`, `expr,Y`): a branch's target, or the zero-page or
/// the absolute form. The zero-page form is taken whenever the instruction has one and the
/// value fits in a byte (or a ca65 `z:` forces it, or there is no absolute form); `a:` forces
/// the absolute form.
fn encode_6502_address(
    cpu: Cpu,
    mnemonic: &str,
    (expr, index, force): (&Expr, Option<Index>, Option<Force>),
    span: Span,
    values: &mut Values,
    pc: u32,
) -> Option<Encoded> {
    let rows = || isa::rows(cpu, mnemonic);
    let has = |mode| rows().find(|r| r.form == Form::Mos6502(mode));
    let invalid = |why: &str| invalid_operands(&rows().collect::<Vec<_>>(), mnemonic, span, why);
    if index.is_none()
        && let Some(i) = has(Mode::Relative)
    {
        let b = values.relative(expr, span, pc + 2, "branch");
        return with_operand(i, &[b]);
    }
    let (abs_mode, zp_mode) = match index {
        None => (Mode::Absolute, Mode::ZeroPage),
        Some(Index::X) => (Mode::AbsoluteX, Mode::ZeroPageX),
        Some(Index::Y) => (Mode::AbsoluteY, Mode::ZeroPageY),
    };
    let (abs, zp) = (has(abs_mode), has(zp_mode));
    if abs.is_none() && zp.is_none() {
        let why = format!("no {} or {} mode", zp_mode.notation(), abs_mode.notation());
        values.problems.push(invalid(&why));
        return None;
    }
    let v = values.eval(expr);
    let fits_zp = v.is_some_and(|v| (0..=255).contains(&v));
    let use_zp = match force {
        Some(Force::Absolute) => abs.is_none(),
        Some(Force::ZeroPage) => true,
        None => zp.is_some() && (fits_zp || (abs.is_none())),
    };
    if use_zp {
        let Some(i) = zp else {
            values
                .problems
                .push(invalid(&format!("no {} mode", zp_mode.notation())));
            return None;
        };
        if v.is_some() && !fits_zp {
            let why = match abs {
                None => format!(
                    "{mnemonic} has {} but no {}, and {} is not a zero-page address",
                    zp_mode.notation(),
                    abs_mode.notation(),
                    v.unwrap_or(0)
                ),
                Some(_) => {
                    format!("{} is not a zero-page address (0..255)", v.unwrap_or(0))
                }
            };
            values.problems.push(at(span, why));
        }
        let b = if fits_zp { v.unwrap_or(0) as u8 } else { 0 };
        with_operand(i, &[b])
    } else {
        let Some(i) = abs else {
            values
                .problems
                .push(invalid(&format!("no {} mode", abs_mode.notation())));
            return None;
        };
        let w = values.check(v, 0..=0xFFFF, span, |v| {
            format!("address {v} out of range (0..$FFFF)")
        }) as u16;
        with_operand(i, &w.to_le_bytes())
    }
}

/// Z80 keywords and 6502 register names cannot be symbols: the operand grammar reads them as
/// registers. In TDL, its own register names (`A`...`L`, `M`, `SP`, `PSW`, `X`, `Y`).
pub(crate) fn reserved_name(cpu: Cpu, dialect: Dialect, name: &str) -> bool {
    match (cpu, dialect) {
        (Cpu::Z80, Dialect::Tdl) => isa::tdl::is_register(name),
        (Cpu::Z80, Dialect::Kempelen) => Kw::parse(name).is_some(),
        (Cpu::Mos6502 | Cpu::Cmos65c02, _) => {
            ["A", "X", "Y"].iter().any(|r| r.eq_ignore_ascii_case(name))
        }
    }
}
