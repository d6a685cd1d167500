//! Instruction traces: the full tracer and the short trace attached to every error.
//!
//! The machine keeps the PCs of the last [`RECENT`] instructions in a ring (one store per
//! instruction); only when a run fails are they disassembled into a [`RecentTrace`]. The
//! [`Tracer`] records every instruction that passes its filter (a count, an address range) with
//! disassembly, symbol and registers, and hands each entry to a sink the caller chooses.

use crate::core::Registers;
use crate::memory::AddrRange;
use crate::{Cpu, SymbolTable};
use std::fmt;

/// How many recent instructions an error trace shows.
pub const RECENT: usize = 16;

/// One traced instruction.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TraceEntry {
    /// Instructions executed in the run before this one.
    pub index: u64,
    /// Cycles spent in the run before this one.
    pub cycles: u64,
    /// Address.
    pub pc: u16,
    /// The instruction's bytes.
    pub bytes: Vec<u8>,
    /// Disassembly.
    pub text: String,
    /// `ROUTINE+offset`, if symbols are known.
    pub symbol: Option<String>,
    /// Registers before the instruction (absent in error traces, which show them once at the
    /// end).
    pub registers: Option<Registers>,
}

impl TraceEntry {
    pub(crate) fn new(
        cpu: Cpu,
        mem: &[u8; 0x10000],
        pc: u16,
        symbols: Option<&SymbolTable>,
        registers: Option<Registers>,
    ) -> Self {
        let window: Vec<u8> = (0..4)
            .map(|i| mem[usize::from(pc.wrapping_add(i))])
            .collect();
        // Four bytes always hold a whole instruction, so decoding cannot fail.
        let d = kempelen_isa::decode_with(cpu, &window, pc, symbols).expect("4 bytes decode");
        let bytes = d.bytes().to_vec();
        let text = d.text();
        TraceEntry {
            index: 0,
            cycles: 0,
            pc,
            bytes,
            text,
            symbol: symbols.and_then(|s| routine_offset(s, pc)),
            registers,
        }
    }
}

/// `ROUTINE` or `ROUTINE+offset` for `pc`, if a routine lies at or below it.
fn routine_offset(symbols: &SymbolTable, pc: u16) -> Option<String> {
    symbols.containing(pc).map(|(name, offset)| {
        if offset == 0 {
            name.to_string()
        } else {
            format!("{name}+{offset}")
        }
    })
}

impl fmt::Display for TraceEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "${:04X}  {:<11}  {:<20}",
            self.pc,
            kempelen_isa::hex_bytes(&self.bytes),
            self.text
        )?;
        if let Some(s) = &self.symbol {
            write!(f, "  {s:<16}")?;
        }
        if let Some(r) = &self.registers {
            write!(f, "  {r}")?;
        }
        Ok(())
    }
}

/// The last instructions before a fault, oldest first, and the registers after the last one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RecentTrace {
    /// Oldest first; the last entry is the instruction at fault (or the next one, when the fault
    /// is found before executing it).
    pub entries: Vec<TraceEntry>,
    /// Registers at the moment the run stopped.
    pub registers: Registers,
}

impl fmt::Display for RecentTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "last {} instructions:", self.entries.len())?;
        for e in &self.entries {
            writeln!(f, "  {}", e.to_string().trim_end())?;
        }
        write!(f, "registers: {}", self.registers)
    }
}

/// Which instructions a [`Tracer`] records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TraceFilter {
    /// Stop recording after this many entries (`None`: no limit).
    pub max_entries: Option<u64>,
    /// Record only instructions whose address is in this range.
    pub range: Option<AddrRange>,
}

/// The entries a [`Tracer::collecting`] records, shared with the tracer.
#[derive(Debug, Clone, Default)]
pub struct TraceStore(std::sync::Arc<std::sync::Mutex<Vec<TraceEntry>>>);

impl TraceStore {
    /// The entries recorded so far.
    pub fn borrow(&self) -> std::sync::MutexGuard<'_, Vec<TraceEntry>> {
        // A sink that panicked leaves the entries it had: they are still the record.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Records instructions as they execute and hands each one to a sink.
pub struct Tracer {
    filter: TraceFilter,
    recorded: u64,
    sink: Box<dyn FnMut(&TraceEntry) + Send>,
}

impl fmt::Debug for Tracer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracer")
            .field("filter", &self.filter)
            .field("recorded", &self.recorded)
            .finish()
    }
}

impl Tracer {
    /// A tracer that passes every entry matching `filter` to `sink`.
    pub fn new(filter: TraceFilter, sink: impl FnMut(&TraceEntry) + Send + 'static) -> Self {
        Tracer {
            filter,
            recorded: 0,
            sink: Box::new(sink),
        }
    }

    /// A tracer that collects entries into a shared vector the caller keeps a handle to.
    pub fn collecting(filter: TraceFilter) -> (Self, TraceStore) {
        let store = TraceStore::default();
        let sink_store = store.clone();
        (
            Tracer::new(filter, move |e| sink_store.borrow().push(e.clone())),
            store,
        )
    }

    /// Entries recorded so far.
    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    /// Whether the instruction at `pc` should be recorded.
    #[inline]
    pub(crate) fn wants(&self, pc: u16) -> bool {
        self.filter.max_entries.is_none_or(|m| self.recorded < m)
            && self.filter.range.is_none_or(|r| r.contains(pc))
    }

    pub(crate) fn record(&mut self, entry: TraceEntry) {
        self.recorded += 1;
        (self.sink)(&entry);
    }
}
