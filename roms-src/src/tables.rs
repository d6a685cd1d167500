//! Generators of `z80/tables.inc` ([`tables_inc`]) and `6502/tables.inc` ([`tables_inc_6502`]):
//! every numeric table the 8-bit engines share with the native reference engine (piece values,
//! piece-square tables, castling masks, Zobrist keys, move offsets, ordering keys, search
//! constants), laid out the way each engine's code indexes them.
//!
//! The include file is checked in; `kempelen gen-tables` rewrites it and a test fails when the
//! checked-in copy differs from [`tables_inc`], so the tables can never drift from the engine.
//!
//! Z80 ROM layout produced here (the engine's reset jump occupies 0x0000-0x0002):
//!
//! | address | size | contents |
//! |---|---|---|
//! | 0x0100 | 256 each | Zobrist keys of piece code `c` in page `c` (codes 1-6 and 9-14): 4 bytes per `sq64`, little-endian; the pawn pages leave ranks 1 and 8 (32 + 32 bytes) to the code of [`HOLES`] |
//! | 0x0700 | 512 | piece-square tables, two per 128-byte block in 0x88 layout (see [`PST_BASE`]), castling masks |
//! | 0x0F00 | 64+ | small tables: PST bases per type, values, side and castling keys, move offsets |

use std::fmt::Write as _;

use kempelen_engine::engine::{INF, MATE};
use kempelen_engine::reference::{MAX_DEPTH, MAX_PLY};
use kempelen_engine::tables::{
    BISHOP_DIRS, CASTLE_MASK, ENDGAME_NPM, KEY_CAPTURE, KEY_QUEEN_PROMOTION, KING_DIRS,
    KNIGHT_OFFSETS, PST, PST_KING_END, ROOK_DIRS, VALUE, ZOBRIST32,
};

/// Constants of ALGORITHM.md that the native engine writes inline rather than as named
/// constants: the null move's minimum non-pawn material (a bishop's value, section 7), its
/// depth reduction, and the fifty-move limit in plies (section 6).
const NULL_MIN_NPM: i16 = VALUE[3];
const NULL_R: i32 = 2;
const FIFTY_PLIES: i32 = 100;

/// The value of a piece-square table `t` (1 pawn ... 6 king, 7 king endgame) at `sq64` from
/// White's point of view.
pub fn pst(t: usize, sq64: usize) -> i8 {
    if t == 7 {
        PST_KING_END[sq64]
    } else {
        PST[t][sq64]
    }
}

/// The Zobrist keys of ALGORITHM.md section 6 in generation order: 768 piece keys (colour,
/// type, sq64), the side key, then the four castling keys.
pub fn zobrist_keys() -> Vec<u32> {
    let z = &ZOBRIST32;
    let mut v = Vec::with_capacity(773);
    for colour in &z.piece {
        for table in &colour[1..=6] {
            v.extend_from_slice(table);
        }
    }
    v.push(z.side);
    v.extend_from_slice(&z.castling);
    v
}

/// The hand-written include files placed in the unused rank-1 and rank-8 parts of the pawn
/// key pages (White's low and high part, then Black's), 32 bytes each at most.
pub const HOLES: [&str; 4] = ["zhole1.inc", "zhole2.inc", "zhole3.inc", "zhole4.inc"];

/// Where the piece-square table of type `t` (1 pawn ... 6 king, 7 king endgame) starts: the
/// byte for 0x88 square `sq` (White's view) is at `PST_BASE[t] | sq`. Two tables share each
/// 128-byte block, one in the left half of every 16-byte row and one in the right half.
pub const PST_BASE: [u16; 8] = [0, 0x0700, 0x0708, 0x0780, 0x0788, 0x0800, 0x0808, 0x0880];
/// The castling masks sit in the last free half-block, indexed the same way.
pub const MASK_BASE: u16 = 0x0888;

/// `bytes` as data lines of 16 bytes, each `DIRECTIVE $XX,$XX,...` (`    defb` for the Z80's
/// assemblers, `        .byte` for ca65).
fn data_lines(out: &mut String, directive: &str, bytes: &[u8]) {
    for chunk in bytes.chunks(16) {
        let items: Vec<String> = chunk.iter().map(|b| format!("${b:02X}")).collect();
        writeln!(out, "{directive} {}", items.join(",")).unwrap();
    }
}

/// A byte of the PST page table as assembler text: 0 (no table) as `$00`, the first PST page
/// (`first`) as `base+7` or `base` (Z80 `PST_PAGE`), the next page one more; the pages then move
/// with the layout's base.
fn pst_page_item(b: u8, base: &str, first: u8) -> String {
    let offset = if base == "PST_PAGE" { 0 } else { 7 };
    match b {
        0 => "$00".into(),
        _ if b == first => {
            if offset == 0 {
                base.into()
            } else {
                format!("{base}+{offset}")
            }
        }
        _ => {
            assert_eq!(b, first + 1, "the PST tables fill two pages");
            format!("{base}+{}", offset + 1)
        }
    }
}

/// The constants of ALGORITHM.md both engines define by name (sections 5, 7, 8, 10).
const CONSTANTS: [(&str, i32); 10] = [
    ("MATE", MATE),
    ("INF", INF),
    ("MAX_PLY", MAX_PLY as i32),
    ("MAX_DEPTH", MAX_DEPTH as i32),
    ("ENDGAME_NPM", ENDGAME_NPM as i32),
    ("NULL_MIN_NPM", NULL_MIN_NPM as i32),
    ("NULL_R", NULL_R),
    ("ORD_CAPTURE", KEY_CAPTURE as i32),
    ("ORD_QPROMO", KEY_QUEEN_PROMOTION as i32),
    ("FIFTY_PLIES", FIFTY_PLIES),
];

/// The 512 bytes from the first PST page on: the piece-square tables at [`PST_BASE`] and the
/// castling masks at [`MASK_BASE`] (offsets from `$0700`).
fn pst_block() -> [u8; 512] {
    let mut block = [0u8; 512];
    for (t, base) in PST_BASE.iter().enumerate().skip(1) {
        let base = (base - 0x0700) as usize;
        for sq in (0..128usize).filter(|s| s & 0x88 == 0) {
            let sq64 = (sq + (sq & 7)) >> 1;
            block[base | sq] = pst(t, sq64) as u8;
        }
    }
    for sq in (0..128u8).filter(|s| s & 0x88 == 0) {
        block[(MASK_BASE - 0x0700) as usize | sq as usize] = CASTLE_MASK[sq as usize];
    }
    block
}

/// The page of Zobrist keys of the piece of `colour` (0 White) and type `ptype` (1 pawn ...
/// 6 king): 4 little-endian bytes per `sq64`.
fn key_page(keys: &[u32], colour: usize, ptype: usize) -> Vec<u8> {
    keys[(colour * 6 + ptype - 1) * 64..][..64]
        .iter()
        .flat_map(|k| k.to_le_bytes())
        .collect()
}

/// The small tables in the order both engines lay them out: (label, what it holds, bytes).
/// `pst_base(t)`: where the engine's piece-square table of type `t` starts.
fn small_tables(
    keys: &[u32],
    pst_base: impl Fn(usize) -> u16,
) -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let lo = |v: &[i16]| -> Vec<u8> {
        v.iter()
            .map(|x| (*x as u16 & 0xFF) as u8)
            .chain([0])
            .collect()
    };
    let hi = |v: &[i16]| -> Vec<u8> {
        v.iter()
            .map(|x| (*x as u16 >> 8) as u8)
            .chain([0])
            .collect()
    };
    let mut npm = VALUE.to_vec();
    npm[1] = 0;
    let term = |v: &[i8]| -> Vec<u8> { v.iter().map(|&s| s as u8).chain([0]).collect() };
    vec![
        (
            "PST_LO",
            "low byte of the PST base by type (7 = king endgame)",
            (0..8).map(|t| (pst_base(t) & 0xFF) as u8).collect(),
        ),
        (
            "PST_HI",
            "page of the PST base by type",
            (0..8).map(|t| (pst_base(t) >> 8) as u8).collect(),
        ),
        ("VAL_LO", "material value by type, low byte", lo(&VALUE)),
        ("VAL_HI", "material value by type, high byte", hi(&VALUE)),
        ("NPM_LO", "non-pawn material by type, low byte", lo(&npm)),
        ("NPM_HI", "non-pawn material by type, high byte", hi(&npm)),
        (
            "HEAVY",
            "1 for the types that rule out insufficient material (pawn, rook, queen)",
            vec![0, 1, 0, 0, 1, 1, 0, 0],
        ),
        (
            "ZOB_SIDE",
            "Zobrist key for Black to move",
            keys[768].to_le_bytes().to_vec(),
        ),
        (
            "ZOB_CASTLE",
            "Zobrist keys for castling rights bits 0..3",
            keys[769..773]
                .iter()
                .flat_map(|k| k.to_le_bytes())
                .collect(),
        ),
        (
            "KNIGHT_OFFS",
            "knight offsets in generation order, 0-terminated",
            term(&KNIGHT_OFFSETS),
        ),
        (
            "QUEEN_DIRS",
            "queen and king directions in generation order, 0-terminated",
            term(&KING_DIRS),
        ),
        (
            "BISHOP_DIRS",
            "bishop directions, 0-terminated",
            term(&BISHOP_DIRS),
        ),
        (
            "ROOK_DIRS",
            "rook directions, 0-terminated",
            term(&ROOK_DIRS),
        ),
    ]
}

/// How an engine's assembler writes the generated file: its data directive, its include
/// directive and how it pads up to an offset from the engine's base.
struct Syntax {
    data: &'static str,
    include: &'static str,
    pad_to: fn(u16) -> String,
}

/// The Z80 engine's assemblers.
const Z80: Syntax = Syntax {
    data: "    defb",
    include: "    include",
    pad_to: |at| format!("    defs CODE_BASE+{at:04X}h-$"),
};

/// ca65, the 6502 engine's assembler.
const CA65: Syntax = Syntax {
    data: "        .byte",
    include: "        .include",
    pad_to: |at| format!("        .res ENGINE_BASE+${at:04X}-*"),
};

/// Page `page` of the Zobrist keys (the keys of piece code `page`, `label` its address in the
/// engine's notation). No pawn stands on rank 1 or 8: those 32 + 32 bytes of a pawn's page
/// hold small routines (the hand-written `holes`, White's low and high part, then Black's),
/// the keys fill the middle.
fn key_page_text(
    o: &mut String,
    syntax: &Syntax,
    keys: &[u32],
    page: u16,
    label: &str,
    holes: &[&str; 4],
) {
    let code = usize::from(page);
    let (colour, ptype) = (code >> 3, code & 7);
    writeln!(
        o,
        "; page {label}: {} {}",
        ["white", "black"][colour],
        ["", "pawn", "knight", "bishop", "rook", "queen", "king"][ptype]
    )
    .unwrap();
    let bytes = key_page(keys, colour, ptype);
    if ptype == 1 {
        let (lo, hi) = (holes[2 * colour], holes[2 * colour + 1]);
        writeln!(
            o,
            "; ranks 1 and 8 are never a pawn's: code from {lo} and {hi}"
        )
        .unwrap();
        let base = page * 256;
        writeln!(o, "{} \"{lo}\"", syntax.include).unwrap();
        writeln!(o, "{}", (syntax.pad_to)(base + 32)).unwrap();
        data_lines(o, syntax.data, &bytes[32..224]);
        writeln!(o, "{} \"{hi}\"", syntax.include).unwrap();
        writeln!(o, "{}", (syntax.pad_to)(base + 256)).unwrap();
    } else {
        data_lines(o, syntax.data, &bytes);
    }
}

/// The text of `roms-src/z80/tables.inc`.
pub fn tables_inc() -> String {
    let mut o = String::new();
    let keys = zobrist_keys();
    o.push_str(
        "; tables.inc - GENERATED by `kempelen gen-tables` from the native engine's constants.\n\
         ; Do not edit: a test fails when this file differs from the generator's output.\n\
         ; Must be included at CODE_BASE + 0100h (layout.inc: 0100h in the Kempelen machine, the\n\
         ; addresses named below): the tables are indexed by page (H) and offset (L).\n\n",
    );
    o.push_str("; --- search and evaluation constants (ALGORITHM.md sections 5, 7, 8, 10) ---\n");
    for (name, v) in CONSTANTS {
        writeln!(o, "{name}: equ {v}").unwrap();
    }
    o.push('\n');

    // Zobrist pages and the PST block.
    o.push_str("; --- 0x0100: Zobrist keys; page = piece code, low byte = 4 * sq64 ---\n");
    o.push_str("ZOB_PAGE: equ CODE_BASE/256\n");
    for page in 1..15u16 {
        match page {
            7 => {
                o.push_str(
                    "\n; --- 0x0700: piece-square tables (0x88 layout, White's view), two per block ---\n\
                     ; pawn at 0700h|sq, knight 0708h|sq, bishop 0780h|sq, rook 0788h|sq,\n\
                     ; queen 0800h|sq, king 0808h|sq, king endgame 0880h|sq, castling mask 0888h|sq\n",
                );
                o.push_str("PST_PAGE: equ CODE_BASE/256+7\nMASK_BASE: equ CODE_BASE+0888h\n");
                data_lines(&mut o, Z80.data, &pst_block());
            }
            8 => {}
            _ => key_page_text(&mut o, &Z80, &keys, page, &format!("{page:02X}h"), &HOLES),
        }
    }
    o.push('\n');

    // Small tables in page 0x0F.
    o.push_str("; --- 0x0F00: small tables, all inside page 0Fh (index with H = 0Fh) ---\n");
    o.push_str("SMALL_PAGE: equ CODE_BASE/256+15\n");
    let small = small_tables(&keys, |t| PST_BASE[t]);
    let mut addr = 0x0F00u16;
    for (name, what, bytes) in &small {
        writeln!(o, "; {what} (at {addr:04X}h)").unwrap();
        writeln!(o, "{name}:").unwrap();
        writeln!(o, "{name}_L: equ ${:02X}", addr & 0xFF).unwrap();
        if *name == "PST_HI" {
            // Pages move with CODE_BASE: written as PST_PAGE (+1), not as numbers.
            let items: Vec<String> = bytes
                .iter()
                .map(|&b| pst_page_item(b, "PST_PAGE", 7))
                .collect();
            writeln!(o, "{} {}", Z80.data, items.join(",")).unwrap();
        } else {
            data_lines(&mut o, Z80.data, bytes);
        }
        addr += bytes.len() as u16;
    }
    assert!(addr <= 0x1000, "small tables overflow page 0Fh");
    writeln!(o, "; end of the generated tables ({addr:04X}h)").unwrap();
    o
}

/// The hand-written include files of the 6502 engine placed in the unused rank-1 and rank-8
/// parts of its pawn key pages (White's low and high part, then Black's), 32 bytes each at
/// most, each named by what it holds.
pub const HOLES_6502: [&str; 4] = [
    "hole_score.inc",
    "hole_check.inc",
    "hole_draw.inc",
    "hole_pvmove.inc",
];

/// The page of piece code 0 in the 6502 image: the keys of piece code `c` fill page
/// `ZOB_HI_6502 + c`: the page of `ENGINE_BASE` in the Kempelen machine (`$D700`, 10.25 KB below
/// the vectors; [`crate::layout::Layout::kempelen`]). Only the comments of the generated text
/// name these addresses: the code refers to `ENGINE_BASE`, so other layouts move the tables.
pub const ZOB_HI_6502: u16 = 0xD7;

/// The text of `roms-src/6502/tables.inc`: the same tables as [`tables_inc`] in ca65 syntax,
/// laid out for the 6502 engine (`.include`d at `ENGINE_BASE + $0100`, `$D800` in the Kempelen
/// machine):
///
/// | address | contents |
/// |---|---|
/// | `$D800` | Zobrist keys of piece code `c` in page `$D7 + c` (codes 1-6 and 9-14), 4 bytes per `sq64`; the pawn pages leave ranks 1 and 8 to the code of [`HOLES_6502`] |
/// | `$DE00` | piece-square tables, two per 128-byte block in 0x88 layout (base `$DE00 + PST_BASE - $0700`), castling masks at `$DF88` |
/// | `$E600` | small tables (values, PST bases, side and castling keys, move offsets), then code |
pub fn tables_inc_6502() -> String {
    let mut o = String::new();
    let keys = zobrist_keys();
    let pst_base = |t: usize| PST_BASE[t] - 0x0700 + (ZOB_HI_6502 + 7) * 256;
    o.push_str(
        "; tables.inc - GENERATED by `kempelen gen-tables` from the native engine's constants.\n\
         ; Do not edit: a test fails when this file differs from the generator's output.\n\
         ; Must be included at ENGINE_BASE + $0100 (layout.inc: $D800 in the Kempelen machine, the\n\
         ; addresses named below): the Zobrist keys are indexed by page (piece code).\n\n",
    );
    o.push_str("; --- search and evaluation constants (ALGORITHM.md sections 5, 7, 8, 10) ---\n");
    for (name, v) in CONSTANTS {
        writeln!(o, "{name} = {v}").unwrap();
    }
    o.push('\n');
    writeln!(
        o,
        "; --- ${:04X}: Zobrist keys; page = ZOB_HI + piece code, low byte = 4 * sq64 ---",
        (ZOB_HI_6502 + 1) * 256
    )
    .unwrap();
    writeln!(o, "ZOB_HI = ENGINE_BASE/256").unwrap();
    for page in 1..15u16 {
        let addr = (ZOB_HI_6502 + page) * 256;
        match page {
            7 => {
                writeln!(
                    o,
                    "\n; --- ${addr:04X}: piece-square tables (0x88 layout, White's view), two per block ---\n\
                     ; pawn at ${:04X}|sq, knight ${:04X}|sq, bishop ${:04X}|sq, rook ${:04X}|sq,\n\
                     ; queen ${:04X}|sq, king ${:04X}|sq, king endgame ${:04X}|sq, castling mask ${:04X}|sq",
                    pst_base(1),
                    pst_base(2),
                    pst_base(3),
                    pst_base(4),
                    pst_base(5),
                    pst_base(6),
                    pst_base(7),
                    MASK_BASE - 0x0700 + addr,
                )
                .unwrap();
                writeln!(
                    o,
                    "CASTLE_MASK = ENGINE_BASE+${:04X}",
                    MASK_BASE - 0x0700 + addr - ZOB_HI_6502 * 256
                )
                .unwrap();
                data_lines(&mut o, CA65.data, &pst_block());
            }
            8 => {}
            _ => key_page_text(
                &mut o,
                &CA65,
                &keys,
                page,
                &format!("${:02X}", addr >> 8),
                &HOLES_6502,
            ),
        }
    }
    o.push('\n');
    let small_at = (ZOB_HI_6502 + 15) * 256;
    writeln!(
        o,
        "; --- ${small_at:04X}: small tables, indexed with X or Y ---"
    )
    .unwrap();
    // The PST bases of the 6502 image: type 0 has none.
    let small = small_tables(&keys, |t| if t == 0 { 0 } else { pst_base(t) });
    let mut addr = small_at;
    for (name, what, bytes) in &small {
        writeln!(o, "; {what} (at ${addr:04X})").unwrap();
        writeln!(o, "{name}:").unwrap();
        if *name == "PST_HI" {
            // Pages move with ENGINE_BASE: written from ZOB_HI, not as numbers.
            let items: Vec<String> = bytes
                .iter()
                .map(|&b| pst_page_item(b, "ZOB_HI", (ZOB_HI_6502 + 7) as u8))
                .collect();
            writeln!(o, "{} {}", CA65.data, items.join(",")).unwrap();
        } else {
            data_lines(&mut o, CA65.data, bytes);
        }
        addr += bytes.len() as u16;
    }
    writeln!(o, "; end of the generated tables (${addr:04X})").unwrap();
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The addresses the 6502 text's comments name are the Kempelen machine's.
    #[test]
    fn the_6502_tables_page_is_the_kempelen_machines_engine_base() {
        let code = crate::layout::Layout::kempelen(kempelen_emulator::Cpu::Mos6502).code;
        assert_eq!(ZOB_HI_6502 * 256, code);
    }

    #[test]
    fn zobrist_keys_come_in_generation_order() {
        let k = zobrist_keys();
        assert_eq!(k.len(), 773);
        let x = kempelen_engine::tables::xorshift32(kempelen_engine::tables::ZOBRIST_SEED);
        assert_eq!(k[0], x);
        assert_eq!(k[1], kempelen_engine::tables::xorshift32(x));
    }

    /// The checked-in include files (`z80/tables.inc`, `6502/tables.inc`) are exactly what
    /// the generators write. Run with `KEMPELEN_BLESS=1` to rewrite them (or use
    /// `kempelen gen-tables`).
    #[test]
    fn tables_inc_files_are_fresh() {
        for (file, want) in [
            ("z80/tables.inc", tables_inc()),
            ("6502/tables.inc", tables_inc_6502()),
        ] {
            crate::assert_checked_in(file, &want);
        }
    }

    /// The ports' bundled sources carry the generated tables (the build leaves the file out
    /// and the generator writes it back), in name order like every other file.
    #[test]
    fn the_bundled_sources_carry_the_generated_tables() {
        for port in crate::port::PORTS.iter().filter(|p| p.is_present()) {
            let write = port.tables.expect("a port with tables");
            let files = port.sources();
            let tables = files.iter().find(|(n, _)| *n == "tables.inc");
            assert_eq!(
                tables.map(|(_, t)| *t),
                Some(write().as_str()),
                "{}",
                port.id
            );
            assert!(files.windows(2).all(|w| w[0].0 < w[1].0), "{}", port.id);
        }
    }

    #[test]
    fn pst_reads_rank_one_from_the_last_printed_row() {
        assert_eq!(pst(6, 6), 30); // king on g1
        assert_eq!(pst(1, 8 + 3), -18); // pawn on d2
    }
}
