//! Pieces shared by both searches: the triangular principal-variation table and the repetition
//! test over a history of position keys (ALGORITHM.md §6 and §7).

use crate::moves::Move;

/// Triangular PV table: row `ply` holds the best line found from that ply on.
pub(crate) struct PvTable {
    max_ply: usize,
    moves: Vec<Move>,
    len: Vec<usize>,
}

impl PvTable {
    /// A table for plies `0..=max_ply`.
    pub(crate) fn new(max_ply: usize) -> Self {
        PvTable {
            max_ply,
            moves: vec![Move::NULL; (max_ply + 1) * (max_ply + 1)],
            len: vec![0; max_ply + 1],
        }
    }

    /// Empties the line of `ply` (done on entering a node).
    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// The line of `ply` becomes `m` followed by the line of `ply + 1`.
    pub(crate) fn update(&mut self, ply: usize, m: Move) {
        let row = self.max_ply + 1;
        let child_len = if ply < self.max_ply {
            self.len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.moves.split_at_mut((ply + 1) * row);
        let line = &mut head[ply * row..];
        line[0] = m;
        line[1..=child_len].copy_from_slice(&tail[..child_len]);
        self.len[ply] = child_len + 1;
    }

    /// The line of `ply`.
    pub(crate) fn line(&self, ply: usize) -> &[Move] {
        let row = self.max_ply + 1;
        &self.moves[ply * row..ply * row + self.len[ply]]
    }
}

/// The previous iteration's PV move at `ply` while the search still follows that line
/// (`follow`: every node so far was the first searched of its parent); past the line's end
/// the search no longer follows it (ALGORITHM.md §7).
#[inline(always)]
pub(crate) fn followed_move(follow: &mut bool, prev_pv: &[Move], ply: usize) -> Option<Move> {
    if !*follow {
        return None;
    }
    let m = prev_pv.get(ply).copied();
    *follow = m.is_some();
    m
}

/// Whether the last key of `history` equals the key 4, 6, 8, ... entries earlier, for every such
/// distance up to the halfmove clock that the history holds.
pub(crate) fn is_repetition<K: PartialEq + Copy>(history: &[K], halfmove: u16) -> bool {
    let n = history.len();
    let current = history[n - 1];
    let mut k = 4;
    while k <= halfmove as usize && k < n {
        if history[n - 1 - k] == current {
            return true;
        }
        k += 2;
    }
    false
}
