//! Generator of `z80/tables.inc`: every numeric table the Z80 engine shares with the native
//! reference engine (piece values, piece-square tables, castling masks, Zobrist keys, move
//! offsets, ordering keys, search constants), laid out the way the Z80 code indexes them.
//!
//! The include file is checked in; `kempelen gen-tables` rewrites it and a test fails when the
//! checked-in copy differs from [`tables_inc`], so the tables can never drift from the engine.
//!
//! ROM layout produced here (the engine's reset jump occupies 0x0000-0x0002):
//!
//! | address | size | contents |
//! |---|---|---|
//! | 0x0003 | 253 | `DIR` table: step from square `b` towards square `a`, indexed by `(a - b + 0x80) & 0xFF` (0 when not on one line) |
//! | 0x0100 | 256 each | Zobrist keys of piece code `c` in page `c` (codes 1-6 and 9-14): 4 bytes per `sq64`, little-endian |
//! | 0x0700 | 512 | piece-square tables, two per 128-byte block in 0x88 layout (see [`PST_BASE`]), castling masks |
//! | 0x0F00 | 64+ | small tables: PST bases per type, values, side and castling keys, move offsets |

use std::fmt::Write as _;

/// Material values by piece type (index 0 = empty, 1 pawn ... 6 king).
pub const VALUE: [i16; 7] = [0, 100, 320, 330, 500, 900, 0];

/// Piece-square tables printed rank 8 first, as in ALGORITHM.md section 5; index 0..6 =
/// pawn, knight, bishop, rook, queen, king (middle game), king (endgame).
#[rustfmt::skip]
pub const PST_PRINTED: [[i8; 64]; 7] = [
    [ 0,  0,  0,  0,  0,  0,  0,  0,
     50, 50, 50, 50, 50, 50, 50, 50,
     12, 14, 20, 28, 28, 20, 14, 12,
      6,  8, 12, 22, 22, 12,  8,  6,
      2,  4,  8, 20, 20,  8,  4,  2,
      4,  2,  4,  8,  8,  0,  2,  4,
      0,  0,  0,-18,-18,  6,  6,  4,
      0,  0,  0,  0,  0,  0,  0,  0],
    [-45,-30,-20,-20,-20,-20,-30,-45,
     -30,-12,  0,  4,  4,  0,-12,-30,
     -20,  4, 12, 16, 16, 12,  4,-20,
     -20,  4, 16, 22, 22, 16,  4,-20,
     -20,  2, 14, 20, 20, 14,  2,-20,
     -20,  2, 10, 12, 12, 10,  2,-20,
     -30,-12,  0,  4,  4,  0,-12,-30,
     -45,-25,-20,-20,-20,-20,-25,-45],
    [-18,-10,-10,-10,-10,-10,-10,-18,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  6, 10, 10,  6,  0,-10,
     -10,  6,  6, 10, 10,  6,  6,-10,
     -10,  0, 10, 10, 10, 10,  0,-10,
     -10, 10, 10, 10, 10, 10, 10,-10,
     -10,  6,  0,  0,  0,  0,  6,-10,
     -18,-10,-12,-10,-10,-12,-10,-18],
    [  0,  0,  0,  4,  4,  0,  0,  0,
       8, 12, 12, 12, 12, 12, 12,  8,
      -4,  0,  0,  0,  0,  0,  0, -4,
      -4,  0,  0,  0,  0,  0,  0, -4,
      -4,  0,  0,  0,  0,  0,  0, -4,
      -4,  0,  0,  0,  0,  0,  0, -4,
      -4,  0,  0,  0,  0,  0,  0, -4,
       0,  0,  0,  6,  6,  4,  0,  0],
    [-20,-10,-10, -4, -4,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  4,  4,  4,  4,  0,-10,
      -4,  0,  4,  6,  6,  4,  0, -4,
      -4,  0,  4,  6,  6,  4,  0, -4,
     -10,  2,  4,  4,  4,  4,  0,-10,
     -10,  0,  2,  0,  0,  0,  0,-10,
     -20,-10,-10, -4, -4,-10,-10,-20],
    [-32,-42,-42,-52,-52,-42,-42,-32,
     -32,-42,-42,-52,-52,-42,-42,-32,
     -32,-42,-42,-52,-52,-42,-42,-32,
     -32,-42,-42,-52,-52,-42,-42,-32,
     -22,-32,-32,-42,-42,-32,-32,-22,
     -12,-22,-22,-24,-24,-22,-22,-12,
      14, 14, -4, -8, -8, -4, 14, 14,
      18, 28,  8, -2,  0,  6, 30, 18],
    [-50,-36,-26,-20,-20,-26,-36,-50,
     -36,-16, -6,  0,  0, -6,-16,-36,
     -26, -6, 14, 22, 22, 14, -6,-26,
     -20,  0, 22, 30, 30, 22,  0,-20,
     -20,  0, 22, 30, 30, 22,  0,-20,
     -26, -6, 14, 22, 22, 14, -6,-26,
     -36,-16, -6,  0,  0, -6,-16,-36,
     -50,-36,-26,-20,-20,-26,-36,-50],
];

/// The value of a piece-square table `t` (0 pawn ... 5 king, 6 king endgame) at `sq64` from
/// White's point of view.
pub fn pst(t: usize, sq64: usize) -> i8 {
    let rank = sq64 / 8;
    let file = sq64 % 8;
    PST_PRINTED[t][(7 - rank) * 8 + file]
}

/// Castling-rights mask by 0x88 square (ALGORITHM.md section 4).
pub fn castle_mask(sq: u8) -> u8 {
    match sq {
        0x00 => 0x0D,
        0x04 => 0x0C,
        0x07 => 0x0E,
        0x70 => 0x07,
        0x74 => 0x03,
        0x77 => 0x0B,
        _ => 0x0F,
    }
}

/// The Zobrist keys of ALGORITHM.md section 6, in generation order: 768 piece keys (colour,
/// type, sq64), the side key, then the four castling keys.
pub fn zobrist_keys() -> Vec<u32> {
    let mut x: u32 = 0x4B45_4D50;
    (0..768 + 1 + 4)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// Knight offsets, then king/queen, bishop and rook directions, in generation order.
pub const KNIGHT_OFFSETS: [i8; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
pub const QUEEN_DIRS: [i8; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];
pub const BISHOP_DIRS: [i8; 4] = [-17, -15, 15, 17];
pub const ROOK_DIRS: [i8; 4] = [-16, -1, 1, 16];

/// Where the piece-square table of type `t` (1 pawn ... 6 king, 7 king endgame) starts: the
/// byte for 0x88 square `sq` (White's view) is at `PST_BASE[t] | sq`. Two tables share each
/// 128-byte block, one in the left half of every 16-byte row and one in the right half.
pub const PST_BASE: [u16; 8] = [0, 0x0700, 0x0708, 0x0780, 0x0788, 0x0800, 0x0808, 0x0880];
/// The castling masks sit in the last free half-block, indexed the same way.
pub const MASK_BASE: u16 = 0x0888;

/// Step from square `b` towards square `a` when both lie on one rank, file or diagonal.
fn direction(a: i32, b: i32) -> i8 {
    let d = a - b;
    for step in QUEEN_DIRS {
        let s = step as i32;
        for k in 1..8 {
            if s * k == d {
                // Walk to make sure the line stays on the board.
                let mut sq = b;
                let mut ok = true;
                for _ in 0..k {
                    sq += s;
                    if sq & 0x88 != 0 || sq < 0 {
                        ok = false;
                    }
                }
                if ok {
                    return step;
                }
            }
        }
    }
    0
}

/// The DIR table body for addresses 0x0003..0x00FF: `DIR[(a - b + 0x80) & 0xFF]`. A difference
/// fixes the direction uniquely on a 0x88 board, so one byte per difference suffices.
fn dir_table() -> [i8; 256] {
    let mut t = [0i8; 256];
    for a in (0..128).filter(|s| s & 0x88 == 0) {
        for b in (0..128).filter(|s| s & 0x88 == 0) {
            if a == b {
                continue;
            }
            let idx = ((a - b + 0x80) & 0xFF) as usize;
            let s = direction(a, b);
            assert!(t[idx] == 0 || t[idx] == s);
            t[idx] = s;
        }
    }
    t
}

fn bytes_line(out: &mut String, bytes: &[u8]) {
    for chunk in bytes.chunks(16) {
        let items: Vec<String> = chunk.iter().map(|b| format!("${b:02X}")).collect();
        writeln!(out, "    defb {}", items.join(",")).unwrap();
    }
}

/// The text of `roms-src/z80/tables.inc`.
pub fn tables_inc() -> String {
    let mut o = String::new();
    let keys = zobrist_keys();
    o.push_str(
        "; tables.inc - GENERATED by `kempelen gen-tables` from the native engine's constants.\n\
         ; Do not edit: a test fails when this file differs from the generator's output.\n\
         ; Included right after the 3-byte reset jump at 0x0000: the page-indexed tables below rely\n\
         ; on starting at 0x0003.\n\n",
    );
    o.push_str("; --- search and evaluation constants (ALGORITHM.md sections 5, 7, 8, 10) ---\n");
    for (name, v) in [
        ("MATE", 32000),
        ("INF", 32001),
        ("MAX_PLY", 64),
        ("MAX_DEPTH", 32),
        ("ENDGAME_NPM", 2600),
        ("NULL_MIN_NPM", 330),
        ("NULL_R", 2),
        ("ORD_CAPTURE", 160),
        ("ORD_QPROMO", 160),
        ("FIFTY_PLIES", 100),
    ] {
        writeln!(o, "{name}: equ {v}").unwrap();
    }
    o.push('\n');

    // Page 0 after the reset jump: the direction table.
    let dir = dir_table();
    o.push_str(
        "; --- 0x0003: DIR, the step from square b towards square a, at DIR_PAGE:(a-b+80h) ---\n",
    );
    o.push_str("DIR_PAGE: equ $00\n");
    let body: Vec<u8> = dir[3..].iter().map(|&s| s as u8).collect();
    for (i, chunk) in body.chunks(16).enumerate() {
        let _ = i;
        bytes_line(&mut o, chunk);
    }
    o.push('\n');

    // Zobrist pages and the PST block.
    o.push_str("; --- 0x0100: Zobrist keys; page = piece code, low byte = 4 * sq64 ---\n");
    o.push_str("ZOB_PAGE: equ $00\n");
    for page in 1..15u32 {
        match page {
            7 => {
                o.push_str(
                    "\n; --- 0x0700: piece-square tables (0x88 layout, White's view), two per block ---\n\
                     ; pawn at 0700h|sq, knight 0708h|sq, bishop 0780h|sq, rook 0788h|sq,\n\
                     ; queen 0800h|sq, king 0808h|sq, king endgame 0880h|sq, castling mask 0888h|sq\n",
                );
                let mut block = [0u8; 512];
                for (t, base) in PST_BASE.iter().enumerate().skip(1) {
                    let base = (base - 0x0700) as usize;
                    for sq in (0..128usize).filter(|s| s & 0x88 == 0) {
                        let sq64 = (sq + (sq & 7)) >> 1;
                        block[base | sq] = pst(t - 1, sq64) as u8;
                    }
                }
                for sq in (0..128u8).filter(|s| s & 0x88 == 0) {
                    block[(MASK_BASE - 0x0700) as usize | sq as usize] = castle_mask(sq);
                }
                o.push_str("PST_PAGE: equ $07\nMASK_BASE: equ $0888\n");
                bytes_line(&mut o, &block);
            }
            8 => {}
            _ => {
                let code = page as usize;
                let colour = code >> 3;
                let ptype = code & 7;
                writeln!(
                    o,
                    "; page {page:02X}h: {} {}",
                    ["white", "black"][colour],
                    ["", "pawn", "knight", "bishop", "rook", "queen", "king"][ptype]
                )
                .unwrap();
                let mut bytes = Vec::with_capacity(256);
                for sq64 in 0..64 {
                    let k = keys[(colour * 6 + ptype - 1) * 64 + sq64];
                    bytes.extend_from_slice(&k.to_le_bytes());
                }
                bytes_line(&mut o, &bytes);
            }
        }
    }
    o.push('\n');

    // Small tables in page 0x0F.
    o.push_str("; --- 0x0F00: small tables, all inside page 0Fh (index with H = 0Fh) ---\n");
    o.push_str("SMALL_PAGE: equ $0F\n");
    let mut small: Vec<(String, String, Vec<u8>)> = Vec::new();
    small.push((
        "PST_LO".into(),
        "low byte of the PST base by type (7 = king endgame)".into(),
        PST_BASE.iter().map(|b| (b & 0xFF) as u8).collect(),
    ));
    small.push((
        "PST_HI".into(),
        "page of the PST base by type".into(),
        PST_BASE.iter().map(|b| (b >> 8) as u8).collect(),
    ));
    let mut vlo: Vec<u8> = VALUE.iter().map(|v| (*v as u16 & 0xFF) as u8).collect();
    vlo.push(0);
    let mut vhi: Vec<u8> = VALUE.iter().map(|v| (*v as u16 >> 8) as u8).collect();
    vhi.push(0);
    small.push((
        "VAL_LO".into(),
        "material value by type, low byte".into(),
        vlo,
    ));
    small.push((
        "VAL_HI".into(),
        "material value by type, high byte".into(),
        vhi,
    ));
    let mut nlo = VALUE.to_vec();
    nlo[1] = 0;
    small.push((
        "NPM_LO".into(),
        "non-pawn material by type, low byte".into(),
        nlo.iter()
            .map(|v| (*v as u16 & 0xFF) as u8)
            .chain([0])
            .collect(),
    ));
    small.push((
        "NPM_HI".into(),
        "non-pawn material by type, high byte".into(),
        nlo.iter()
            .map(|v| (*v as u16 >> 8) as u8)
            .chain([0])
            .collect(),
    ));
    small.push((
        "HEAVY".into(),
        "1 for the types that rule out insufficient material (pawn, rook, queen)".into(),
        vec![0, 1, 0, 0, 1, 1, 0, 0],
    ));
    small.push((
        "ZOB_SIDE".into(),
        "Zobrist key for Black to move".into(),
        keys[768].to_le_bytes().to_vec(),
    ));
    small.push((
        "ZOB_CASTLE".into(),
        "Zobrist keys for castling rights bits 0..3".into(),
        keys[769..773]
            .iter()
            .flat_map(|k| k.to_le_bytes())
            .collect(),
    ));
    let term = |v: &[i8]| -> Vec<u8> { v.iter().map(|&s| s as u8).chain([0]).collect() };
    small.push((
        "KNIGHT_OFFS".into(),
        "knight offsets in generation order, 0-terminated".into(),
        term(&KNIGHT_OFFSETS),
    ));
    small.push((
        "QUEEN_DIRS".into(),
        "queen and king directions in generation order, 0-terminated".into(),
        term(&QUEEN_DIRS),
    ));
    small.push((
        "BISHOP_DIRS".into(),
        "bishop directions, 0-terminated".into(),
        term(&BISHOP_DIRS),
    ));
    small.push((
        "ROOK_DIRS".into(),
        "rook directions, 0-terminated".into(),
        term(&ROOK_DIRS),
    ));
    let mut addr = 0x0F00u16;
    for (name, what, bytes) in &small {
        writeln!(o, "; {what} (at {addr:04X}h)").unwrap();
        writeln!(o, "{name}:").unwrap();
        writeln!(o, "{name}_L: equ ${:02X}", addr & 0xFF).unwrap();
        bytes_line(&mut o, bytes);
        addr += bytes.len() as u16;
    }
    assert!(addr <= 0x1000, "small tables overflow page 0Fh");
    writeln!(o, "; end of the generated tables ({addr:04X}h)").unwrap();
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_first_key_is_the_xorshift_of_the_seed() {
        let mut x: u32 = 0x4B45_4D50;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        assert_eq!(zobrist_keys()[0], x);
    }

    #[test]
    fn dir_table_knows_lines() {
        let t = dir_table();
        // h8 seen from a1: diagonal +17; a8 from a1: +16; b3 from a1: knight jump, none.
        let at = |a: i32, b: i32| t[((a - b + 0x80) & 0xFF) as usize];
        assert_eq!(at(0x77, 0x00), 17);
        assert_eq!(at(0x70, 0x00), 16);
        assert_eq!(at(0x21, 0x00), 0);
        assert_eq!(at(0x00, 0x07), -1);
        // Indices 0..8 and 0xF8..0xFF are never used (the reset jump lives there).
        assert!(t[..9].iter().all(|&s| s == 0));
        assert!(t[0xF8..].iter().all(|&s| s == 0));
    }

    /// The checked-in include file is exactly what the generator writes. Run with
    /// `KEMPELEN_BLESS=1` to rewrite it (or use `kempelen gen-tables`).
    #[test]
    fn tables_inc_is_fresh() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/z80/tables.inc");
        let want = tables_inc();
        if std::env::var_os("KEMPELEN_BLESS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(have == want, "{path} is stale: run `kempelen gen-tables`");
    }

    #[test]
    fn pst_reads_rank_one_from_the_last_printed_row() {
        assert_eq!(pst(5, 6), 30); // king on g1
        assert_eq!(pst(0, 8 + 3), -18); // pawn on d2
    }
}
