//! Expressions: the tree the parser builds and its evaluation.
//!
//! Values are 64-bit signed integers. A result that does not fit in 64 bits (a product, sum,
//! difference, quotient, negation or left shift that overflows) is an error, never a silently
//! wrapped value; instructions and directives check the range they need when they use a value.

/// A byte range within one source line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg,
    Plus,
    /// `~`: bitwise not.
    Not,
    /// `!`: 1 if zero, else 0.
    LogNot,
    /// `<x`, `LOW(x)`: bits 0-7.
    Low,
    /// `>x`, `HIGH(x)`: bits 8-15.
    High,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Xor,
    Or,
    LogAnd,
    LogOr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    Num(i64),
    /// `$` or `*`: the address of the current instruction.
    Pc,
    /// A symbol as written (`@loop` is resolved against the current scope when evaluated).
    Sym(String, Span),
    /// `DEFINED(name)`: 1 if the symbol is defined (so far in this pass), else 0.
    Defined(String, Span),
    Unary(UnOp, Box<Expr>),
    /// The span is the operator's, for division by zero.
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
}

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EvalError {
    /// The symbol is not defined (yet, in early passes).
    Undefined {
        name: String,
        span: Span,
    },
    DivisionByZero {
        span: Span,
    },
    /// The result does not fit in a 64-bit signed integer. The span is the operator's (empty
    /// for a negation, which has none).
    Overflow {
        span: Span,
    },
}

/// What an expression can see.
pub(crate) trait Env {
    /// The value of a symbol as written; `None` if it is not defined.
    fn lookup(&self, name: &str) -> Option<i64>;
    /// Whether a symbol is defined in the current pass so far.
    fn is_defined(&self, name: &str) -> bool;
    /// The current address.
    fn pc(&self) -> i64;
}

impl Expr {
    /// The first symbol (as written) for which `pred` holds.
    pub fn find_symbol(&self, pred: &dyn Fn(&str) -> bool) -> Option<&str> {
        match self {
            Expr::Sym(name, _) if pred(name) => Some(name),
            Expr::Unary(_, e) => e.find_symbol(pred),
            Expr::Binary(_, a, b, _) => a.find_symbol(pred).or_else(|| b.find_symbol(pred)),
            _ => None,
        }
    }

    pub fn eval(&self, env: &dyn Env) -> Result<i64, EvalError> {
        Ok(match self {
            Expr::Num(n) => *n,
            Expr::Pc => env.pc(),
            Expr::Sym(name, span) => env.lookup(name).ok_or_else(|| EvalError::Undefined {
                name: name.clone(),
                span: *span,
            })?,
            Expr::Defined(name, _) => env.is_defined(name) as i64,
            Expr::Unary(op, e) => {
                let v = e.eval(env)?;
                match op {
                    UnOp::Neg => v.checked_neg().ok_or(EvalError::Overflow {
                        span: Span::default(),
                    })?,
                    UnOp::Plus => v,
                    UnOp::Not => !v,
                    UnOp::LogNot => (v == 0) as i64,
                    UnOp::Low => v & 0xFF,
                    UnOp::High => (v >> 8) & 0xFF,
                }
            }
            Expr::Binary(op, a, b, span) => {
                let a = a.eval(env)?;
                let b = b.eval(env)?;
                let overflow = EvalError::Overflow { span: *span };
                match op {
                    BinOp::Div | BinOp::Mod if b == 0 => {
                        return Err(EvalError::DivisionByZero { span: *span });
                    }
                    BinOp::Mul => a.checked_mul(b).ok_or(overflow)?,
                    BinOp::Div => a.checked_div(b).ok_or(overflow)?,
                    BinOp::Mod => a.checked_rem(b).ok_or(overflow)?,
                    BinOp::Add => a.checked_add(b).ok_or(overflow)?,
                    BinOp::Sub => a.checked_sub(b).ok_or(overflow)?,
                    // A left shift overflows when it loses bits (or the sign): shifting back
                    // must give the value again.
                    BinOp::Shl => match b {
                        _ if a == 0 => 0,
                        0..64 if (a << b) >> b == a => a << b,
                        _ if b < 0 => 0,
                        _ => return Err(overflow),
                    },
                    BinOp::Shr => {
                        if (0..64).contains(&b) {
                            a >> b
                        } else if a < 0 {
                            -1
                        } else {
                            0
                        }
                    }
                    BinOp::Lt => (a < b) as i64,
                    BinOp::Le => (a <= b) as i64,
                    BinOp::Gt => (a > b) as i64,
                    BinOp::Ge => (a >= b) as i64,
                    BinOp::Eq => (a == b) as i64,
                    BinOp::Ne => (a != b) as i64,
                    BinOp::And => a & b,
                    BinOp::Xor => a ^ b,
                    BinOp::Or => a | b,
                    BinOp::LogAnd => (a != 0 && b != 0) as i64,
                    BinOp::LogOr => (a != 0 || b != 0) as i64,
                }
            }
        })
    }
}
