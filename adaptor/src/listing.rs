//! A published listing laid over a binary that has no text of its own: the 1976 Microchess
//! for the KIM-1 survives as a hex dump, and Daryl Rictor's listing of 2002 is the same
//! program moved to `$1000`, with serial input and output in place of the KIM-1's keypad and
//! display. `[listing]` in an adaptor file names such a listing; Kempelen assembles it and
//! finds, instruction by instruction, where its code is the binary's, so that the debugger
//! shows the listing's lines, labels and comments at the binary's addresses, and says where
//! the binary differs.
//!
//! Two instructions are the same when their opcode is the same and, for an immediate or a
//! page-zero operand, the operand too (the listing keeps the 1976 program's page-zero
//! variables where they were). A run of at least [`SEED`] such instructions in a row, in the
//! listing and in the binary, is taken as the same code; runs are found from the start of each
//! block of the binary, longest first where several places of the listing match. Then every
//! jump, call, branch and absolute address of a matched instruction is checked: where it names
//! code of the listing, the binary's must name that code's place in the binary; an instruction
//! that fails this check is left out (the binary differs there). Data lines (`.byte`) are laid
//! where the binary holds the same bytes, once.
//!
//! The listing's labels follow their code or data to the binary; its constants (page-zero
//! variables such as `BOARD = $50`) are kept as they are.

use kempelen_asm::isa::SourceMap;
use kempelen_asm::{Assembly, Cpu, SymbolKind};
use serde::Serialize;

use crate::description::ProgramSource;

/// The fewest instructions in a row taken as the same code.
pub const SEED: usize = 3;

/// What the listing's map says of the binary: how much of it the listing explains, and where
/// it does not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ListingMap {
    /// The listing's file.
    pub file: String,
    /// Instructions of the binary's code given a line of the listing.
    pub matched: usize,
    /// The binary's bytes given a line (code and data).
    pub matched_bytes: usize,
    /// The listing's instructions.
    pub listing_instructions: usize,
    /// The binary's address ranges (first, last) between matched code that no line of the
    /// listing explains, each with the label of the listing before it, if any.
    pub differs: Vec<Difference>,
    /// The listing's labels with no place in the binary.
    pub labels_missing: Vec<String>,
}

/// A part of the binary the listing does not explain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// First address.
    pub first: u16,
    /// Last address.
    pub last: u16,
    /// The routine of the listing it lies in (the label of the last matched line before it,
    /// with the offset), if any.
    pub after: Option<String>,
}

impl ListingMap {
    /// The part of the binary at `addr` that the listing does not explain, if it is one.
    pub fn difference_at(&self, addr: u16) -> Option<&Difference> {
        self.differs
            .iter()
            .find(|d| (d.first..=d.last).contains(&addr))
    }
}

/// One instruction of either side: address, length, opcode and the operand that must agree
/// (immediate or page zero), and the address it names if it is a jump, call, branch or
/// absolute operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ins {
    addr: u16,
    len: u8,
    sig: (u8, Option<u8>),
    target: Option<u16>,
}

fn instructions(cpu: Cpu, bytes: &[u8], org: u16) -> Vec<Ins> {
    kempelen_asm::isa::disassemble(cpu, bytes, org, None)
        .into_iter()
        .filter(|d| d.instr.is_some())
        .map(|d| {
            let b = d.bytes();
            let branch = d.mnemonic.starts_with('B') && d.len == 2 && d.mnemonic != "BIT";
            let keep = (d.len == 2 && !branch).then(|| b[1]);
            Ins {
                addr: d.addr,
                len: d.len,
                sig: (b[0], keep),
                target: (d.len == 3 || branch).then_some(d.target).flatten(),
            }
        })
        .collect()
}

/// The listing's instructions, from its source map (lines of code only).
fn listing_instructions(a: &Assembly) -> Vec<Ins> {
    let map = a.listing.source_map();
    let (org, bytes) = (a.image.origin, &a.image.bytes);
    map.iter()
        .filter(|l| l.code)
        .filter_map(|l| {
            let off = usize::from(l.addr.wrapping_sub(org));
            let b = bytes.get(off..off + usize::from(l.len))?;
            instructions(a.cpu, b, l.addr).into_iter().next()
        })
        .collect()
}

/// Maps `listing` onto the binary's `chunks` (address, bytes): the source lines and symbols
/// at the binary's addresses, and what does not match.
pub fn map_listing(
    listing: &Assembly,
    chunks: &[(u16, Vec<u8>)],
) -> Result<(ProgramSource, ListingMap), String> {
    if !matches!(listing.cpu, Cpu::Mos6502 | Cpu::Cmos65c02) {
        return Err("a listing is laid over a binary for the 6502 only".into());
    }
    let lis = listing_instructions(listing);
    let mut pairs: Vec<(usize, usize)> = Vec::new(); // (binary index, listing index)
    let mut bin: Vec<Ins> = Vec::new();
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    for (addr, bytes) in chunks {
        let start = bin.len();
        bin.extend(instructions(listing.cpu, bytes, *addr));
        blocks.push((start, bin.len()));
    }
    for &(start, end) in &blocks {
        seed_runs(&bin[start..end], &lis, start, &mut pairs);
    }
    let lines = listing.listing.source_map();
    let data = find_data(&lines, listing, chunks);
    let map_addr = |pairs: &[(usize, usize)]| -> std::collections::HashMap<u16, u16> {
        let mut at: std::collections::HashMap<u16, u16> =
            data.iter().map(|&(l, b, _)| (l, b)).collect();
        at.extend(pairs.iter().map(|&(b, l)| (lis[l].addr, bin[b].addr)));
        at
    };
    // Operands naming code must name the same code: an address of the listing its place in
    // the binary, an address outside the listing itself. Drop what fails (or names code of
    // the listing that has no place in the binary) until nothing does.
    loop {
        let at = map_addr(&pairs);
        let before = pairs.len();
        pairs.retain(|&(b, l)| match (lis[l].target, bin[b].target) {
            (Some(tl), Some(tb)) => match at.get(&tl) {
                Some(&m) => m == tb,
                None => lines.containing(tl).is_none() && tl == tb,
            },
            _ => true,
        });
        if pairs.len() == before {
            break;
        }
    }
    Ok(build(listing, &data, &lis, &bin, &blocks, &pairs))
}

/// Finds the runs of at least [`SEED`] equal instructions of `bin` (a block, whose first
/// instruction is number `base`) in `lis`, from the block's start: at each place the longest
/// run the listing has, else the next instruction.
fn seed_runs(bin: &[Ins], lis: &[Ins], base: usize, pairs: &mut Vec<(usize, usize)>) {
    let mut i = 0;
    while i < bin.len() {
        let best = (0..lis.len())
            .map(|j| {
                let n = bin[i..]
                    .iter()
                    .zip(&lis[j..])
                    .take_while(|(a, b)| a.sig == b.sig)
                    .count();
                (n, j)
            })
            .filter(|&(n, _)| n >= SEED)
            .max_by_key(|&(n, j)| (n, std::cmp::Reverse(j)));
        match best {
            Some((n, j)) => {
                pairs.extend((0..n).map(|k| (base + i + k, j + k)));
                i += n;
            }
            None => i += 1,
        }
    }
}

/// The source lines and symbols at the binary's addresses, and the report.
fn build(
    listing: &Assembly,
    data: &[(u16, u16, u16)],
    lis: &[Ins],
    bin: &[Ins],
    blocks: &[(usize, usize)],
    pairs: &[(usize, usize)],
) -> (ProgramSource, ListingMap) {
    let lines = listing.listing.source_map();
    let mut out = ProgramSource::default();
    let mut at: std::collections::HashMap<u16, u16> = std::collections::HashMap::new();
    let mut matched_bytes = 0;
    for &(b, l) in pairs {
        let (bi, li) = (&bin[b], &lis[l]);
        if let Some(line) = lines.at(li.addr) {
            out.lines.insert(
                bi.addr,
                u16::from(bi.len),
                true,
                line.file.clone(),
                line.line,
                line.text.clone(),
            );
            matched_bytes += usize::from(bi.len);
        }
        at.insert(li.addr, bi.addr);
    }
    for &(l, b, len) in data {
        let free = (b..b.saturating_add(len)).all(|a| out.lines.containing(a).is_none());
        if let (true, Some(line)) = (free, lines.at(l)) {
            out.lines.insert(
                b,
                len,
                false,
                line.file.clone(),
                line.line,
                line.text.clone(),
            );
            at.insert(l, b);
            matched_bytes += usize::from(len);
        }
    }
    let mut labels_missing = Vec::new();
    for s in listing.symbols.iter() {
        match s.kind {
            SymbolKind::Constant => {
                out.symbols.insert(s.name.clone(), s.value, s.kind);
            }
            SymbolKind::Label => match at.get(&s.value) {
                Some(&a) => {
                    out.symbols.insert(s.name.clone(), a, s.kind);
                }
                None => labels_missing.push(s.name.clone()),
            },
        }
    }
    labels_missing.sort();
    let matched: std::collections::HashSet<usize> = pairs.iter().map(|&(b, _)| b).collect();
    let differs = differences(bin, blocks, &matched, &out);
    let report = ListingMap {
        file: lines
            .iter()
            .next()
            .map(|l| l.file.to_string())
            .unwrap_or_default(),
        matched: pairs.len(),
        matched_bytes,
        listing_instructions: lis.len(),
        differs,
        labels_missing,
    };
    (out, report)
}

/// The listing's data lines (`.byte`, four bytes or more) whose bytes the binary holds at one
/// place only: (the line's address, the binary's, the length).
fn find_data(
    lines: &SourceMap,
    listing: &Assembly,
    chunks: &[(u16, Vec<u8>)],
) -> Vec<(u16, u16, u16)> {
    let (org, image) = (listing.image.origin, &listing.image.bytes);
    let mut out = Vec::new();
    for l in lines.iter().filter(|l| !l.code && l.len >= 4) {
        let off = usize::from(l.addr.wrapping_sub(org));
        let Some(want) = image.get(off..off + usize::from(l.len)) else {
            continue;
        };
        let found: Vec<u16> = chunks
            .iter()
            .flat_map(|(a, b)| {
                b.windows(want.len())
                    .enumerate()
                    .filter(|(_, w)| *w == want)
                    .map(move |(i, _)| a.wrapping_add(i as u16))
            })
            .collect();
        if let [a] = found[..] {
            out.push((l.addr, a, l.len));
        }
    }
    out
}

/// The binary's instructions between matched ones that no line explains, as ranges, each
/// with the listing's routine before it.
fn differences(
    bin: &[Ins],
    blocks: &[(usize, usize)],
    matched: &std::collections::HashSet<usize>,
    out: &ProgramSource,
) -> Vec<Difference> {
    let mut differs: Vec<Difference> = Vec::new();
    for &(start, end) in blocks {
        // Only blocks that hold code of the listing at all (a table is no code that differs).
        if !(start..end).any(|i| matched.contains(&i)) {
            continue;
        }
        let mut open: Option<(u16, u16)> = None;
        for (i, ins) in bin.iter().enumerate().take(end).skip(start) {
            let explained = matched.contains(&i) || out.lines.containing(ins.addr).is_some();
            match (explained, open) {
                (false, None) => open = Some((ins.addr, ins.addr + u16::from(ins.len) - 1)),
                (false, Some((f, _))) => open = Some((f, ins.addr + u16::from(ins.len) - 1)),
                (true, Some((f, l))) => {
                    differs.push(Difference {
                        first: f,
                        last: l,
                        after: out.symbols.describe_opt(f),
                    });
                    open = None;
                }
                (true, None) => {}
            }
        }
        if let Some((f, l)) = open {
            differs.push(Difference {
                first: f,
                last: l,
                after: out.symbols.describe_opt(f),
            });
        }
    }
    differs
}

/// `ROUTINE+offset` of the nearest label at or below an address.
trait DescribeOpt {
    fn describe_opt(&self, addr: u16) -> Option<String>;
}

impl DescribeOpt for kempelen_asm::SymbolTable {
    fn describe_opt(&self, addr: u16) -> Option<String> {
        self.containing(addr).map(|(n, off)| {
            if off == 0 {
                n.to_string()
            } else {
                format!("{n}+{off}")
            }
        })
    }
}
