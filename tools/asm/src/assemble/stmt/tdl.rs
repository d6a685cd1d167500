//! TDL's syntax (`--dialect tdl`): the Z80 assembler of Technical Design Labs, in which Dan and
//! Kathe Spracklen published Sargon (1978). Its mnemonics and operand forms are read here into
//! Zilog instructions through the spelling table of `kempelen_isa::tdl` (one instruction
//! table; TDL is a spelling of it); its pseudo-operations are directives of the assembler
//! (`.LOC` is `ORG`, `.BLKB` reserves, `.ASCII` ...), and its `.DEFINE` macros are read by
//! [`Reader`], which follows a definition's `[ ... ]` body over the lines it spans.
//!
//! What each rule rests on is written in docs/ASSEMBLER.md ("The TDL dialect").

use std::rc::Rc;
use std::sync::Arc;

use super::{Body, Dir, DirArg, DirValue, Operands, Parsed, Syntax, empty};
use crate::expr::{BinOp, Expr, Span};
use crate::isa::tdl::{self as spelling, Part, Slot, TdlForm, ValueKind};
use crate::isa::z80::{Kw, Operand};
use crate::parse::{self, SyntaxError, Z80Arg};

/// One TDL operand as written.
#[derive(Clone, Debug)]
enum Arg {
    /// A register name: `A`, `M`, `SP`, `PSW`, `X` ...
    Name(String),
    /// `d(X)`, `d(Y)`, `(X)`.
    Indexed(Kw, Expr),
    /// A value.
    Value(Expr),
}

impl Arg {
    fn describe(&self) -> &'static str {
        match self {
            Arg::Name(_) => "register",
            Arg::Indexed(..) => "indexed operand",
            Arg::Value(_) => "value",
        }
    }
}

/// Reads one TDL operand that starts at byte `base` of its line.
fn parse_arg(syntax: &Syntax, text: &str, base: usize) -> Result<Arg, SyntaxError> {
    if spelling::is_register(text) {
        return Ok(Arg::Name(text.to_ascii_uppercase()));
    }
    if let Some(inner) = text.strip_suffix(')')
        && let Some(open) = inner.rfind('(')
        && let Some(kw) = spelling::index_register(inner[open + 1..].trim())
    {
        let prefix = inner[..open].trim_end();
        let displacement = if prefix.is_empty() {
            Expr::Num(0)
        } else {
            parse::parse_expr_in(syntax.expr(), prefix, base)?
        };
        return Ok(Arg::Indexed(kw, displacement));
    }
    if let Some(inner) = text.strip_suffix(')')
        && let Some(open) = inner.rfind('(')
        && !inner[..open].trim().is_empty()
        && parse::is_identifier(inner[open + 1..].trim())
    {
        let start = base + open + 1;
        return Err(SyntaxError::new(
            Span::new(start, base + inner.len()),
            format!(
                "'{}' is not an index register: TDL writes d(X) for (IX+d) and d(Y) for (IY+d)",
                inner[open + 1..].trim()
            ),
        ));
    }
    let expr = parse::parse_expr_in(syntax.expr(), text, base)?;
    if let Some(name) = expr.find_symbol(&spelling::is_register) {
        return Err(SyntaxError::new(
            Span::new(base, base + text.len()),
            format!("'{name}' is a register and cannot be part of an expression"),
        ));
    }
    Ok(Arg::Value(expr))
}

/// The Zilog operand `part` makes of the TDL operands `args`, if they fit `form`.
fn zilog_arg(form: &TdlForm, part: Part, args: &[(Arg, Span)], at: Span) -> Option<(Z80Arg, Span)> {
    let value = |i: usize| match &args[i].0 {
        Arg::Value(e) => Some(e.clone()),
        _ => None,
    };
    let arg = match part {
        Part::Fixed(Operand::Word(kw)) => return Some((Z80Arg::Word(kw), at)),
        Part::Fixed(Operand::Ind(kw)) => return Some((Z80Arg::Ind(kw), at)),
        Part::Fixed(Operand::Fixed(v)) => return Some((Z80Arg::Expr(Expr::Num(v.into())), at)),
        Part::Fixed(_) => return None,
        Part::Pointer(i) => Z80Arg::Mem(value(i)?),
        Part::Restart(i) => Z80Arg::Expr(restart(value(i)?, args[i].1).ok()?),
        Part::From(i) => match (form.slots[i], &args[i].0) {
            (Slot::Reg8, Arg::Name(n)) => match spelling::reg8(n)? {
                Operand::Word(kw) => Z80Arg::Word(kw),
                Operand::Ind(kw) => Z80Arg::Ind(kw),
                _ => return None,
            },
            (Slot::Reg8, Arg::Indexed(kw, d)) => Z80Arg::Indexed(*kw, d.clone()),
            (Slot::Pair, Arg::Name(n)) => Z80Arg::Word(spelling::pair(n, false)?),
            (Slot::PushPair, Arg::Name(n)) => Z80Arg::Word(spelling::pair(n, true)?),
            (Slot::Value(_), Arg::Value(e)) => Z80Arg::Expr(e.clone()),
            _ => return None,
        },
    };
    Some((arg, args[part_index(part)].1))
}

fn part_index(part: Part) -> usize {
    match part {
        Part::From(i) | Part::Pointer(i) | Part::Restart(i) => i,
        Part::Fixed(_) => 0,
    }
}

/// TDL's `RST n` names the restart by its number, 0-7: Zilog's operand is the address, eight
/// times it. A number out of range is an error.
fn restart(e: Expr, span: Span) -> Result<Expr, SyntaxError> {
    match e {
        Expr::Num(n @ 0..=7) => Ok(Expr::Num(n * 8)),
        Expr::Num(n) => Err(SyntaxError::new(
            span,
            format!("RST {n}: TDL's RST takes the restart number 0-7 (the address divided by 8)"),
        )),
        e => Ok(Expr::Binary(
            BinOp::Mul,
            Box::new(e),
            Box::new(Expr::Num(8)),
            span,
        )),
    }
}

/// Whether the TDL operands fit the slots of `form` (literal names, register classes, values).
fn fits(form: &TdlForm, args: &[(Arg, Span)]) -> bool {
    form.slots.len() == args.len()
        && form
            .slots
            .iter()
            .zip(args)
            .all(|(slot, (arg, _))| match (slot, arg) {
                (Slot::Literal(l), Arg::Name(n)) => l == n,
                (Slot::Reg8, Arg::Name(n)) => spelling::reg8(n).is_some(),
                (Slot::Reg8, Arg::Indexed(..)) => true,
                (Slot::Pair, Arg::Name(n)) => spelling::pair(n, false).is_some(),
                (Slot::PushPair, Arg::Name(n)) => spelling::pair(n, true).is_some(),
                (Slot::Value(_), Arg::Value(_)) => true,
                _ => false,
            })
}

/// A TDL instruction line: its operands read and put in the Zilog form their TDL form stands
/// for, or the error (with TDL's forms of the mnemonic).
pub(crate) fn instruction(
    syntax: &Syntax,
    op: &str,
    op_span: Span,
    raw: &[(&str, Span)],
    operands_span: Span,
) -> Body {
    let upper = op.to_ascii_uppercase();
    let args: Result<Vec<(Arg, Span)>, SyntaxError> = raw
        .iter()
        .map(|&(text, span)| parse_arg(syntax, text, span.start as usize).map(|a| (a, span)))
        .collect();
    let translated = args.and_then(|args| translate(&upper, &args, op_span, operands_span));
    let (mnemonic, operands) = match translated {
        Ok((zilog, args)) => (zilog.to_string(), Ok(Operands::Z80(args))),
        Err(e) => (upper, Err(e)),
    };
    Body::Instr {
        mnemonic,
        span: op_span,
        operands,
        operands_span,
    }
}

/// A Zilog mnemonic and its operands.
type Zilog = (&'static str, Vec<(Z80Arg, Span)>);

/// The Zilog mnemonic and operands of a TDL instruction.
fn translate(
    upper: &str,
    args: &[(Arg, Span)],
    op_span: Span,
    operands_span: Span,
) -> Result<Zilog, SyntaxError> {
    let forms: Vec<&'static TdlForm> = spelling::forms_of(upper).collect();
    if let ([form], [(Arg::Value(e), span)]) = (forms.as_slice(), args)
        && form.parts.iter().any(|p| matches!(p, Part::Restart(_)))
    {
        restart(e.clone(), *span)?;
    }
    for form in &forms {
        if !fits(form, args) {
            continue;
        }
        let zilog: Option<Vec<(Z80Arg, Span)>> = form
            .parts
            .iter()
            .map(|&part| zilog_arg(form, part, args, op_span))
            .collect();
        if let Some(zilog) = zilog
            && crate::assemble::z80_has_form(form.zilog, &zilog)
        {
            return Ok((form.zilog, zilog));
        }
    }
    let most = forms.iter().map(|f| f.slots.len()).max().unwrap_or(0);
    let why = match (args.len(), most) {
        (0, _) => "it needs operands".to_string(),
        (_, 0) => "it takes no operands".to_string(),
        (n, max) if n > max => format!("{n} operands given, at most {max} allowed"),
        _ => {
            let kinds: Vec<&str> = args.iter().map(|(a, _)| a.describe()).collect();
            format!("no form takes ({})", kinds.join(", "))
        }
    };
    let span = if args.is_empty() {
        op_span
    } else {
        operands_span
    };
    Err(
        SyntaxError::new(span, format!("invalid operand for {upper}: {why}"))
            .with_note(forms_note(upper, &forms)),
    )
}

/// `accepted forms: MOV r,s (r, s: B C D E H L A M d(X) d(Y))`: the forms of a TDL mnemonic.
fn forms_note(upper: &str, forms: &[&TdlForm]) -> String {
    let templates: Vec<&str> = forms.iter().map(|f| f.template).collect();
    let mut legend = Vec::new();
    let uses = |slot: Slot| forms.iter().any(|f| f.slots.contains(&slot));
    if uses(Slot::Reg8) {
        legend.push(if forms.iter().any(|f| f.template.ends_with(",s")) {
            "r, s: B C D E H L A, M for (HL), d(X), d(Y)"
        } else {
            "r: B C D E H L A, M for (HL), d(X), d(Y)"
        });
    }
    if uses(Slot::Pair) {
        legend.push(match upper {
            "DADX" => "rr: B D X SP",
            "DADY" => "rr: B D Y SP",
            "DAD" | "DADC" | "DSBC" => "rr: B D H SP",
            _ => "rr: B D H SP X Y",
        });
    }
    if uses(Slot::PushPair) {
        legend.push("qq: B D H PSW X Y");
    }
    if uses(Slot::Value(ValueKind::Restart)) {
        legend.push("t: the restart number 0-7 (the address / 8)");
    }
    let legend = if legend.is_empty() {
        String::new()
    } else {
        format!(" ({})", legend.join("; "))
    };
    format!("accepted forms: {}{legend}", templates.join(", "))
}

/// `.RADIX n`: the radix, 2, 8, 10 or 16, always written in decimal.
pub(crate) fn radix(op_span: Span, args: &[(&str, Span)]) -> Result<u32, SyntaxError> {
    let [(value, span)] = args else {
        let at = args.first().map_or(op_span, |(_, s)| *s);
        return Err(SyntaxError::new(
            at,
            ".RADIX takes one operand, the radix (2, 8, 10 or 16)",
        ));
    };
    match value.parse::<u32>() {
        Ok(r @ (2 | 8 | 10 | 16)) => Ok(r),
        _ => Err(SyntaxError::new(
            *span,
            format!("radix '{value}' does not exist: .RADIX takes 2, 8, 10 or 16 (in decimal)"),
        )),
    }
}

/// The items of `.ASCII`, `.ASCIZ` and `.ASCIS` in `text[rest]`: strings delimited by `'`, `"`
/// or `/`, `[expr]` for one byte, or a value, separated by commas or spaces.
pub(crate) fn ascii_items(
    syntax: &Syntax,
    text: &str,
    rest: Span,
) -> Result<Vec<DirArg>, SyntaxError> {
    let end = text.len();
    let code_end = code_end(text, rest.start as usize);
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut i = rest.start as usize;
    loop {
        while i < code_end && matches!(bytes[i], b' ' | b'\t' | b',') {
            i += 1;
        }
        if i >= code_end {
            break;
        }
        let start = i;
        let item = match bytes[i] {
            q @ (b'\'' | b'"' | b'/') => {
                let Some(len) = bytes[i + 1..end].iter().position(|&b| b == q) else {
                    return Err(SyntaxError::new(
                        Span::new(i, end),
                        "unterminated string (missing closing delimiter)",
                    ));
                };
                i += len + 2;
                DirArg {
                    raw: text[start..i].to_string(),
                    span: Span::new(start, i),
                    value: Ok(DirValue::Str(text.as_bytes()[start + 1..i - 1].to_vec())),
                }
            }
            b'[' => {
                let Some(len) = bytes[i + 1..code_end].iter().position(|&b| b == b']') else {
                    return Err(SyntaxError::new(Span::new(i, i + 1), "'[' without ']'"));
                };
                let inner = &text[i + 1..i + 1 + len];
                i += len + 2;
                DirArg {
                    raw: text[start..i].to_string(),
                    span: Span::new(start, i),
                    value: parse::parse_expr_in(syntax.expr(), inner, start + 1)
                        .map(DirValue::Expr),
                }
            }
            _ => {
                while i < code_end && bytes[i] != b',' {
                    i += 1;
                }
                let piece = text[start..i].trim_end();
                DirArg {
                    raw: piece.to_string(),
                    span: Span::new(start, start + piece.len()),
                    value: parse::parse_expr_in(syntax.expr(), piece, start).map(DirValue::Expr),
                }
            }
        };
        items.push(item);
    }
    Ok(items)
}

/// Where the comment of `text` starts (its length if it has none), from `from` on, skipping
/// quoted strings.
fn code_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b';' => return i,
            q @ (b'\'' | b'"') => match bytes[i + 1..].iter().position(|&b| b == q) {
                Some(len) => i += len + 2,
                None => return bytes.len(),
            },
            _ => i += 1,
        }
    }
    bytes.len()
}

/// A `.DEFINE` macro: its name, its parameters and its body's lines (file line number, text
/// with the brackets that delimit the body blanked).
#[derive(Debug)]
pub(crate) struct Define {
    pub name: String,
    pub name_span: Span,
    pub params: Vec<(String, Span)>,
    pub body: Vec<(u32, Arc<str>)>,
    /// Errors of the definition line (reported where the macro is defined).
    pub errors: Vec<SyntaxError>,
}

/// The note of a `)` where a `]` belongs.
const PAREN_NOTE: &str = "with --paren-closes-bracket, a ')' that closes nothing in a .DEFINE closes its '[' (the text of the Sargon book as typed has two such ')')";

/// A `.DEFINE` being read: the definition, where its line is in the output, and its body's
/// brackets.
struct Open {
    define: Define,
    /// Index of the `.DEFINE` line in the output.
    at: usize,
    /// The output index and the span of the `[` that opened the body, once it has.
    bracket: Option<(usize, u32, Span)>,
    depth: u32,
}

/// Parses the lines of a TDL file or macro expansion in order: `.RADIX` and `.DEFINE` change
/// how the lines after them are read.
pub(crate) struct Reader {
    syntax: Syntax,
    out: Vec<Parsed>,
    open: Option<Open>,
}

impl Reader {
    pub(crate) fn new(syntax: Syntax) -> Reader {
        Reader {
            syntax,
            out: Vec::new(),
            open: None,
        }
    }

    fn push(&mut self, stmt: super::Stmt) {
        self.out.push(Parsed {
            stmt,
            radix: self.syntax.radix,
        });
    }

    pub(crate) fn read(mut self, lines: &[(u32, Option<Arc<str>>)]) -> Vec<Parsed> {
        for (number, text) in lines {
            match text {
                None => self.push(empty()),
                Some(text) if self.open.is_some() => {
                    let stmt = match self.body_line(*number, text, 0) {
                        Some(e) => error_stmt(e),
                        None => empty(),
                    };
                    self.push(stmt);
                }
                Some(text) => self.line(*number, text),
            }
        }
        if let Some(open) = self.open.take() {
            let message = format!(
                "the file ends inside the body of macro '{}': its '[' has no ']'",
                open.define.name
            );
            let (at, span) = match open.bracket {
                Some((at, _, span)) => (at, span),
                None => (open.at, open.define.name_span),
            };
            self.out[at].stmt = error_stmt(SyntaxError::new(span, message));
        }
        self.out
    }

    /// A line outside any definition.
    fn line(&mut self, number: u32, text: &str) {
        let stmt = super::parse_line(&self.syntax, text);
        match &stmt.body {
            Body::Dir {
                dir: Dir::Radix,
                args,
                ..
            } => {
                if let Some(Ok(DirValue::Expr(Expr::Num(r)))) = args.first().map(|a| &a.value) {
                    self.syntax.radix = *r as u32;
                }
                self.push(stmt);
            }
            Body::Dir {
                dir: Dir::Define,
                span,
                ..
            } => {
                let span = *span;
                self.define(number, text, stmt.label.as_ref(), span);
            }
            _ => self.push(stmt),
        }
    }

    /// A `.DEFINE NAME[params]=` line: its header, and its body if the body starts here.
    fn define(&mut self, number: u32, text: &str, label: Option<&(String, Span)>, op: Span) {
        let (mut define, body_at) =
            match define_header(text, op.end as usize, self.syntax.paren_closes_bracket) {
                Ok(header) => header,
                Err(e) => return self.push(error_stmt(e)),
            };
        if let Some((_, span)) = label {
            define.errors.push(SyntaxError::new(
                *span,
                "a .DEFINE line takes no label (the macro's name follows .DEFINE)",
            ));
        }
        let at = self.out.len();
        self.open = Some(Open {
            define,
            at,
            bracket: None,
            depth: 0,
        });
        self.push(empty());
        let Some(e) = self.body_line(number, text, body_at) else {
            return;
        };
        // An error on the definition's own line goes with the definition (reported where the
        // macro is defined), or stands for it when there is none.
        match (&mut self.open, &mut self.out[at].stmt.body) {
            (Some(open), _) if open.at == at => open.define.errors.push(e),
            (_, Body::Define(define)) => Rc::get_mut(define).expect("just made").errors.push(e),
            _ => self.out[at].stmt = error_stmt(e),
        }
    }

    /// A line inside a definition from byte `from` on: its text joins the body, its brackets
    /// are counted (the body ends where they balance). Returns the error found on the line.
    fn body_line(&mut self, number: u32, text: &str, from: usize) -> Option<SyntaxError> {
        let paren_closes = self.syntax.paren_closes_bracket;
        let out_index = self.out.len();
        let open = self.open.as_mut().expect("inside a definition");
        let bytes = text.as_bytes();
        let mut line: Vec<u8> = bytes.to_vec();
        let code_end = code_end(text, from);
        let mut i = from;
        let mut error = None;
        if open.bracket.is_none() {
            while i < code_end && matches!(bytes[i], b' ' | b'\t') {
                i += 1;
            }
            if i >= code_end {
                // Blank or a comment: the body starts on a later line.
                return None;
            }
            if bytes[i] != b'[' {
                let name = std::mem::take(&mut open.define.name);
                self.open = None;
                return Some(SyntaxError::new(
                    Span::new(i, i + 1),
                    format!(
                        "expected '[' to open the body of macro '{name}' (.DEFINE NAME[params]=[body])"
                    ),
                ));
            }
            open.bracket = Some((out_index, number, Span::new(i, i + 1)));
            open.depth = 1;
            line[..=i].fill(b' ');
            i += 1;
        }
        let opened_on = open.bracket.map_or(number, |(_, n, _)| n);
        let mut parens = 0u32;
        let mut closed_at = None;
        while i < code_end {
            match bytes[i] {
                q @ (b'\'' | b'"') => {
                    if let Some(len) = bytes[i + 1..code_end].iter().position(|&b| b == q) {
                        i += len + 1;
                    }
                }
                b'[' => open.depth += 1,
                b']' => open.depth -= 1,
                b'(' => parens += 1,
                b')' if parens > 0 => parens -= 1,
                b')' => {
                    // A ')' that closes nothing: the typo of a ']', read as one.
                    if !paren_closes {
                        error = Some(
                            SyntaxError::new(
                                Span::new(i, i + 1),
                                format!(
                                    "')' closes nothing: the body of macro '{}' (its '[' on line {opened_on}) is still open (a ']' was meant?)",
                                    open.define.name
                                ),
                            )
                            .with_note(PAREN_NOTE),
                        );
                    }
                    open.depth -= 1;
                }
                _ => {}
            }
            if open.depth == 0 {
                closed_at = Some(i);
                break;
            }
            i += 1;
        }
        if let Some(at) = closed_at {
            line[at] = b' ';
            let after = &text[at + 1..code_end];
            if !after.trim().is_empty() && error.is_none() {
                let start = at + 1 + (after.len() - after.trim_start().len());
                error = Some(SyntaxError::new(
                    Span::new(start, at + 1 + after.trim_end().len()),
                    format!(
                        "text after the ']' that ends the body of macro '{}'",
                        open.define.name
                    ),
                ));
            }
            line.truncate(at + 1);
        }
        let body_text = String::from_utf8_lossy(&line).into_owned();
        open.define
            .body
            .push((number, Arc::from(body_text.trim_end())));
        if closed_at.is_some() {
            let open = self.open.take().expect("open");
            self.out[open.at].stmt = super::Stmt {
                label: None,
                body: Body::Define(Rc::new(open.define)),
            };
        }
        error
    }
}

fn error_stmt(e: SyntaxError) -> super::Stmt {
    super::Stmt {
        label: None,
        body: Body::Error(e),
    }
}

/// The header of `.DEFINE NAME[P1,P2]=` from byte `from` (after `.DEFINE`): the definition
/// (without body) and where its body may start (after the `=`).
fn define_header(
    text: &str,
    from: usize,
    paren_closes: bool,
) -> Result<(Define, usize), SyntaxError> {
    let bytes = text.as_bytes();
    let skip = |mut i: usize| {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    let is_name = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'@' | b'$');
    let word = |i: usize| {
        let mut j = i;
        while j < bytes.len() && is_name(bytes[j]) {
            j += 1;
        }
        j
    };
    let i = skip(from);
    let name_end = word(i);
    if name_end == i {
        return Err(SyntaxError::new(
            Span::new(i, (i + 1).min(text.len().max(i))),
            "expected the macro's name after .DEFINE (.DEFINE NAME[params]=[body])",
        ));
    }
    let mut define = Define {
        name: text[i..name_end].to_string(),
        name_span: Span::new(i, name_end),
        params: Vec::new(),
        body: Vec::new(),
        errors: Vec::new(),
    };
    let mut i = skip(name_end);
    if bytes.get(i) == Some(&b'[') {
        let open = i;
        i += 1;
        loop {
            i = skip(i);
            let end = word(i);
            if end > i {
                define
                    .params
                    .push((text[i..end].to_string(), Span::new(i, end)));
                i = skip(end);
            }
            match bytes.get(i) {
                Some(b',') => i += 1,
                Some(b']') => {
                    i += 1;
                    break;
                }
                Some(b')') => {
                    if !paren_closes {
                        define.errors.push(
                            SyntaxError::new(
                                Span::new(i, i + 1),
                                format!(
                                    "the parameter list of macro '{}' opened with '[' (column {}) ends with ')' (a ']' was meant?)",
                                    define.name,
                                    open + 1
                                ),
                            )
                            .with_note(PAREN_NOTE),
                        );
                    }
                    i += 1;
                    break;
                }
                _ => {
                    return Err(SyntaxError::new(
                        Span::new(i, (i + 1).min(text.len()).max(i)),
                        format!(
                            "expected a parameter name, ',' or ']' in the parameter list of macro '{}'",
                            define.name
                        ),
                    ));
                }
            }
        }
        i = skip(i);
    }
    if bytes.get(i) != Some(&b'=') {
        return Err(SyntaxError::new(
            Span::new(i, (i + 1).min(text.len()).max(i)),
            format!(
                "expected '=' after the name of macro '{}' (.DEFINE NAME[params]=[body])",
                define.name
            ),
        ));
    }
    Ok((define, i + 1))
}
