//! Routines: which routine an address belongs to, for the cycle profiler.
//!
//! The assembler writes a symbol file (`NAME EQU $XXXX`, one per line) that
//! `kempelen_isa::SymbolTable` reads. The profiler charges cycles to routines, so it keeps only
//! the symbols that can be routines (global labels; not constants, not local labels) sorted by
//! address, answers "the nearest routine at or below this address" in `O(log n)`, and turns that
//! into a table of all 65536 addresses once.

use kempelen_isa::{SymbolKind, SymbolTable};

/// Routine entry points sorted by address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Routines {
    /// (address, name), sorted by address, then name.
    by_addr: Vec<(u16, String)>,
}

impl Routines {
    /// The global labels of a symbol table (constants and local labels are not routines).
    pub fn from_table(table: &SymbolTable) -> Self {
        Routines::new(
            table
                .iter()
                .filter(|s| s.kind == SymbolKind::Label && !s.is_local())
                .map(|s| (s.name.clone(), s.value)),
        )
    }

    /// Routines from (name, address) pairs.
    pub fn new<S: Into<String>>(pairs: impl IntoIterator<Item = (S, u16)>) -> Self {
        let mut by_addr: Vec<(u16, String)> =
            pairs.into_iter().map(|(n, a)| (a, n.into())).collect();
        by_addr.sort();
        by_addr.dedup_by(|a, b| a.0 == b.0);
        Routines { by_addr }
    }

    /// Only the symbols for which `keep(name, address)` holds (for example those inside the
    /// program, leaving out `EQU` constants such as port numbers).
    pub fn filtered(&self, mut keep: impl FnMut(&str, u16) -> bool) -> Self {
        Routines {
            by_addr: self
                .by_addr
                .iter()
                .filter(|(a, n)| keep(n, *a))
                .cloned()
                .collect(),
        }
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.by_addr.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_addr.is_empty()
    }

    /// (address, name) pairs in address order.
    pub fn iter(&self) -> impl Iterator<Item = (u16, &str)> {
        self.by_addr.iter().map(|(a, n)| (*a, n.as_str()))
    }

    /// The address of `name`.
    pub fn address_of(&self, name: &str) -> Option<u16> {
        self.by_addr
            .iter()
            .find(|(_, n)| n == name)
            .map(|(a, _)| *a)
    }

    /// Index (in address order) of the nearest symbol at or below `addr`.
    pub fn index_at(&self, addr: u16) -> Option<usize> {
        match self.by_addr.binary_search_by(|(a, _)| a.cmp(&addr)) {
            Ok(i) => Some(i),
            Err(0) => None,
            Err(i) => Some(i - 1),
        }
    }

    /// The symbol at `index` in address order.
    pub fn get(&self, index: usize) -> Option<(u16, &str)> {
        self.by_addr.get(index).map(|(a, n)| (*a, n.as_str()))
    }

    /// The nearest symbol at or below `addr` and the offset from it.
    pub fn routine_at(&self, addr: u16) -> Option<(&str, u16)> {
        self.index_at(addr).map(|i| {
            let (a, n) = &self.by_addr[i];
            (n.as_str(), addr - a)
        })
    }

    /// `NAME` or `NAME+offset` for `addr`, if a symbol lies at or below it.
    pub fn describe(&self, addr: u16) -> Option<String> {
        self.routine_at(addr).map(|(n, off)| {
            if off == 0 {
                n.to_string()
            } else {
                format!("{n}+{off}")
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_symbol_at_or_below() {
        let s = Routines::new([("SEARCH", 0x0200), ("START", 0x0100), ("EVAL", 0x0300)]);
        assert_eq!(s.routine_at(0x00FF), None);
        assert_eq!(s.routine_at(0x0100), Some(("START", 0)));
        assert_eq!(s.routine_at(0x01FF), Some(("START", 0xFF)));
        assert_eq!(s.routine_at(0x0205), Some(("SEARCH", 5)));
        assert_eq!(s.routine_at(0xFFFF), Some(("EVAL", 0xFCFF)));
        assert_eq!(s.describe(0x0302).as_deref(), Some("EVAL+2"));
        assert_eq!(s.describe(0x0300).as_deref(), Some("EVAL"));
        assert_eq!(s.address_of("SEARCH"), Some(0x0200));
    }

    #[test]
    fn only_global_labels_are_routines() {
        let mut t = SymbolTable::new();
        t.insert("PORT", 0x00FF, SymbolKind::Constant);
        t.insert("START", 0x0100, SymbolKind::Label);
        t.insert("START@loop", 0x0104, SymbolKind::Label);
        let r = Routines::from_table(&t);
        assert_eq!(r.len(), 1);
        assert_eq!(r.routine_at(0x0105), Some(("START", 5)));
    }

    #[test]
    fn filtering_drops_constants() {
        let s = Routines::new([("PORT", 0x00FF), ("START", 0x0100)]);
        let code = s.filtered(|_, a| a >= 0x0100);
        assert_eq!(code.len(), 1);
        assert_eq!(code.routine_at(0x0100), Some(("START", 0)));
    }
}
