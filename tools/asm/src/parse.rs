//! Parsing one source line: label, operation, operands, expressions (with `nom`).
//!
//! A line is `[label[:]] [operation [operand {, operand}]] [; comment]`. The line is first cut
//! into those fields (respecting quotes and parentheses); each operand is then parsed by the
//! grammar its operation needs: an expression, a Z80 operand, a 6502 operand, a string.
//! Errors carry a byte span within the line so diagnostics can put a caret under them.

use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::{char, space0};
use nom::combinator::recognize;
use nom::error::{ErrorKind, ParseError};
use nom::sequence::pair;
use nom::{IResult, Parser};

use crate::expr::{BinOp, Expr, Span, UnOp};
use crate::isa::z80::Kw;

/// A parse failure: where (byte span in the line) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub span: Span,
    pub message: String,
    /// What to do about it, shown under the message.
    pub notes: Vec<String>,
}

impl SyntaxError {
    pub fn new(span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            span,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// The error with one more note.
    pub fn with_note(mut self, note: impl Into<String>) -> SyntaxError {
        self.notes.push(note.into());
        self
    }
}

// ---------------------------------------------------------------------------------------------
// nom plumbing

/// nom's error for our grammars: the input where it failed and, for failures we diagnose
/// ourselves, a message.
#[derive(Debug)]
struct PErr<'a> {
    input: &'a str,
    message: Option<String>,
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        PErr {
            input,
            message: None,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two alternatives that failed, keep the one that got further.
    fn or(self, other: Self) -> Self {
        if other.input.len() < self.input.len() {
            other
        } else {
            self
        }
    }
}

type Res<'a, T> = IResult<&'a str, T, PErr<'a>>;

fn failure<'a, T>(input: &'a str, message: impl Into<String>) -> Res<'a, T> {
    Err(nom::Err::Failure(PErr {
        input,
        message: Some(message.into()),
    }))
}

/// Spans are recorded while parsing as "bytes left in the input" (all nom inputs are suffixes
/// of the text being parsed) and turned into line offsets afterwards by [`fix_spans`].
fn left(input: &str) -> u32 {
    input.len() as u32
}

fn fix_spans(e: &mut Expr, text_len: usize, base: usize) {
    let fix = |s: &mut Span| {
        let start = base + text_len - s.start as usize;
        let end = base + text_len - s.end as usize;
        *s = Span::new(start, end);
    };
    match e {
        Expr::Sym(_, s) | Expr::Defined(_, s) => fix(s),
        Expr::Unary(_, a) => fix_spans(a, text_len, base),
        Expr::Binary(_, a, b, s) => {
            fix(s);
            fix_spans(a, text_len, base);
            fix_spans(b, text_len, base);
        }
        Expr::Num(_) | Expr::Pc => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '@'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '@' || c == '.'
}

/// A symbol name: `[A-Za-z_@][A-Za-z0-9_@.]*` (`@name` is a local label).
fn identifier(i: &str) -> Res<'_, &str> {
    recognize(pair(take_while1(is_ident_start), take_while(is_ident_char))).parse(i)
}

/// Whether `text` is a whole symbol name.
pub(crate) fn is_identifier(text: &str) -> bool {
    matches!(identifier(text), Ok(("", _)))
}

/// A number starting with a digit: decimal, `0FFh`, `0x1F`, `0b101`, `101b`.
fn digit_number(i: &str) -> Res<'_, i64> {
    let (rest, word) = take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(i)?;
    let parse = |digits: &str, radix: u32| -> Option<Result<i64, std::num::TryFromIntError>> {
        let digits: String = digits.chars().filter(|&c| c != '_').collect();
        if digits.is_empty() {
            return None;
        }
        u64::from_str_radix(&digits, radix).ok().map(i64::try_from)
    };
    let lower = word.to_ascii_lowercase();
    let value = if let Some(hex) = lower.strip_prefix("0x") {
        parse(hex, 16)
    } else if let Some(hex) = lower.strip_suffix('h') {
        parse(hex, 16)
    } else if let Some(bin) = lower
        .strip_prefix("0b")
        .filter(|b| b.chars().all(|c| c == '0' || c == '1'))
    {
        parse(bin, 2)
    } else if let Some(bin) = lower
        .strip_suffix('b')
        .filter(|b| b.chars().all(|c| c == '0' || c == '1'))
    {
        parse(bin, 2)
    } else {
        parse(&lower, 10)
    };
    match value {
        Some(Ok(v)) => Ok((rest, v)),
        Some(Err(_)) => failure(i, format!("number '{word}' does not fit in 64 bits")),
        None => failure(i, format!("invalid number '{word}'")),
    }
}

/// `$1F` (or `$` alone: the current address).
fn dollar(i: &str) -> Res<'_, Expr> {
    let (rest, _) = char('$').parse(i)?;
    let (after, digits) =
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(rest)?;
    if digits.is_empty() {
        return Ok((rest, Expr::Pc));
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    match u64::from_str_radix(&clean, 16).map(i64::try_from) {
        Ok(Ok(v)) => Ok((after, Expr::Num(v))),
        Ok(Err(_)) => failure(i, format!("number '${digits}' does not fit in 64 bits")),
        Err(_) => failure(i, format!("invalid hex number '${digits}'")),
    }
}

/// `%1010`.
fn percent(i: &str) -> Res<'_, Expr> {
    let (rest, _) = char('%').parse(i)?;
    let (after, digits) = take_while1(|c: char| c == '0' || c == '1' || c == '_').parse(rest)?;
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    match u64::from_str_radix(&clean, 2).map(i64::try_from) {
        Ok(Ok(v)) if !after.starts_with(|c: char| c.is_ascii_alphanumeric()) => {
            Ok((after, Expr::Num(v)))
        }
        _ => failure(i, "invalid binary number"),
    }
}

/// Why a character that is not ASCII cannot stand in a character literal or a `DB` string: an
/// 8-bit program's text is bytes, and a character beyond ASCII has no single byte that every
/// machine and assembler agrees on (Latin-1 says one, UTF-8 two).
pub(crate) fn not_ascii(c: char) -> String {
    let code = u32::from(c);
    let bytes: Vec<String> = c.to_string().bytes().map(|b| format!("${b:02X}")).collect();
    let hint = if code <= 0xFF {
        format!("${code:02X} in Latin-1, {} in UTF-8", bytes.join(" "))
    } else {
        format!("{} in UTF-8", bytes.join(" "))
    };
    format!("'{c}' (U+{code:04X}) is not ASCII: write the byte(s) you mean as numbers ({hint})")
}

/// `'c'` or `"c"`: the character code. Longer strings only make sense in `DB`.
fn char_literal(i: &str) -> Res<'_, Expr> {
    let quote = match i.chars().next() {
        Some(q @ ('\'' | '"')) => q,
        _ => {
            return Err(nom::Err::Error(PErr {
                input: i,
                message: None,
            }));
        }
    };
    let body = &i[1..];
    let Some(end) = body.find(quote) else {
        return failure(i, "unterminated character literal");
    };
    let inner = &body[..end];
    let mut chars = inner.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_ascii() => failure(i, not_ascii(c)),
        (Some(c), None) => Ok((&body[end + 1..], Expr::Num(c as i64))),
        (None, _) => failure(i, "empty character literal"),
        _ => failure(
            i,
            format!(
                "a string of {} characters is not a number (strings go in DB)",
                inner.chars().count()
            ),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions (C precedence, lowest first)

const LEVELS: &[&[(&str, BinOp)]] = &[
    &[("||", BinOp::LogOr)],
    &[("&&", BinOp::LogAnd)],
    &[("|", BinOp::Or)],
    &[("^", BinOp::Xor)],
    &[("&", BinOp::And)],
    &[
        ("==", BinOp::Eq),
        ("!=", BinOp::Ne),
        ("<>", BinOp::Ne),
        ("=", BinOp::Eq),
    ],
    &[
        ("<=", BinOp::Le),
        (">=", BinOp::Ge),
        ("<", BinOp::Lt),
        (">", BinOp::Gt),
    ],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)],
];

/// TDL's binary operators, lowest precedence first: `@` is the remainder, `!` the inclusive
/// or, `<` and `>` shift left and right (the TDL Z80 assembler's manual, 1977, as TPZASM reads
/// it).
const TDL_LEVELS: &[&[(&str, BinOp)]] = &[
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("@", BinOp::Mod)],
    &[("*", BinOp::Mul), ("/", BinOp::Div)],
    &[("&", BinOp::And), ("!", BinOp::Or), ("^", BinOp::Xor)],
    &[("<", BinOp::Shl), (">", BinOp::Shr)],
];

/// How expressions are read: Kempelen's grammar (C's operators, `$` and `*` for the current
/// address), or TDL's (its operators, `.` for the current address, numbers in the radix
/// `.RADIX` sets, `^H` `^D` `^O` `^B` prefixes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExprSyntax {
    /// TDL's grammar.
    pub tdl: bool,
    /// The radix of a number without a suffix (TDL only: Kempelen's is always 10).
    pub radix: u32,
}

impl ExprSyntax {
    /// Kempelen's grammar.
    pub const KEMPELEN: ExprSyntax = ExprSyntax {
        tdl: false,
        radix: 10,
    };
}

std::thread_local! {
    /// The grammar of the expression being parsed (set by [`parse_expr_in`]).
    static SYNTAX: std::cell::Cell<ExprSyntax> = const { std::cell::Cell::new(ExprSyntax::KEMPELEN) };
}

fn levels() -> &'static [&'static [(&'static str, BinOp)]] {
    if SYNTAX.get().tdl { TDL_LEVELS } else { LEVELS }
}

/// The operator of this level at the start of `i`, unless it is the start of a longer one.
fn level_operator<'a>(
    i: &'a str,
    ops: &[(&'static str, BinOp)],
) -> Option<(&'a str, BinOp, usize)> {
    for &(token, op) in ops {
        if let Some(rest) = i.strip_prefix(token) {
            let next = rest.chars().next();
            let longer = !SYNTAX.get().tdl
                && match token {
                    "|" => next == Some('|'),
                    "&" => next == Some('&'),
                    "<" => matches!(next, Some('<' | '=' | '>')),
                    ">" => matches!(next, Some('>' | '=')),
                    "=" => next == Some('='),
                    _ => false,
                };
            if !longer {
                return Some((rest, op, token.len()));
            }
        }
    }
    None
}

/// Parentheses, unary operators and functions nest at most this deep in one expression.
pub(crate) const MAX_EXPR_DEPTH: u32 = 64;
/// One expression has at most this many binary operators.
pub(crate) const MAX_EXPR_OPERATORS: u32 = 1000;

std::thread_local! {
    /// (nesting depth now, binary operators so far) of the expression being parsed: bounds
    /// the parser's recursion and the depth of the tree that evaluation walks.
    static BUDGET: std::cell::Cell<(u32, u32)> = const { std::cell::Cell::new((0, 0)) };
}

/// The failure (no other parse is tried) of an expression past its budget at `i`.
fn over_budget(i: &str, message: String) -> nom::Err<PErr<'_>> {
    nom::Err::Failure(PErr {
        input: i,
        message: Some(message),
    })
}

/// One level of nesting for as long as it lives.
struct Nested;

impl Nested {
    fn enter(i: &str) -> Result<Nested, nom::Err<PErr<'_>>> {
        let (depth, ops) = BUDGET.get();
        if depth >= MAX_EXPR_DEPTH {
            return Err(over_budget(
                i,
                format!(
                    "expression nested more than {MAX_EXPR_DEPTH} deep (parentheses, unary operators, functions)"
                ),
            ));
        }
        BUDGET.set((depth + 1, ops));
        Ok(Nested)
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        let (depth, ops) = BUDGET.get();
        BUDGET.set((depth.saturating_sub(1), ops));
    }
}

/// Counts one binary operator; fails past [`MAX_EXPR_OPERATORS`].
fn count_operator(i: &str) -> Result<(), nom::Err<PErr<'_>>> {
    let (depth, ops) = BUDGET.get();
    if ops >= MAX_EXPR_OPERATORS {
        let message = format!("expression has more than {MAX_EXPR_OPERATORS} operators");
        return Err(over_budget(i, message));
    }
    BUDGET.set((depth, ops + 1));
    Ok(())
}

fn binary(i: &str, level: usize) -> Res<'_, Expr> {
    let levels = levels();
    if level == levels.len() {
        return unary(i);
    }
    let (mut i, mut lhs) = binary(i, level + 1)?;
    loop {
        let (j, _) = space0(i)?;
        let Some((k, op, len)) = level_operator(j, levels[level]) else {
            return Ok((i, lhs));
        };
        let span = Span {
            start: left(j),
            end: left(j) - len as u32,
        };
        count_operator(j)?;
        let (k, _) = space0(k)?;
        let (k, rhs) = match binary(k, level + 1) {
            Ok(ok) => ok,
            Err(nom::Err::Error(_)) => return failure(k, "expected an operand after the operator"),
            Err(e) => return Err(e),
        };
        lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), span);
        i = k;
    }
}

fn unary(i: &str) -> Res<'_, Expr> {
    let (i, _) = space0(i)?;
    let tdl = SYNTAX.get().tdl;
    let op = match i.chars().next() {
        Some('-') if tdl => UnOp::Neg,
        Some('+') if tdl => UnOp::Plus,
        _ if tdl => return primary(i),
        Some('-') => UnOp::Neg,
        Some('+') => UnOp::Plus,
        Some('~') => UnOp::Not,
        Some('!') => UnOp::LogNot,
        Some('<') => UnOp::Low,
        Some('>') => UnOp::High,
        _ => return primary(i),
    };
    let _nested = Nested::enter(i)?;
    let (rest, e) = match unary(&i[1..]) {
        Ok(ok) => ok,
        Err(nom::Err::Error(_)) => {
            return failure(&i[1..], "expected an operand after the unary operator");
        }
        Err(e) => return Err(e),
    };
    Ok((rest, Expr::Unary(op, Box::new(e))))
}

fn parenthesized(i: &str) -> Res<'_, Expr> {
    let _nested = Nested::enter(i)?;
    let (i, _) = char('(').parse(i)?;
    let (i, e) = match binary(i, 0) {
        Ok(ok) => ok,
        Err(nom::Err::Error(_)) => return failure(i, "expected an expression after '('"),
        Err(e) => return Err(e),
    };
    let (i, _) = space0(i)?;
    match char::<&str, PErr>(')').parse(i) {
        Ok((i, _)) => Ok((i, e)),
        Err(_) => failure(i, "expected ')'"),
    }
}

/// `LOW(x)`, `HIGH(x)`, `DEFINED(name)`, or a symbol.
fn name_or_function(i: &str) -> Res<'_, Expr> {
    let start = left(i);
    let (rest, name) = identifier(i)?;
    let span = Span {
        start,
        end: left(rest),
    };
    let (after_space, _) = space0(rest)?;
    if let Some(inner) = after_space.strip_prefix('(') {
        let upper = name.to_ascii_uppercase();
        match upper.as_str() {
            "LOW" | "HIGH" => {
                let (rest, e) = parenthesized(after_space)?;
                let op = if upper == "LOW" {
                    UnOp::Low
                } else {
                    UnOp::High
                };
                return Ok((rest, Expr::Unary(op, Box::new(e))));
            }
            "DEFINED" => {
                let (inner, _) = space0(inner)?;
                let start = left(inner);
                let Ok((rest, sym)) = identifier(inner) else {
                    return failure(inner, "expected a symbol name in DEFINED()");
                };
                let span = Span {
                    start,
                    end: left(rest),
                };
                let (rest, _) = space0(rest)?;
                let Some(rest) = rest.strip_prefix(')') else {
                    return failure(rest, "expected ')'");
                };
                return Ok((rest, Expr::Defined(sym.to_string(), span)));
            }
            _ => {}
        }
    }
    Ok((rest, Expr::Sym(name.to_string(), span)))
}

/// The TDL primaries that Kempelen's grammar reads otherwise: `.` (the current address),
/// `^H1C` (a radix prefix), a number in the current radix, a character constant of up to two
/// characters. `None` for everything else.
fn tdl_primary(i: &str) -> Option<Res<'_, Expr>> {
    let mut chars = i.chars();
    let first = chars.next()?;
    let second = chars.next();
    match first {
        '.' if !second.is_some_and(is_ident_char) => Some(Ok((&i[1..], Expr::Pc))),
        '^' => {
            let radix = match second.map(|c| c.to_ascii_uppercase()) {
                Some('H') => 16,
                Some('D') => 10,
                Some('O' | 'Q') => 8,
                Some('B') => 2,
                _ => return Some(failure(i, "expected H, D, O, Q or B after '^' (a radix)")),
            };
            let (rest, digits) =
                match take_while1::<_, &str, PErr>(|c: char| c.is_ascii_alphanumeric())
                    .parse(&i[2..])
                {
                    Ok(ok) => ok,
                    Err(_) => return Some(failure(i, "expected digits after the radix")),
                };
            Some(radix_value(i, digits, radix).map(|v| (rest, Expr::Num(v))))
        }
        '\'' | '"' => Some(tdl_char(i, first)),
        c if c.is_ascii_digit() => Some(tdl_number(i)),
        _ => None,
    }
}

/// `digits` read in `radix`, or a failure at `at`.
fn radix_value<'a>(at: &'a str, digits: &str, radix: u32) -> Result<i64, nom::Err<PErr<'a>>> {
    match u64::from_str_radix(digits, radix) {
        Ok(v) => i64::try_from(v)
            .map_err(|_| over_budget(at, format!("number '{digits}' does not fit in 64 bits"))),
        Err(_) => {
            let what = match radix {
                16 => "hexadecimal",
                10 => "decimal",
                8 => "octal",
                _ => "binary",
            };
            Err(over_budget(at, format!("invalid {what} number '{digits}'")))
        }
    }
}

/// A TDL number: digits and letters in the current radix, or with a suffix: `H` (hex), `O` or
/// `Q` (octal), `B` (binary, in a radix up to 11, where `B` is no digit), `D` (decimal, in a
/// radix up to 13), or a trailing `.` (decimal). A suffix whose digits do not fit it is a digit
/// of the current radix (`0BD` in radix 16 is BDh).
fn tdl_number(i: &str) -> Res<'_, Expr> {
    let radix = SYNTAX.get().radix;
    let (rest, word) = take_while1(|c: char| c.is_ascii_alphanumeric()).parse(i)?;
    if let Some(after) = rest.strip_prefix('.')
        && word.bytes().all(|b| b.is_ascii_digit())
    {
        return radix_value(i, word, 10).map(|v| (after, Expr::Num(v)));
    }
    let upper = word.to_ascii_uppercase();
    let suffix = match upper.as_bytes()[upper.len() - 1] {
        b'H' => Some(16),
        b'O' | b'Q' => Some(8),
        b'B' if radix <= 11 => Some(2),
        b'D' if radix <= 13 => Some(10),
        _ => None,
    };
    if let Some(r) = suffix {
        let digits = &word[..word.len() - 1];
        if !digits.is_empty() && digits.chars().all(|c| c.is_digit(r)) {
            return radix_value(i, digits, r).map(|v| (rest, Expr::Num(v)));
        }
    }
    radix_value(i, word, radix).map(|v| (rest, Expr::Num(v)))
}

/// A TDL character constant: one character, or two (the first in the high byte).
fn tdl_char(i: &str, quote: char) -> Res<'_, Expr> {
    let body = &i[1..];
    let Some(end) = body.find(quote) else {
        return failure(i, "unterminated character constant");
    };
    let inner = &body[..end];
    if let Some(c) = inner.chars().find(|c| !c.is_ascii()) {
        return failure(i, not_ascii(c));
    }
    let value = match inner.as_bytes() {
        [] => return failure(i, "empty character constant"),
        [c] => i64::from(*c),
        [h, l] => i64::from(*h) << 8 | i64::from(*l),
        _ => {
            return failure(
                i,
                format!(
                    "a character constant has at most two characters, this one {} (strings go in .ASCII)",
                    inner.len()
                ),
            );
        }
    };
    Ok((&body[end + 1..], Expr::Num(value)))
}

fn primary(i: &str) -> Res<'_, Expr> {
    if SYNTAX.get().tdl
        && let Some(result) = tdl_primary(i)
    {
        return result;
    }
    match i.chars().next() {
        Some('(') => parenthesized(i),
        Some('$') => dollar(i),
        Some('%') => percent(i),
        Some('*') => Ok((&i[1..], Expr::Pc)),
        Some('\'' | '"') => char_literal(i),
        Some(c) if c.is_ascii_digit() => {
            let (rest, v) = digit_number(i)?;
            Ok((rest, Expr::Num(v)))
        }
        Some(c) if is_ident_start(c) => name_or_function(i),
        _ => Err(nom::Err::Error(PErr {
            input: i,
            message: None,
        })),
    }
}

/// [`parse_expr`] in the grammar `syntax`.
pub(crate) fn parse_expr_in(
    syntax: ExprSyntax,
    text: &str,
    base: usize,
) -> Result<Expr, SyntaxError> {
    let saved = SYNTAX.replace(syntax);
    let result = parse_expr(text, base);
    SYNTAX.set(saved);
    result
}

/// Parses all of `text` (which starts at byte `base` of its line) as one expression (in the
/// grammar [`parse_expr_in`] set, Kempelen's by default).
pub(crate) fn parse_expr(text: &str, base: usize) -> Result<Expr, SyntaxError> {
    let at = |rest: &str| base + text.len() - rest.len();
    let trimmed = text.trim_end();
    let saved = BUDGET.replace((0, 0));
    let parsed = binary(trimmed, 0);
    BUDGET.set(saved);
    match parsed {
        Ok((rest, mut e)) => {
            let (rest, _) = space0::<&str, PErr>(rest).expect("space0 cannot fail");
            if !rest.is_empty() {
                let end = at(trimmed.trim_end());
                let what = rest.chars().next().expect("not empty");
                return Err(SyntaxError::new(
                    Span::new(at(rest), end),
                    format!("unexpected '{what}' in expression"),
                ));
            }
            fix_spans(&mut e, text.len(), base);
            Ok(e)
        }
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let pos = at(e.input);
            let end = (pos + e.input.chars().next().map_or(1, char::len_utf8))
                .min(base + text.len())
                .max(pos);
            let message = e.message.unwrap_or_else(|| match e.input.chars().next() {
                None => "expected an expression".to_string(),
                Some(c) => format!("expected an expression, found '{c}'"),
            });
            Err(SyntaxError::new(Span::new(pos, end), message))
        }
        Err(nom::Err::Incomplete(_)) => Err(SyntaxError::new(
            Span::new(base, base + text.len()),
            "incomplete expression",
        )),
    }
}

/// A whole quoted string (`"text"` or `'text'`) with at least two characters or none: the bytes
/// of a `DB` string. One-character literals are numbers and go through [`parse_expr`].
pub(crate) fn string_literal(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let body = text[1..].strip_suffix(quote)?;
    if body.contains(quote) || body.chars().count() == 1 {
        return None;
    }
    Some(body)
}

// ---------------------------------------------------------------------------------------------
// Lines

/// A source line cut into its fields; each field is the text and its byte span.
#[derive(Debug, Default)]
pub(crate) struct RawLine<'a> {
    pub label: Option<(&'a str, Span)>,
    pub op: Option<(&'a str, Span)>,
    pub args: Vec<(&'a str, Span)>,
    /// Span of everything after the operation (for "unexpected operand" messages).
    pub operands_span: Span,
    pub error: Option<SyntaxError>,
}

/// Whether the `'` at byte `i` ends `AF'` (the only place a quote is not a string delimiter).
fn is_af_prime(bytes: &[u8], i: usize) -> bool {
    i >= 2
        && bytes[i - 2].eq_ignore_ascii_case(&b'a')
        && bytes[i - 1].eq_ignore_ascii_case(&b'f')
        && (i == 2 || !is_ident_char(bytes[i - 3] as char))
}

/// The end of the code part (where `;` starts the comment), or an error for an unterminated
/// string.
fn code_end(text: &str) -> Result<usize, SyntaxError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b';' => return Ok(i),
            q @ (b'"' | b'\'') if !(q == b'\'' && is_af_prime(bytes, i)) => {
                match bytes[i + 1..].iter().position(|&b| b == q) {
                    Some(len) => i += len + 2,
                    None => {
                        return Err(SyntaxError::new(
                            Span::new(i, text.len()),
                            "unterminated string (missing closing quote)",
                        ));
                    }
                }
            }
            _ => i += 1,
        }
    }
    Ok(text.len())
}

/// Splits `text[start..end]` at commas outside parentheses and quotes.
fn split_operands<'a>(
    text: &'a str,
    start: usize,
    end: usize,
) -> Result<Vec<(&'a str, Span)>, SyntaxError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut piece_start = start;
    let mut i = start;
    let push =
        |from: usize, to: usize, out: &mut Vec<(&'a str, Span)>| -> Result<(), SyntaxError> {
            let piece = &text[from..to];
            let lead = piece.len() - piece.trim_start().len();
            let trimmed = piece.trim();
            if trimmed.is_empty() {
                return Err(SyntaxError::new(
                    Span::new(from, to.max(from + 1).min(text.len().max(from))),
                    "empty operand",
                ));
            }
            out.push((trimmed, Span::new(from + lead, from + lead + trimmed.len())));
            Ok(())
        };
    while i < end {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            q @ (b'"' | b'\'') if !(q == b'\'' && is_af_prime(bytes, i)) => {
                if let Some(len) = bytes[i + 1..end].iter().position(|&b| b == q) {
                    i += len + 1;
                }
            }
            b',' if depth <= 0 => {
                push(piece_start, i, &mut out)?;
                piece_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(piece_start, end, &mut out)?;
    Ok(out)
}

fn skip_spaces(text: &str, mut i: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    while i < end && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    i
}

/// A label or operation word at `i`: a symbol name, a directive with a leading dot, or `=`.
fn word_at(text: &str, i: usize, end: usize) -> Option<usize> {
    let rest = &text[i..end];
    if rest.starts_with('=') {
        return Some(i + 1);
    }
    let body = rest.strip_prefix('.').unwrap_or(rest);
    let offset = rest.len() - body.len();
    match identifier(body) {
        Ok((after, _)) => Some(i + offset + body.len() - after.len()),
        Err(_) => None,
    }
}

/// An error at the character at `i`: `what` with the character.
fn unexpected_char(text: &str, i: usize, what: &str) -> SyntaxError {
    let c = text[i..].chars().next().expect("not at end");
    SyntaxError::new(
        Span::new(i, i + c.len_utf8()),
        format!("{what}, found '{c}'"),
    )
}

/// Cuts a line into label, operation and operands. `is_operation` tells mnemonics and
/// directives from labels for a word in column 1 without a colon.
pub(crate) fn split_line<'a>(text: &'a str, is_operation: &dyn Fn(&str) -> bool) -> RawLine<'a> {
    let mut line = RawLine::default();
    let end = match code_end(text) {
        Ok(end) => end,
        Err(e) => {
            line.error = Some(e);
            return line;
        }
    };
    let i = skip_spaces(text, 0, end);
    if i == end || pc_assignment(text, i, end, &mut line) {
        return line;
    }
    let Some(i) = label_and_operation(text, i, end, is_operation, &mut line) else {
        return line;
    };
    if line.op.is_none() {
        return line;
    }
    let bytes = text.as_bytes();
    if i < end && !matches!(bytes[i], b' ' | b'\t') && line.op.is_some_and(|(o, _)| o != "=") {
        line.error = Some(unexpected_char(
            text,
            i,
            "expected a space before the operands",
        ));
        return line;
    }
    let k = skip_spaces(text, i, end);
    let operands_end = text[..end].trim_end().len().max(k);
    line.operands_span = Span::new(k, operands_end);
    if k < operands_end {
        match split_operands(text, k, operands_end) {
            Ok(args) => line.args = args,
            Err(e) => line.error = Some(e),
        }
    }
    line
}

/// `*= expr` at `i` (the address, as in many 6502 assemblers): fills `line` and returns true.
fn pc_assignment<'a>(text: &'a str, i: usize, end: usize, line: &mut RawLine<'a>) -> bool {
    if !text[i..end].starts_with('*') {
        return false;
    }
    let j = skip_spaces(text, i + 1, end);
    if !text[j..end].starts_with('=') {
        return false;
    }
    line.op = Some(("*=", Span::new(i, j + 1)));
    let k = skip_spaces(text, j + 1, end);
    line.operands_span = Span::new(k, end);
    match split_operands(text, k, end) {
        Ok(args) if k < end => line.args = args,
        Ok(_) => {}
        Err(e) => line.error = Some(e),
    }
    true
}

/// The label and the operation of the line from its first word at `i`: fills `line.label` and
/// `line.op` and returns where the operation ends (`None` after an error, which is in `line`).
fn label_and_operation<'a>(
    text: &'a str,
    mut i: usize,
    end: usize,
    is_operation: &dyn Fn(&str) -> bool,
    line: &mut RawLine<'a>,
) -> Option<usize> {
    let column_one = i == 0;
    let Some(w1_end) = word_at(text, i, end) else {
        line.error = Some(unexpected_char(
            text,
            i,
            "expected a label, mnemonic or directive",
        ));
        return None;
    };
    let w1 = (&text[i..w1_end], Span::new(i, w1_end));
    let mut op = None;
    if text[w1_end..end].starts_with(':') && w1.0 != "=" {
        line.label = Some(w1);
        i = skip_spaces(text, w1_end + 1, end);
    } else {
        let j = skip_spaces(text, w1_end, end);
        let w2 = word_at(text, j, end).map(|e| (&text[j..e], Span::new(j, e)));
        let defines = w2.is_some_and(|(w, _)| {
            w == "="
                || ["EQU", ".EQU", "MACRO", ".MACRO"]
                    .iter()
                    .any(|k| w.eq_ignore_ascii_case(k))
        });
        // In column 1 a word is a label unless it is an operation; an operation name followed
        // by another operation (`sub ret`) is a label too.
        let label_in_column_one =
            column_one && (!is_operation(w1.0) || w2.is_some_and(|(w, _)| is_operation(w)));
        if w1.0 != "=" && (defines || label_in_column_one) {
            line.label = Some(w1);
            i = j;
        } else {
            op = Some(w1);
            i = w1_end;
        }
    }
    if op.is_none() && i < end {
        let Some(e) = word_at(text, i, end) else {
            line.error = Some(unexpected_char(text, i, "expected a mnemonic or directive"));
            return None;
        };
        op = Some((&text[i..e], Span::new(i, e)));
        i = e;
    }
    line.op = op;
    Some(i)
}

// ---------------------------------------------------------------------------------------------
// Operands

/// Whether `text` is `( ... )` with the first parenthesis closed by the last character.
pub(crate) fn wrapped_in_parens(text: &str) -> bool {
    if !text.starts_with('(') || !text.ends_with(')') {
        return false;
    }
    let bytes = text.as_bytes();
    let mut depth = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i == bytes.len() - 1;
                }
            }
            q @ (b'"' | b'\'') if !(q == b'\'' && is_af_prime(bytes, i)) => {
                if let Some(len) = bytes[i + 1..].iter().position(|&b| b == q) {
                    i += len + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// One Z80 operand as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Z80Arg {
    /// A register, pair or condition: `A`, `HL`, `AF'`, `NZ`.
    Word(Kw),
    /// A register in parentheses: `(HL)`, `(C)`, `(IX)`.
    Ind(Kw),
    /// `(IX+d)`, `(IY-d)`.
    Indexed(Kw, Expr),
    /// An expression in parentheses: `(nn)` or `(n)`.
    Mem(Expr),
    /// An expression.
    Expr(Expr),
}

/// Parses one Z80 operand that starts at byte `base` of its line.
pub(crate) fn parse_z80_arg(text: &str, base: usize) -> Result<Z80Arg, SyntaxError> {
    if let Some(kw) = Kw::parse(text) {
        return Ok(Z80Arg::Word(kw));
    }
    if wrapped_in_parens(text) {
        let inner_full = &text[1..text.len() - 1];
        let lead = inner_full.len() - inner_full.trim_start().len();
        let inner = inner_full.trim();
        let inner_base = base + 1 + lead;
        if let Some(kw) = Kw::parse(inner) {
            return Ok(Z80Arg::Ind(kw));
        }
        if inner.len() > 2 && inner.is_char_boundary(2) {
            let (reg, rest) = inner.split_at(2);
            let kw = Kw::parse(reg).filter(|k| matches!(k, Kw::IX | Kw::IY));
            let rest_trim = rest.trim_start();
            if let Some(kw) = kw
                && (rest_trim.starts_with('+') || rest_trim.starts_with('-'))
            {
                let offset = inner_base + 2 + (rest.len() - rest_trim.len());
                return Ok(Z80Arg::Indexed(kw, parse_expr(rest_trim, offset)?));
            }
        }
        return Ok(Z80Arg::Mem(parse_expr(inner, inner_base)?));
    }
    Ok(Z80Arg::Expr(parse_expr(text, base)?))
}

/// An index register suffix on a 6502 operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Index {
    X,
    Y,
}

/// A size forced by a ca65 prefix: `a:` absolute, `z:` zero page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Force {
    Absolute,
    ZeroPage,
}

/// A 6502 operand as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MosArg {
    /// No operand.
    None,
    /// `A`.
    Acc,
    /// `#expr`.
    Imm(Expr),
    /// `expr`, `expr,X`, `expr,Y`: absolute, zero page or relative.
    Addr {
        expr: Expr,
        index: Option<Index>,
        force: Option<Force>,
    },
    /// `(expr)`.
    Ind(Expr),
    /// `(expr,X)`.
    IndX(Expr),
    /// `(expr),Y`.
    IndY(Expr),
    /// `zp,target`: the 65C02's bit branches (`BBR0 $10,label`), with each operand's span.
    BitBranch {
        zp: Expr,
        zp_span: Span,
        target: Expr,
        target_span: Span,
    },
}

fn index_register(text: &str) -> Option<Index> {
    if text.eq_ignore_ascii_case("x") {
        Some(Index::X)
    } else if text.eq_ignore_ascii_case("y") {
        Some(Index::Y)
    } else {
        None
    }
}

fn forced(text: &str, base: usize) -> (Option<Force>, &str, usize) {
    let lower = text.get(..2).map(str::to_ascii_lowercase);
    match lower.as_deref() {
        Some("a:") => (
            Some(Force::Absolute),
            text[2..].trim_start(),
            base + text.len() - text[2..].trim_start().len(),
        ),
        Some("z:") => (
            Some(Force::ZeroPage),
            text[2..].trim_start(),
            base + text.len() - text[2..].trim_start().len(),
        ),
        _ => (None, text, base),
    }
}

/// Parses the operands of a 6502 instruction (already split at top-level commas).
/// The operands of a 6502 instruction. `bit_branch`: the mnemonic is a bit branch (`BBRn`,
/// `BBSn`), whose two operands are a zero-page address and a branch target rather than a value
/// and an index register.
pub(crate) fn parse_6502_args(
    args: &[(&str, Span)],
    bit_branch: bool,
) -> Result<MosArg, SyntaxError> {
    if bit_branch && let [(zp, zp_span), (target, target_span)] = args {
        let (zp_span, target_span) = (*zp_span, *target_span);
        return Ok(MosArg::BitBranch {
            zp: parse_expr(zp, zp_span.start as usize)?,
            zp_span,
            target: parse_expr(target, target_span.start as usize)?,
            target_span,
        });
    }
    match args {
        [] => Ok(MosArg::None),
        [(text, span)] => {
            let base = span.start as usize;
            if text.eq_ignore_ascii_case("a") {
                return Ok(MosArg::Acc);
            }
            if let Some(rest) = text.strip_prefix('#') {
                let trimmed = rest.trim_start();
                return Ok(MosArg::Imm(parse_expr(
                    trimmed,
                    base + text.len() - trimmed.len(),
                )?));
            }
            if wrapped_in_parens(text) {
                let inner = &text[1..text.len() - 1];
                // (expr,X): the comma is inside the parentheses.
                if let Some((expr, reg)) = inner.rsplit_once(',')
                    && index_register(reg.trim()) == Some(Index::X)
                {
                    let lead = expr.len() - expr.trim_start().len();
                    return Ok(MosArg::IndX(parse_expr(expr.trim(), base + 1 + lead)?));
                }
                let lead = inner.len() - inner.trim_start().len();
                return Ok(MosArg::Ind(parse_expr(inner.trim(), base + 1 + lead)?));
            }
            let (force, text, base) = forced(text, base);
            Ok(MosArg::Addr {
                expr: parse_expr(text, base)?,
                index: None,
                force,
            })
        }
        [(text, span), (reg, reg_span)] => {
            let base = span.start as usize;
            let Some(index) = index_register(reg) else {
                return Err(SyntaxError::new(
                    *reg_span,
                    format!("expected X or Y after the comma, found '{reg}'"),
                ));
            };
            if wrapped_in_parens(text) {
                let inner = &text[1..text.len() - 1];
                let lead = inner.len() - inner.trim_start().len();
                let expr = parse_expr(inner.trim(), base + 1 + lead)?;
                return match index {
                    Index::Y => Ok(MosArg::IndY(expr)),
                    Index::X => Err(SyntaxError::new(
                        Span::new(base, reg_span.end as usize),
                        "'(zp),X' does not exist: write '(zp,X)' for indexed indirect",
                    )),
                };
            }
            let (force, text, base) = forced(text, base);
            Ok(MosArg::Addr {
                expr: parse_expr(text, base)?,
                index: Some(index),
                force,
            })
        }
        [_, _, (_, extra), ..] => Err(SyntaxError::new(
            *extra,
            "too many operands: a 6502 instruction takes at most 'value,X'",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoEnv;
    impl crate::expr::Env for NoEnv {
        fn lookup(&self, name: &str) -> Option<i64> {
            (name == "ten").then_some(10)
        }
        fn is_defined(&self, name: &str) -> bool {
            name == "ten"
        }
        fn pc(&self) -> i64 {
            0x1000
        }
    }

    fn value(text: &str) -> i64 {
        parse_expr(text, 0)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
            .eval(&NoEnv)
            .unwrap()
    }

    #[test]
    fn numbers_in_every_notation() {
        for (text, want) in [
            ("255", 255),
            ("$FF", 255),
            ("0FFh", 255),
            ("0xff", 255),
            ("%1010", 10),
            ("1010b", 10),
            ("'A'", 65),
            ("\"a\"", 97),
            ("$", 0x1000),
            ("*+2", 0x1002),
        ] {
            assert_eq!(value(text), want, "{text}");
        }
    }

    #[test]
    fn precedence_and_operators() {
        for (text, want) in [
            ("2+3*4", 14),
            ("(2+3)*4", 20),
            ("1<<4|1", 17),
            ("10%3", 1),
            ("ten*ten-1", 99),
            ("<$1234", 0x34),
            (">$1234", 0x12),
            ("LOW($1234)+HIGH($1234)", 0x46),
            ("-1", -1),
            ("~0 & $FF", 255),
            ("3 <> 4", 1),
            ("3 = 3 && 2 > 1", 1),
            ("DEFINED(ten) + defined(eleven)", 1),
        ] {
            assert_eq!(value(text), want, "{text}");
        }
    }

    #[test]
    fn expression_errors_point_at_the_problem() {
        let e = parse_expr("1 + )", 10).unwrap_err();
        assert_eq!(e.span.start, 14);
        let e = parse_expr("$G1", 0).unwrap_err();
        assert!(e.message.contains("invalid hex"), "{e:?}");
        let e = parse_expr("(1+2", 0).unwrap_err();
        assert!(e.message.contains("')'"), "{e:?}");
        let e = parse_expr("12ab", 0).unwrap_err();
        assert!(e.message.contains("invalid number"), "{e:?}");
        let e = parse_expr("", 0).unwrap_err();
        assert!(e.message.contains("expected an expression"), "{e:?}");
        let e = parse_expr("'ab'", 0).unwrap_err();
        assert!(e.message.contains("strings go in DB"), "{e:?}");
    }

    fn is_op(w: &str) -> bool {
        ["ld", "nop", "db", ".byte", "lda"]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(w))
    }

    #[test]
    fn lines_are_cut_into_fields() {
        let l = split_line("start:  ld a,(ix+5) ; comment", &is_op);
        assert_eq!(l.label.unwrap().0, "start");
        assert_eq!(l.op.unwrap().0, "ld");
        assert_eq!(
            l.args.iter().map(|a| a.0).collect::<Vec<_>>(),
            ["a", "(ix+5)"]
        );
        assert_eq!(l.args[1].1, Span::new(13, 19));

        let l = split_line("loop dec b", &is_op);
        assert_eq!((l.label.unwrap().0, l.op.unwrap().0), ("loop", "dec"));
        let l = split_line("nop", &is_op);
        assert!(l.label.is_none() && l.op.unwrap().0 == "nop");
        let l = split_line("  size equ 10", &is_op);
        assert_eq!((l.label.unwrap().0, l.op.unwrap().0), ("size", "equ"));
        let l = split_line("zp=$10", &is_op);
        assert_eq!(
            (l.label.unwrap().0, l.op.unwrap().0, l.args[0].0),
            ("zp", "=", "$10")
        );
        let l = split_line("  ex af,af' ; swap", &is_op);
        assert_eq!(
            l.args.iter().map(|a| a.0).collect::<Vec<_>>(),
            ["af", "af'"]
        );
        let l = split_line("  db \"a;b\",';',0", &is_op);
        assert_eq!(
            l.args.iter().map(|a| a.0).collect::<Vec<_>>(),
            ["\"a;b\"", "';'", "0"]
        );
        let l = split_line("  .byte 1,2", &is_op);
        assert_eq!(l.op.unwrap().0, ".byte");
        let l = split_line("@loop: dex", &is_op);
        assert_eq!(l.label.unwrap().0, "@loop");
        let l = split_line("*= $1000", &is_op);
        assert_eq!((l.op.unwrap().0, l.args[0].0), ("*=", "$1000"));
    }

    #[test]
    fn line_errors() {
        assert!(
            split_line("  db \"abc", &is_op)
                .error
                .unwrap()
                .message
                .contains("unterminated")
        );
        assert!(
            split_line("  db 1,,2", &is_op)
                .error
                .unwrap()
                .message
                .contains("empty operand")
        );
        assert!(split_line("  ?", &is_op).error.is_some());
    }

    #[test]
    fn z80_operands() {
        assert_eq!(parse_z80_arg("a", 0), Ok(Z80Arg::Word(Kw::A)));
        assert_eq!(parse_z80_arg("(hl)", 0), Ok(Z80Arg::Ind(Kw::HL)));
        assert!(matches!(
            parse_z80_arg("(ix-5)", 0),
            Ok(Z80Arg::Indexed(Kw::IX, _))
        ));
        assert!(matches!(
            parse_z80_arg("( iy + 5 )", 0),
            Ok(Z80Arg::Indexed(Kw::IY, _))
        ));
        assert!(matches!(parse_z80_arg("(1234h)", 0), Ok(Z80Arg::Mem(_))));
        assert!(matches!(parse_z80_arg("(1)+(2)", 0), Ok(Z80Arg::Expr(_))));
        assert!(matches!(parse_z80_arg("ixh", 0), Ok(Z80Arg::Expr(_))));
    }

    #[test]
    fn mos6502_operands() {
        let args = |t: &'static str| {
            let l = split_line(Box::leak(format!(" lda {t}").into_boxed_str()), &is_op);
            parse_6502_args(&l.args, false)
        };
        assert_eq!(args("a"), Ok(MosArg::Acc));
        assert!(matches!(args("#$10"), Ok(MosArg::Imm(Expr::Num(16)))));
        assert!(matches!(args("($10,x)"), Ok(MosArg::IndX(_))));
        assert!(matches!(args("($10),y"), Ok(MosArg::IndY(_))));
        assert!(matches!(args("($1234)"), Ok(MosArg::Ind(_))));
        assert!(matches!(
            args("$1234,x"),
            Ok(MosArg::Addr {
                index: Some(Index::X),
                force: None,
                ..
            })
        ));
        assert!(matches!(
            args("a:$10"),
            Ok(MosArg::Addr {
                force: Some(Force::Absolute),
                ..
            })
        ));
        assert!(args("($10),x").is_err());
        assert!(args("$10,z").is_err());
        // A bit branch's two operands: a zero-page address and a target.
        let l = split_line(" bbr0 $10,loop", &is_op);
        assert!(matches!(
            parse_6502_args(&l.args, true),
            Ok(MosArg::BitBranch {
                zp: Expr::Num(16),
                target: Expr::Sym(..),
                ..
            })
        ));
    }
}
