//! Perft (ALGORITHM.md §12): leaf counts of the legal move tree, through the same generator and
//! make/unmake the search uses, so perft certifies the code that plays. Depth 1 is counted in
//! bulk (the length of the legal move list); there is no hash table.

use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of leaves of the legal move tree of `depth` plies below `pos`.
///
/// ```
/// use kempelen_engine::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 8902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    let mut lists = vec![MoveList::new(); depth.max(1) as usize];
    perft_inner(&mut pos, depth, &mut lists)
}

fn perft_inner(pos: &mut Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    pos.generate(list, GenMode::All);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for &m in list.as_slice() {
        let undo = pos.make(m);
        total += perft_inner(pos, depth - 1, rest);
        pos.unmake(m, &undo);
    }
    total
}

/// Perft split by root move: each legal move (canonical order) with its leaf count at
/// `depth - 1` below it. Depth 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    let mut lists = vec![MoveList::new(); depth as usize];
    moves
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = perft_inner(&mut pos, depth - 1, &mut lists);
            pos.unmake(m, &undo);
            (m, n)
        })
        .collect()
}
