//! Chess clocks: time controls as PGN writes them, whose time a player is charged (the host's
//! or its machine's emulated time), and one side's clock during a game.
//!
//! A time control is one or more periods separated by `:`, as in PGN's `TimeControl` tag:
//! `40/7200` (40 moves in 7200 s, the rate of the tournaments of the 1970s; the last period
//! with a move count repeats, so the 41st move starts another 40 moves in 7200 s), `300+2`
//! (300 s for the game, 2 s added after every move), `40/7200:3600` (then 3600 s for the rest
//! of the game), `40/7200:20/3600` (then 20 moves an hour, repeated), and `40/7200+30` (an
//! increment within a period). Times are seconds, fractions allowed.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest time a period may give, in seconds (ten days: emulated championships at
/// historical rates run long, but not without end).
pub const MAX_PERIOD_SECONDS: f64 = 864_000.0;
/// The most moves a period may count.
pub const MAX_PERIOD_MOVES: u32 = 1000;

/// One period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// Moves to make in the period (`None`: the rest of the game).
    pub moves: Option<u32>,
    /// Time given at the start of the period.
    pub base: Duration,
    /// Time added after every move of the period.
    pub increment: Duration,
}

/// A time control: its periods in order. After the last period with a move count that period
/// repeats; a last period without one lasts to the end of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The periods, at least one.
    pub periods: Vec<Period>,
}

/// A time control that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control '{text}': {reason}")]
pub struct TimeControlError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} '{text}' is not a number of seconds"))?;
    if !(0.0..=MAX_PERIOD_SECONDS).contains(&v) {
        return Err(format!(
            "{what} {text} is out of range (0 to {MAX_PERIOD_SECONDS} seconds)"
        ));
    }
    // Milliseconds, as the PGN tag prints them: the clock a game runs on is the one its tag
    // names (`0.0004` is no time at all).
    Ok(Duration::from_millis((v * 1000.0).round() as u64))
}

fn fmt_seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        // At most millisecond precision, without trailing zeros.
        let t = format!("{s:.3}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Parses `[MOVES/]BASE[+INC]` periods separated by `:`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let bad = |reason: String| TimeControlError {
            text: text.to_string(),
            reason,
        };
        let mut periods = Vec::new();
        let parts: Vec<&str> = text.split(':').collect();
        for (i, part) in parts.iter().enumerate() {
            let part = part.trim();
            if part.is_empty() {
                return Err(bad("an empty period (expected [MOVES/]BASE[+INC])".into()));
            }
            let (moves, rest) = match part.split_once('/') {
                Some((m, rest)) => {
                    let m: u32 = m
                        .trim()
                        .parse()
                        .map_err(|_| bad(format!("'{m}' before '/' is not a number of moves")))?;
                    if !(1..=MAX_PERIOD_MOVES).contains(&m) {
                        return Err(bad(format!(
                            "{m} moves: a period counts 1 to {MAX_PERIOD_MOVES} moves"
                        )));
                    }
                    (Some(m), rest)
                }
                None => (None, part),
            };
            let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
            let base = seconds(base, "base").map_err(&bad)?;
            let increment = seconds(inc, "increment").map_err(&bad)?;
            if base.is_zero() && increment.is_zero() {
                return Err(bad("a period must give some time".into()));
            }
            if moves.is_none() && i + 1 < parts.len() {
                return Err(bad(format!(
                    "period {} has no move count, so it lasts to the end of the game and \
                     nothing can follow it",
                    i + 1
                )));
            }
            periods.push(Period {
                moves,
                base,
                increment,
            });
        }
        if periods[0].base.is_zero() {
            return Err(bad("the first period's base time must be positive".into()));
        }
        Ok(TimeControl { periods })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form (`40/7200`, `300+2`, `40/7200:3600`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            if let Some(m) = p.moves {
                write!(f, "{m}/")?;
            }
            f.write_str(&fmt_seconds(p.base))?;
            if !p.increment.is_zero() {
                write!(f, "+{}", fmt_seconds(p.increment))?;
            }
        }
        Ok(())
    }
}

/// Whose time a player's clock is charged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockMode {
    /// The host's wall clock for every player: the time each search takes on this host.
    #[default]
    Host,
    /// The time each player reports: emulated time at its machine's clock for the 8-bit
    /// builds and adapted programs (see [`crate::Engine::clock`]), the host's time for native
    /// profiles and external engines.
    Emulated,
}

impl FromStr for ClockMode {
    type Err = String;

    fn from_str(s: &str) -> Result<ClockMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "host" => Ok(ClockMode::Host),
            "emulated" => Ok(ClockMode::Emulated),
            _ => Err(format!("clock '{s}': expected host or emulated")),
        }
    }
}

impl fmt::Display for ClockMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClockMode::Host => "host",
            ClockMode::Emulated => "emulated",
        })
    }
}

/// One side's clock in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideClock {
    control: TimeControl,
    remaining: Duration,
    period: usize,
    moves_in_period: u32,
}

impl SideClock {
    /// A clock at the start of the first period.
    pub fn new(control: &TimeControl) -> SideClock {
        SideClock {
            control: control.clone(),
            remaining: control.periods[0].base,
            period: 0,
            moves_in_period: 0,
        }
    }

    fn current(&self) -> &Period {
        &self.control.periods[self.period]
    }

    /// Time left on the clock.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The increment after each move of the current period.
    pub fn increment(&self) -> Duration {
        self.current().increment
    }

    /// Moves to make before the next time is added (`None` in a period to the end of the
    /// game).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.current().moves.map(|m| m - self.moves_in_period)
    }

    /// Charges a move that took `spent`. Returns `false` when the flag fell (the move took
    /// longer than the time left); the clock is then at zero.
    pub fn charge(&mut self, spent: Duration) -> bool {
        if spent > self.remaining {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining - spent + self.current().increment;
        self.moves_in_period += 1;
        if self.current().moves == Some(self.moves_in_period) {
            // The next period, or the last one again.
            if self.period + 1 < self.control.periods.len() {
                self.period += 1;
            }
            self.moves_in_period = 0;
            self.remaining += self.current().base;
        }
        true
    }
}

/// A duration as PGN's clock comments write it: `H:MM:SS`, with the fraction of a second to
/// the millisecond when there is one (`0:02:58.712`).
pub fn pgn_time(d: Duration) -> String {
    let ms = d.as_millis();
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    if frac == 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{h}:{m:02}:{s:02}.{frac:03}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn time_controls_parse_and_print_as_pgn() {
        let t = tc("40/7200");
        assert_eq!(
            t.periods,
            vec![Period {
                moves: Some(40),
                base: Duration::from_secs(7200),
                increment: Duration::ZERO
            }]
        );
        for s in [
            "40/7200",
            "300+2",
            "10+0.1",
            "40/7200:3600",
            "40/7200:20/3600",
            "40/60+0.5",
        ] {
            assert_eq!(tc(s).to_string(), s);
        }
        assert_eq!(tc(" 40 / 7200.0 ").to_string(), "40/7200");
        // Times are whole milliseconds, as printed: the tag names the clock the game runs on.
        assert_eq!(tc("0.1844674").to_string(), "0.184");
        assert_eq!(tc("0.1844674"), tc("0.184"));
        assert!("0.0004".parse::<TimeControl>().is_err());
        for (bad, why) in [
            ("", "empty period"),
            ("x", "not a number of seconds"),
            ("0", "must give some time"),
            ("0+1", "first period's base time must be positive"),
            ("40/", "not a number of seconds"),
            ("0/60", "1 to 1000 moves"),
            ("a/60", "not a number of moves"),
            ("3600:40/60", "nothing can follow it"),
            ("1e9", "out of range"),
            ("-5", "out of range"),
            ("NaN", "out of range"),
            ("60+inf", "out of range"),
            ("40/7200:", "empty period"),
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn a_period_repeats_and_the_flag_falls() {
        // 2 moves in 10 s, repeating.
        let mut c = SideClock::new(&tc("2/10"));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_secs(4)));
        assert_eq!(
            (c.remaining(), c.moves_to_go()),
            (Duration::from_secs(6), Some(1))
        );
        assert!(c.charge(Duration::from_secs(5)));
        // Period over: 1 s left plus another 10 s for the next two moves.
        assert_eq!(
            (c.remaining(), c.moves_to_go()),
            (Duration::from_secs(11), Some(2))
        );
        assert!(!c.charge(Duration::from_millis(11_001)));
        assert_eq!(c.remaining(), Duration::ZERO);
        // Exactly the time left is not a flag fall.
        let mut c = SideClock::new(&tc("2/10"));
        assert!(c.charge(Duration::from_secs(10)));
    }

    #[test]
    fn sudden_death_after_a_period_and_increments() {
        let mut c = SideClock::new(&tc("1/10:20+1"));
        assert!(c.charge(Duration::from_secs(3)));
        // 7 s left, then 20 s to the end of the game with 1 s a move.
        assert_eq!(
            (c.remaining(), c.moves_to_go()),
            (Duration::from_secs(27), None)
        );
        assert!(c.charge(Duration::from_secs(7)));
        assert_eq!(c.remaining(), Duration::from_secs(21));
        assert_eq!(c.increment(), Duration::from_secs(1));
        let mut c = SideClock::new(&tc("60+0.5"));
        assert!(c.charge(Duration::from_millis(1500)));
        assert_eq!(c.remaining(), Duration::from_secs(59));
    }

    #[test]
    fn clock_comments() {
        assert_eq!(pgn_time(Duration::from_secs(7200)), "2:00:00");
        assert_eq!(pgn_time(Duration::from_millis(178_712)), "0:02:58.712");
        assert_eq!(pgn_time(Duration::from_micros(999)), "0:00:00");
        assert_eq!("Emulated".parse::<ClockMode>(), Ok(ClockMode::Emulated));
        assert!("wall".parse::<ClockMode>().is_err());
    }
}
