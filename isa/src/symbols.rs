//! Symbol files: what the assembler writes and the emulator's profiler and tracer read.
//!
//! The format is plain text, one symbol per line, `NAME EQU $XXXX` (four hex digits; a
//! negative constant is written as a negative decimal number, `NAME EQU -2 ; constant`); `;`
//! starts a comment. It is valid assembler source itself, so a program can `INCLUDE` the
//! symbols of another. Symbols defined with `EQU`/`=` (constants rather than code or data
//! addresses) carry the comment `; constant`, which [`SymbolTable::parse`] reads back: the
//! "routine containing this address" lookup only considers labels.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Whether a symbol names a place in the program or a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A label: the address of code or data.
    Label,
    /// A value given with `EQU` or `=`.
    Constant,
}

/// One symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name as written, local labels as `global@local`.
    pub name: String,
    /// The value, reduced to 16 bits.
    pub value: u16,
    /// The value as defined: equal to `value` unless a constant was negative (`-2` here,
    /// `$FFFE` in `value`).
    pub signed: i32,
    /// Label or constant.
    pub kind: SymbolKind,
}

impl Symbol {
    /// Local labels (`@loop`, stored as `routine@loop`) are not routines of their own.
    pub fn is_local(&self) -> bool {
        self.name.contains('@')
    }
}

/// A bad line in a symbol file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("symbol file line {line}: {message}")]
pub struct SymbolFileError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// Symbols by name and by value.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    symbols: Vec<Symbol>,
    by_name: HashMap<String, usize>,
    by_value: BTreeMap<u16, Vec<usize>>,
}

impl PartialEq for SymbolTable {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().all(|s| other.symbol(&s.name) == Some(s))
    }
}

impl SymbolTable {
    /// An empty table.
    pub fn new() -> SymbolTable {
        SymbolTable::default()
    }

    /// Adds or replaces a symbol; returns the value it replaced.
    pub fn insert(&mut self, name: impl Into<String>, value: u16, kind: SymbolKind) -> Option<u16> {
        self.insert_value(name, i64::from(value), kind)
    }

    /// Adds a symbol with its value as defined: a negative constant keeps its sign in
    /// [`Symbol::signed`] (and in the symbol file); any other value is reduced to 16 bits.
    pub fn insert_value(
        &mut self,
        name: impl Into<String>,
        defined: i64,
        kind: SymbolKind,
    ) -> Option<u16> {
        let name = name.into();
        let value = defined as u16;
        let signed = if (-0x8000..0).contains(&defined) {
            defined as i32
        } else {
            i32::from(value)
        };
        if let Some(&i) = self.by_name.get(&name) {
            let old = self.symbols[i].value;
            if let Some(list) = self.by_value.get_mut(&old) {
                list.retain(|&j| j != i);
                if list.is_empty() {
                    self.by_value.remove(&old);
                }
            }
            self.symbols[i].value = value;
            self.symbols[i].signed = signed;
            self.symbols[i].kind = kind;
            self.by_value.entry(value).or_default().push(i);
            return Some(old);
        }
        let i = self.symbols.len();
        self.by_name.insert(name.clone(), i);
        self.by_value.entry(value).or_default().push(i);
        self.symbols.push(Symbol {
            name,
            value,
            signed,
            kind,
        });
        None
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Symbols in the order they were inserted.
    pub fn iter(&self) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter()
    }

    /// Symbols ordered by value, then by name.
    pub fn sorted(&self) -> Vec<&Symbol> {
        let mut all: Vec<&Symbol> = self.symbols.iter().collect();
        all.sort_by(|a, b| a.value.cmp(&b.value).then_with(|| a.name.cmp(&b.name)));
        all
    }

    /// The value of `name` (exact, case-sensitive).
    pub fn get(&self, name: &str) -> Option<u16> {
        self.symbol(name).map(|s| s.value)
    }

    /// The symbol called `name`.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.by_name.get(name).map(|&i| &self.symbols[i])
    }

    /// The best name for exactly this address: a global label, else a local label, else a
    /// constant; among equals the first defined.
    pub fn name_at(&self, addr: u16) -> Option<&str> {
        let list = self.by_value.get(&addr)?;
        list.iter()
            .map(|&i| &self.symbols[i])
            .min_by_key(|s| (s.kind == SymbolKind::Constant, s.is_local()))
            .map(|s| s.name.as_str())
    }

    /// The routine containing `addr`: the nearest global label at or below it, with the offset
    /// of `addr` from it. Constants and local labels are not routines.
    pub fn containing(&self, addr: u16) -> Option<(&str, u16)> {
        self.by_value
            .range(..=addr)
            .rev()
            .find_map(|(&value, list)| {
                list.iter()
                    .map(|&i| &self.symbols[i])
                    .find(|s| s.kind == SymbolKind::Label && !s.is_local())
                    .map(|s| (s.name.as_str(), addr - value))
            })
    }

    /// `name`, `name+5` or `$1234`: how a tracer shows an address.
    pub fn describe(&self, addr: u16) -> String {
        if let Some(name) = self.name_at(addr) {
            return name.to_string();
        }
        match self.containing(addr) {
            Some((name, offset)) => format!("{name}+{offset}"),
            None => format!("${addr:04X}"),
        }
    }

    /// Reads a symbol file. Accepts `NAME EQU value`, `NAME: EQU value` and `NAME = value`,
    /// with the value in `$hex`, `0xhex`, `hexH` or decimal; a trailing `; constant` marks a
    /// constant.
    pub fn parse(text: &str) -> Result<SymbolTable, SymbolFileError> {
        let mut table = SymbolTable::new();
        let mut first_line: HashMap<String, usize> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |message: String| SymbolFileError { line, message };
            let (body, comment) = match raw.split_once(';') {
                Some((body, comment)) => (body, Some(comment)),
                None => (raw, None),
            };
            let words: Vec<&str> = body.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let (name, value) = match words.as_slice() {
                [name, op, value] if op.eq_ignore_ascii_case("equ") || *op == "=" => {
                    (name.strip_suffix(':').unwrap_or(name), *value)
                }
                _ => {
                    return Err(err(format!(
                        "expected 'NAME EQU $XXXX', found '{}'",
                        body.trim()
                    )));
                }
            };
            if !is_symbol_name(name) {
                return Err(err(format!(
                    "'{name}' is not a symbol name (letters, digits, '_', '@', '.')"
                )));
            }
            let (negative, digits) = match value.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, value),
            };
            let magnitude =
                parse_number(digits).ok_or_else(|| err(format!("'{value}' is not a number")))?;
            let defined = if negative {
                -(magnitude.min(1 << 20) as i64)
            } else {
                magnitude.min(1 << 20) as i64
            };
            if !(-0x8000..=0xFFFF).contains(&defined) {
                return Err(err(format!(
                    "value {value} of '{name}' does not fit in 16 bits"
                )));
            }
            if let Some(first) = first_line.insert(name.to_string(), line) {
                return Err(err(format!(
                    "duplicate symbol '{name}' (first defined on line {first})"
                )));
            }
            let kind = match comment {
                Some(c) if c.trim().eq_ignore_ascii_case("constant") => SymbolKind::Constant,
                _ => SymbolKind::Label,
            };
            table.insert_value(name, defined, kind);
        }
        Ok(table)
    }
}

/// Writes the symbol file: a header comment, then one `NAME EQU $XXXX` line per symbol ordered
/// by value.
impl fmt::Display for SymbolTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "; Kempelen symbol file: NAME EQU $XXXX, one per line")?;
        for s in self.sorted() {
            match s.kind {
                SymbolKind::Label => writeln!(f, "{} EQU ${:04X}", s.name, s.value)?,
                SymbolKind::Constant if s.signed < 0 => {
                    writeln!(f, "{} EQU {} ; constant", s.name, s.signed)?
                }
                SymbolKind::Constant => writeln!(f, "{} EQU ${:04X} ; constant", s.name, s.value)?,
            }
        }
        Ok(())
    }
}

fn is_symbol_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '@' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '@' | '.'))
}

fn parse_number(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix('$') {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(hex) = text.strip_suffix('h').or_else(|| text.strip_suffix('H')) {
        u64::from_str_radix(hex, 16).ok()
    } else {
        text.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SymbolTable {
        let mut t = SymbolTable::new();
        t.insert("start", 0x1000, SymbolKind::Label);
        t.insert("start@loop", 0x1004, SymbolKind::Label);
        t.insert("search", 0x1100, SymbolKind::Label);
        t.insert("BOARD_SIZE", 0x1080, SymbolKind::Constant);
        t
    }

    #[test]
    fn writes_and_reads_back() {
        let t = sample();
        let text = t.to_string();
        assert!(text.contains("start EQU $1000\n"));
        assert!(text.contains("BOARD_SIZE EQU $1080 ; constant\n"));
        let back = SymbolTable::parse(&text).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn negative_constants_stay_negative() {
        let mut t = SymbolTable::new();
        t.insert_value("DOWN", -16, SymbolKind::Constant);
        t.insert_value("TOP", 0xFFF0, SymbolKind::Constant);
        let text = t.to_string();
        assert!(text.contains("DOWN EQU -16 ; constant\n"), "{text}");
        assert!(text.contains("TOP EQU $FFF0 ; constant\n"), "{text}");
        let back = SymbolTable::parse(&text).unwrap();
        assert_eq!(back, t);
        assert_eq!(
            back.symbol("DOWN").map(|s| (s.value, s.signed)),
            Some((0xFFF0, -16))
        );
        assert!(SymbolTable::parse("X EQU -40000\n").is_err());
    }

    #[test]
    fn lookups_by_address() {
        let t = sample();
        assert_eq!(t.name_at(0x1004), Some("start@loop"));
        assert_eq!(t.name_at(0x1001), None);
        assert_eq!(t.containing(0x1005), Some(("start", 5)));
        // The constant at $1080 is not a routine.
        assert_eq!(t.containing(0x1090), Some(("start", 0x90)));
        assert_eq!(t.containing(0x0FFF), None);
        assert_eq!(t.describe(0x1102), "search+2");
        assert_eq!(t.describe(0x0001), "$0001");
    }

    #[test]
    fn accepts_other_spellings_and_reports_bad_lines() {
        let t =
            SymbolTable::parse("a: equ 10h\nb = 0x20 ; constant\nc EQU 48\n\n; only a comment\n")
                .unwrap();
        assert_eq!(
            (t.get("a"), t.get("b"), t.get("c")),
            (Some(0x10), Some(0x20), Some(48))
        );
        let e = SymbolTable::parse("ok EQU $10\nbad EQU $10000\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("16 bits"), "{e}");
        let e = SymbolTable::parse("x EQU 1\nx EQU 2").unwrap_err();
        assert!(e.message.contains("duplicate"), "{e}");
        assert!(SymbolTable::parse("just garbage here now").is_err());
    }
}
