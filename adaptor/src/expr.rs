//! Expressions in adaptor files: where a variable lives, which ply the search is at, the
//! value it backs up, when a point of the code counts. Read once when the file is read (names
//! resolved to symbols, declared variables or registers, each error at its column) and
//! evaluated at every stop against the machine.
//!
//! Numbers: decimal (`12`), hexadecimal `$0C`, `0x0C` or `0CH` (the listings' ways). Names: a
//! declared variable (`[[variable]]` of type byte, sbyte or word: its value now), else a
//! symbol of the assembled images (its address; `O.O.O` and other TDL names with dots are
//! names); a counter of `[[count]]` (how often the program passed a point). Functions: `byte(a)`, `sbyte(a)` (signed), `word(a)` (little-endian) read memory,
//! `reg(A)` reads a register (`A`, `F`, `BC`, `HL`, `IX`, `SP`, `X`, `Y`, `P`, ... as the CPU
//! names them). Operators, lowest first: `||`, `&&`, `== != < <= > >=`, `|`, `^`, `&`,
//! `<< >>`, `+ -`, `* / %`, unary `- ! ~`; parentheses. Arithmetic is on 64-bit integers;
//! a comparison is 1 or 0.
//!
//! ```
//! use kempelen_adaptor::expr::{Expr, Names};
//! let names = Names::symbols(vec![("SCORE".to_string(), 0x0150)]);
//! let e = Expr::parse("SCORE + 2*3 - $10", &names).unwrap();
//! assert_eq!(e.constant(), Some(0x0150 + 6 - 16));
//! assert!(Expr::parse("NOSUCH + 1", &names).unwrap_err().to_string().contains("NOSUCH"));
//! ```

use kempelen_emulator::{Machine, Registers};

/// Why an expression does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}`, column {col}: {message}")]
pub struct ExprError {
    /// The expression.
    pub text: String,
    /// The column (from 1) where it goes wrong.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// What names mean in an expression: symbols (addresses) and the scalar variables declared so
/// far (read from memory when evaluated).
#[derive(Clone, Debug, Default)]
pub struct Names {
    symbols: Vec<(String, u16)>,
    /// (name, address, kind): `b` byte, `s` signed byte, `w` word.
    variables: Vec<(String, u16, char)>,
    /// Counters the host keeps (`[[count]]`), read by name when evaluated.
    counters: Vec<String>,
}

impl Names {
    /// Names for the symbols of an assembled program.
    pub fn symbols(symbols: Vec<(String, u16)>) -> Names {
        Names {
            symbols,
            variables: Vec::new(),
            counters: Vec::new(),
        }
    }

    /// Declares a counter the host keeps (its value is passed when evaluated).
    pub(crate) fn declare_counter(&mut self, name: &str) {
        self.counters.push(name.to_string());
    }

    /// Declares a scalar variable (`kind`: `b` byte, `s` signed byte, `w` word).
    pub(crate) fn declare(&mut self, name: &str, at: u16, kind: char) {
        self.variables.push((name.to_string(), at, kind));
    }

    fn lookup(&self, name: &str) -> Option<Node> {
        if self.counters.iter().any(|c| c == name) {
            return Some(Node::Reg(name.to_string()));
        }
        if let Some((_, at, kind)) = self.variables.iter().rev().find(|(n, _, _)| n == name) {
            return Some(Node::Read(*kind, Box::new(Node::Const(i64::from(*at)))));
        }
        let exact = self.symbols.iter().find(|(n, _)| n == name);
        exact
            .or_else(|| {
                self.symbols
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
            })
            .map(|(_, v)| Node::Const(i64::from(*v)))
    }
}

/// Where an expression reads the machine: its memory and registers.
pub trait Machineish {
    /// The byte at `addr`.
    fn byte(&self, addr: u16) -> u8;
    /// A register's value, if the CPU has one by that name and the core shows it.
    fn register(&self, name: &str) -> Option<i64>;
}

impl Machineish for Machine {
    fn byte(&self, addr: u16) -> u8 {
        self.read_byte(addr)
    }

    fn register(&self, name: &str) -> Option<i64> {
        register_of(&self.registers(), name)
    }
}

/// A machine with the counters a host keeps beside it (`[[count]]`): expressions read the
/// counters by name, and everything else from the machine.
pub struct WithCounters<'a> {
    /// The machine.
    pub machine: &'a dyn Machineish,
    /// The counters, by name.
    pub counters: &'a [(String, i64)],
}

impl Machineish for WithCounters<'_> {
    fn byte(&self, addr: u16) -> u8 {
        self.machine.byte(addr)
    }

    fn register(&self, name: &str) -> Option<i64> {
        match self.counters.iter().find(|(n, _)| n == name) {
            Some((_, v)) => Some(*v),
            None => self.machine.register(name),
        }
    }
}

/// A register's value by name (any case): every register the core shows, and on the Z80 the
/// halves of its pairs (`A`, `F`, `B`, `C`, `D`, `E`, `H`, `L`).
pub fn register_of(r: &Registers, name: &str) -> Option<i64> {
    let name = name.to_ascii_uppercase();
    if let Some(v) = r.values().iter().find(|v| v.name == name) {
        return Some(i64::from(v.value));
    }
    let Registers::Z80(z) = r else { return None };
    let m = z.main?;
    let (pair, high) = match name.as_str() {
        "A" => (m.af, true),
        "F" => (m.af, false),
        "B" => (m.bc, true),
        "C" => (m.bc, false),
        "D" => (m.de, true),
        "E" => (m.de, false),
        "H" => (m.hl, true),
        "L" => (m.hl, false),
        _ => return None,
    };
    Some(i64::from(if high { pair >> 8 } else { pair & 0xFF }))
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Const(i64),
    /// A memory read: `b` byte, `s` signed byte, `w` word.
    Read(char, Box<Node>),
    Reg(String),
    Unary(char, Box<Node>),
    Binary(&'static str, Box<Node>, Box<Node>),
}

/// An expression of an adaptor file, its names resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    text: String,
    node: Node,
}

/// Why an evaluation has no value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// The core does not show the register (the default Z80 core hides A, F, BC, DE, HL).
    #[error("`{expr}`: the CPU core does not show register {register}")]
    Register {
        /// The expression.
        expr: String,
        /// The register.
        register: String,
    },
    /// A division by zero.
    #[error("`{0}`: division by zero")]
    DivideByZero(String),
}

impl Expr {
    /// Reads `text` with `names`.
    pub fn parse(text: &str, names: &Names) -> Result<Expr, ExprError> {
        let mut p = Parser {
            text,
            chars: text.char_indices().collect(),
            at: 0,
            names,
        };
        let node = p.or()?;
        p.skip_space();
        if p.at < p.chars.len() {
            return Err(p.error("expected an operator or the end"));
        }
        Ok(Expr {
            text: text.to_string(),
            node,
        })
    }

    /// The expression as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its value when it reads no memory and no register.
    pub fn constant(&self) -> Option<i64> {
        fold(&self.node)
    }

    /// Its value on `m`.
    pub fn eval(&self, m: &dyn Machineish) -> Result<i64, EvalError> {
        self.eval_with(m, &[])
    }

    /// Its value on `m`, with extra names bound (`entry` in a move's fields).
    pub(crate) fn eval_with(
        &self,
        m: &dyn Machineish,
        bound: &[(&str, i64)],
    ) -> Result<i64, EvalError> {
        eval(&self.node, m, bound, &self.text)
    }
}

fn fold(n: &Node) -> Option<i64> {
    match n {
        Node::Const(v) => Some(*v),
        Node::Read(..) | Node::Reg(_) => None,
        Node::Unary(op, a) => Some(unary(*op, fold(a)?)),
        Node::Binary(op, a, b) => binary(op, fold(a)?, fold(b)?).ok(),
    }
}

fn unary(op: char, v: i64) -> i64 {
    match op {
        '-' => v.wrapping_neg(),
        '!' => i64::from(v == 0),
        _ => !v,
    }
}

fn binary(op: &str, a: i64, b: i64) -> Result<i64, ()> {
    Ok(match op {
        "||" => i64::from(a != 0 || b != 0),
        "&&" => i64::from(a != 0 && b != 0),
        "==" => i64::from(a == b),
        "!=" => i64::from(a != b),
        "<" => i64::from(a < b),
        "<=" => i64::from(a <= b),
        ">" => i64::from(a > b),
        ">=" => i64::from(a >= b),
        "|" => a | b,
        "^" => a ^ b,
        "&" => a & b,
        "<<" => a.wrapping_shl(b.clamp(0, 63) as u32),
        ">>" => a.wrapping_shr(b.clamp(0, 63) as u32),
        "+" => a.wrapping_add(b),
        "-" => a.wrapping_sub(b),
        "*" => a.wrapping_mul(b),
        "/" if b == 0 => return Err(()),
        "/" => a.wrapping_div(b),
        "%" if b == 0 => return Err(()),
        _ => a.wrapping_rem(b),
    })
}

fn eval(n: &Node, m: &dyn Machineish, bound: &[(&str, i64)], text: &str) -> Result<i64, EvalError> {
    Ok(match n {
        Node::Const(v) => *v,
        Node::Read(kind, a) => {
            let at = eval(a, m, bound, text)? as u16;
            match kind {
                'b' => i64::from(m.byte(at)),
                's' => i64::from(m.byte(at) as i8),
                _ => i64::from(u16::from_le_bytes([m.byte(at), m.byte(at.wrapping_add(1))])),
            }
        }
        Node::Reg(name) => match bound.iter().find(|(b, _)| *b == name) {
            Some((_, v)) => *v,
            None => m.register(name).ok_or_else(|| EvalError::Register {
                expr: text.to_string(),
                register: name.clone(),
            })?,
        },
        Node::Unary(op, a) => unary(*op, eval(a, m, bound, text)?),
        Node::Binary(op, a, b) => {
            let (a, b) = (eval(a, m, bound, text)?, eval(b, m, bound, text)?);
            binary(op, a, b).map_err(|()| EvalError::DivideByZero(text.to_string()))?
        }
    })
}

/// Names bound while an expression is read (`entry` in a move's fields): read as registers
/// are, from the values given at evaluation.
pub(crate) const BOUND: &[&str] = &["entry"];

struct Parser<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    at: usize,
    names: &'a Names,
}

/// The binary operators by level, lowest first.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["==", "!=", "<=", ">=", "<", ">"],
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn error(&self, message: &str) -> ExprError {
        ExprError {
            text: self.text.to_string(),
            col: self.at + 1,
            message: message.to_string(),
        }
    }

    fn skip_space(&mut self) {
        while self
            .chars
            .get(self.at)
            .is_some_and(|(_, c)| c.is_whitespace())
        {
            self.at += 1;
        }
    }

    fn rest(&self) -> &str {
        self.chars
            .get(self.at)
            .map_or("", |(i, _)| &self.text[*i..])
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        self.level(0)
    }

    fn level(&mut self, l: usize) -> Result<Node, ExprError> {
        if l == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.level(l + 1)?;
        loop {
            self.skip_space();
            let rest = self.rest();
            // `|` is not the start of `||`, `&` not of `&&`, `<` not of `<<` or `<=`.
            let Some(op) = LEVELS[l].iter().find(|op| {
                rest.starts_with(**op)
                    && !(op.len() == 1 && rest[1..].starts_with(['|', '&', '<', '>', '=']))
            }) else {
                return Ok(left);
            };
            self.at += op.len();
            let right = self.level(l + 1)?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Node, ExprError> {
        self.skip_space();
        match self.chars.get(self.at).map(|(_, c)| *c) {
            Some(op @ ('-' | '!' | '~')) => {
                self.at += 1;
                Ok(Node::Unary(op, Box::new(self.unary()?)))
            }
            _ => self.primary(),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), ExprError> {
        self.skip_space();
        if self.chars.get(self.at).map(|(_, x)| *x) == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{c}`")))
        }
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        self.skip_space();
        let Some(&(_, c)) = self.chars.get(self.at) else {
            return Err(self.error("expected a number, a name or `(`"));
        };
        if c == '(' {
            self.at += 1;
            let n = self.or()?;
            self.expect(')')?;
            return Ok(n);
        }
        if c == '$' || c.is_ascii_digit() {
            return self.number();
        }
        if c.is_ascii_alphabetic() || c == '_' || c == '.' {
            return self.name();
        }
        Err(self.error("expected a number, a name or `(`"))
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while self
            .chars
            .get(self.at)
            .is_some_and(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '@'))
        {
            self.at += 1;
        }
        self.chars[start..self.at].iter().map(|(_, c)| c).collect()
    }

    fn number(&mut self) -> Result<Node, ExprError> {
        let start = self.at;
        let dollar = self.chars[self.at].1 == '$';
        if dollar {
            self.at += 1;
        }
        let w = self.word();
        let (digits, radix) = if dollar {
            (w.as_str(), 16)
        } else if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
            (h, 16)
        } else if let Some(h) = w.strip_suffix(['h', 'H']) {
            (h, 16)
        } else {
            (w.as_str(), 10)
        };
        i64::from_str_radix(digits, radix)
            .map(Node::Const)
            .map_err(|_| {
                self.at = start;
                self.error(&format!(
                    "`{}{w}` is not a number",
                    if dollar { "$" } else { "" }
                ))
            })
    }

    fn name(&mut self) -> Result<Node, ExprError> {
        let start = self.at;
        let w = self.word();
        self.skip_space();
        let call = self.chars.get(self.at).map(|(_, c)| *c) == Some('(');
        match (w.as_str(), call) {
            ("byte" | "sbyte" | "word", true) => {
                self.at += 1;
                self.skip_space();
                let arg_at = self.at;
                let a = self.or()?;
                self.expect(')')?;
                let bare = self.chars[arg_at..self.at - 1]
                    .iter()
                    .map(|(_, c)| c)
                    .collect::<String>();
                let bare = bare.trim();
                if self.names.variables.iter().any(|(n, _, _)| n == bare) {
                    self.at = arg_at;
                    return Err(self.error(&format!(
                        "`{w}({bare})` reads memory at the value of the variable `{bare}`: write `{bare}` for its value"
                    )));
                }
                let kind = match w.as_str() {
                    "byte" => 'b',
                    "sbyte" => 's',
                    _ => 'w',
                };
                Ok(Node::Read(kind, Box::new(a)))
            }
            ("reg", true) => {
                self.at += 1;
                self.skip_space();
                let r = self.word();
                if r.is_empty() {
                    return Err(self.error("expected a register's name"));
                }
                self.expect(')')?;
                Ok(Node::Reg(r))
            }
            (_, true) => {
                self.at = start;
                Err(self.error(&format!(
                    "`{w}(`: the functions are byte, sbyte, word and reg"
                )))
            }
            (name, false) if BOUND.contains(&name) => Ok(Node::Reg(name.to_string())),
            (name, false) => self.names.lookup(name).ok_or_else(|| {
                self.at = start;
                self.error(&format!(
                    "`{name}` is neither a declared variable nor a symbol of the program"
                ))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fake;
    impl Machineish for Fake {
        fn byte(&self, addr: u16) -> u8 {
            (addr & 0xFF) as u8 ^ 0x5A
        }
        fn register(&self, name: &str) -> Option<i64> {
            (name == "A").then_some(0x81)
        }
    }

    fn names() -> Names {
        let mut n = Names::symbols(vec![("NPLY".into(), 0x10), ("O.O.O".into(), 0x20)]);
        n.declare("PLY", 0x10, 'b');
        n
    }

    #[test]
    fn operators_bind_as_in_c() {
        let n = names();
        let v = |t: &str| Expr::parse(t, &n).unwrap().constant().unwrap();
        assert_eq!(v("1 + 2 * 3"), 7);
        assert_eq!(v("(1 + 2) * 3"), 9);
        assert_eq!(v("$C8 - 0CH"), 0xC8 - 12);
        assert_eq!(v("0x10 << 2 | 1"), 0x41);
        assert_eq!(v("1 < 2 && 3 >= 3 || 0"), 1);
        assert_eq!(v("-5 % 3"), -2);
        assert_eq!(v("!0 + ~0"), 0);
        assert_eq!(v("O.O.O + 1"), 0x21);
        assert_eq!(
            v("nply"),
            0x10,
            "symbols ignore case when nothing matches exactly"
        );
    }

    #[test]
    fn variables_registers_and_memory_are_read_when_evaluated() {
        let n = names();
        let e = |t: &str| Expr::parse(t, &n).unwrap().eval(&Fake).unwrap();
        assert_eq!(e("PLY"), i64::from(0x10u8 ^ 0x5A));
        assert_eq!(e("byte(NPLY)"), e("PLY"), "NPLY is a symbol: its address");
        assert_eq!(e("word(0x10)"), i64::from(u16::from_le_bytes([0x4A, 0x4B])));
        assert_eq!(e("sbyte($D0)"), i64::from((0xD0u8 ^ 0x5A) as i8));
        assert_eq!(e("reg(A) - 128"), 1);
        let no_b = Expr::parse("reg(B)", &n).unwrap().eval(&Fake).unwrap_err();
        assert!(no_b.to_string().contains("register B"));
        assert!(Expr::parse("1/0", &n).unwrap().eval(&Fake).is_err());
    }

    #[test]
    fn errors_name_the_column() {
        let n = names();
        let err = |t: &str| Expr::parse(t, &n).unwrap_err();
        assert_eq!(err("1 + ").col, 5);
        assert_eq!(err("PLY + FOO").col, 7);
        assert!(err("peek(3)").message.contains("functions"));
        assert!(err("1 2").message.contains("operator"));
        assert!(err("$XY").message.contains("not a number"));
        assert!(err("(1").message.contains("`)`"));
        assert!(err("byte(PLY)").message.contains("write `PLY`"));
        assert!(Expr::parse("byte(PLY + 1)", &n).is_ok());
    }
}
