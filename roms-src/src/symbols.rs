//! Symbol tables written by the assemblers: `NAME EQU $XXXX` (Kempelen's format) and
//! pasmo's `NAME EQU 0XXXXH`. The host glue takes every RAM address of the protocol from
//! here, so the `.asm` sources are the only place where the layout is written down.

use std::collections::HashMap;

/// Symbols by name.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    map: HashMap<String, u16>,
}

impl Symbols {
    /// Parses a symbol file. Lines that are not `NAME EQU value` are ignored.
    pub fn parse(text: &str) -> Symbols {
        let mut map = HashMap::new();
        for line in text.lines() {
            let line = line.split(';').next().unwrap_or("");
            let mut parts = line.split_whitespace();
            let (Some(name), Some(equ), Some(value)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            if !equ.eq_ignore_ascii_case("equ") {
                continue;
            }
            let name = name.trim_end_matches(':');
            if let Some(v) = parse_number(value) {
                map.insert(name.to_string(), v);
            }
        }
        Symbols { map }
    }

    /// The value of `name`, if defined.
    pub fn get(&self, name: &str) -> Option<u16> {
        self.map.get(name).copied()
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when no symbol was read.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// All symbols, sorted by value then name (for profiles by routine).
    pub fn sorted(&self) -> Vec<(String, u16)> {
        let mut v: Vec<(String, u16)> = self.map.iter().map(|(k, v)| (k.clone(), *v)).collect();
        v.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
        v
    }
}

fn parse_number(s: &str) -> Option<u16> {
    let s = s.trim();
    let v = if let Some(h) = s.strip_prefix('$') {
        u32::from_str_radix(h, 16).ok()?
    } else if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()?
    } else if let Some(h) = s.strip_suffix('H').or_else(|| s.strip_suffix('h')) {
        u32::from_str_radix(h, 16).ok()?
    } else {
        s.parse::<u32>().ok()?
    };
    u16::try_from(v).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_formats() {
        let s = Symbols::parse("A EQU $8000 ; comment\nB\t\tEQU 084A0H\nC: equ 12\njunk\n");
        assert_eq!(s.get("A"), Some(0x8000));
        assert_eq!(s.get("B"), Some(0x84A0));
        assert_eq!(s.get("C"), Some(12));
        assert_eq!(s.len(), 3);
    }
}
