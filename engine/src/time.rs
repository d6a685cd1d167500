//! Time management: turns UCI time limits into a soft limit (do not start another iteration
//! after it) and a hard limit (abort the running iteration). A fixed margin covers the
//! communication with the GUI, so the engine does not lose on time.

use crate::engine::Limits;
use crate::piece::BLACK;
use std::time::Duration;

/// Time a search may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this time.
    pub hard: Option<Duration>,
}

/// Reserved per move for process and pipe latency.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// The budget for the side to move (`side` 0 white, 8 black).
pub fn budget(limits: &Limits, side: u8) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::default();
    }
    let mut b = TimeBudget::default();
    if let Some(t) = limits.movetime {
        let t = t.saturating_sub(MOVE_OVERHEAD.min(t / 4));
        b = TimeBudget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let (time, inc) = if side == BLACK {
        (limits.btime, limits.binc)
    } else {
        (limits.wtime, limits.winc)
    };
    if let Some(time) = time {
        let inc = inc.unwrap_or_default();
        let safe = time
            .saturating_sub(MOVE_OVERHEAD * 2)
            .max(Duration::from_millis(1));
        let moves_to_go = limits.movestogo.map(|m| m.clamp(1, 40)).unwrap_or(30);
        let (soft_cap, hard_cap) = if moves_to_go == 1 {
            (safe * 3 / 5, safe * 4 / 5)
        } else {
            (safe / 3, safe / 2)
        };
        let soft = (safe / moves_to_go + inc * 3 / 4).min(soft_cap);
        let hard = (soft * 4).min(hard_cap).max(soft);
        b.soft = Some(b.soft.map_or(soft, |s| s.min(soft)));
        b.hard = Some(b.hard.map_or(hard, |h| h.min(hard)));
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_fraction_of_the_clock() {
        let limits = Limits {
            wtime: Some(Duration::from_secs(10)),
            winc: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let b = budget(&limits, 0);
        let soft = b.soft.unwrap();
        let hard = b.hard.unwrap();
        assert!(
            soft > Duration::from_millis(300) && soft < Duration::from_millis(500),
            "{soft:?}"
        );
        assert!(hard >= soft && hard <= Duration::from_secs(5));
        // Almost no time left: still below the clock.
        let limits = Limits {
            btime: Some(Duration::from_millis(40)),
            ..Limits::default()
        };
        let b = budget(&limits, BLACK);
        assert!(b.hard.unwrap() < Duration::from_millis(40));
    }
}
