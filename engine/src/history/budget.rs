//! Node, time and stop limits shared by the historical profiles: the same rules as the
//! reference search (ALGORITHM.md §9). The first iteration always completes, so a search
//! always has a move; after it, the node limit, the stop flag and the hard time limit end the
//! search between nodes, and the soft time limit keeps a new iteration from starting.

use crate::engine::{Limits, SearchControl, SearchInfo};
use crate::time;
use std::time::{Duration, Instant};

/// The limits of one search and the node counter.
pub(crate) struct Budget<'c, 'i> {
    /// Nodes counted so far (each profile says what it counts).
    pub nodes: u64,
    node_limit: Option<u64>,
    soft: Option<Duration>,
    hard: Option<Duration>,
    control: &'c SearchControl<'i>,
    start: Instant,
    armed: bool,
    /// Set once a limit has ended the search.
    pub aborted: bool,
}

impl<'c, 'i> Budget<'c, 'i> {
    /// The budget for `limits`, for the side to move `side` (0 white, 8 black).
    pub fn new(limits: &Limits, side: u8, control: &'c SearchControl<'i>) -> Self {
        let b = time::budget(limits, side);
        Budget {
            nodes: 0,
            node_limit: limits.nodes,
            soft: b.soft,
            hard: b.hard,
            control,
            start: control.start,
            armed: false,
            aborted: false,
        }
    }

    /// Counts a node; true when the search must end now. Limits apply only once
    /// [`Budget::arm`] has been called (after the first iteration).
    #[inline]
    pub fn count(&mut self) -> bool {
        self.nodes += 1;
        if !self.armed {
            return false;
        }
        if self.node_limit.is_some_and(|n| self.nodes > n) {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            if self.control.stopped() {
                self.aborted = true;
            }
            if self.hard.is_some_and(|h| self.start.elapsed() >= h) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// From now on the limits apply (called after the first completed iteration).
    pub fn arm(&mut self) {
        self.armed = true;
    }

    /// Whether another iteration may start: no stop, soft time left, nodes left.
    pub fn may_continue(&self) -> bool {
        !self.control.stopped()
            && self.soft.is_none_or(|s| self.start.elapsed() < s)
            && self.node_limit.is_none_or(|n| self.nodes < n)
    }

    /// Multiplies the time limits by `factor` (Donninger's "extra time" after a zugzwang
    /// restart).
    pub fn extend_time(&mut self, factor: u32) {
        self.soft = self.soft.map(|s| s * factor);
        self.hard = self.hard.map(|h| h * factor);
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Sends an info line to the caller.
    pub fn report(&self, info: &SearchInfo) {
        self.control.report(info);
    }
}
