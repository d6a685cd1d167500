//! Rating arithmetic: a score as an Elo difference with a 95 % margin (one pairing), and the
//! ratings of a whole round robin or gauntlet, fitted by the Bradley-Terry model and anchored to
//! one player's known rating.
//!
//! Conventions, so the figures can be checked by hand:
//! - A draw counts half a win. The logistic Elo curve: expected score `s = 1 / (1 + 10^(-d/400))`,
//!   so `d = -400 log10(1/s - 1)`; 75 % is `400 log10 3 = +190.8` Elo.
//! - One pairing: the standard error of the mean score per game comes from the observed wins,
//!   draws and losses (the trinomial variance); the interval is `s ± 1.96 se` mapped through the
//!   curve, and the margin is half its width (the way cutechess-cli prints it). Where that
//!   interval says nothing (no spread: every game won, lost or drawn) or reaches a score of 0
//!   or 1 (small or lopsided samples), Wilson's score interval takes its place, which stays
//!   within the scores possible (Wilson, "Probable inference, the law of succession, and
//!   statistical inference", JASA 22, 1927).
//! - Several players: maximum likelihood of the Bradley-Terry model (Hunter's MM iteration,
//!   draws as half a win and half a loss); margins are 1.96 standard deviations from the inverse
//!   Fisher information, relative to the anchor when one is given, else to the mean rating.
//!   A player who won or lost every game has no finite maximum-likelihood rating: it is
//!   reported as unbounded (`None`) and the others are fitted among themselves.

/// Converts natural-log rating units (Bradley-Terry `ln gamma`) to Elo.
const ELO_PER_NEPER: f64 = 400.0 / std::f64::consts::LN_10;
/// Two-sided 95 % quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player (or one side of a pairing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game (0..=1); `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The same games seen from the other side.
    pub fn reversed(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Adds one game: `points` is 1, 0.5 or 0.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }
}

/// The Elo difference that makes `score` (0..=1) the expected score; infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score at an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EloEstimate {
    /// Points per game.
    pub score: f64,
    /// Elo difference (infinite for a perfect or zero score).
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
    /// Half the interval's width (infinite when an end is).
    pub margin: f64,
    /// Whether the interval is Wilson's (the normal one said nothing or reached a score of 0
    /// or 1); it is then not centred on the score, and printed with both ends.
    pub wilson: bool,
}

/// Wilson's 95 % score interval for `n` games at score `s` (a draw half a win): the scores
/// whose normal test would not reject `s`. It lies within 0..=1 and reaches an end only at a
/// perfect score.
pub fn wilson_interval(s: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference of a pairing from one side's wins, draws and losses; `None` without games.
pub fn elo_difference(wdl: Wdl) -> Option<EloEstimate> {
    let n = wdl.games() as f64;
    let s = wdl.score()?;
    let var = (wdl.wins as f64 * (1.0 - s).powi(2)
        + wdl.draws as f64 * (0.5 - s).powi(2)
        + wdl.losses as f64 * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let (mut lo, mut hi) = (s - Z95 * se, s + Z95 * se);
    let wilson = se == 0.0 || lo <= 0.0 || hi >= 1.0;
    if wilson {
        (lo, hi) = wilson_interval(s, n);
    }
    let low = elo_from_score(lo);
    let high = elo_from_score(hi);
    Some(EloEstimate {
        score: s,
        elo: elo_from_score(s),
        low,
        high,
        margin: (high - low) / 2.0,
        wilson,
    })
}

/// An Elo figure as a table prints it: `+70`, `-5`, `0`.
pub fn fmt_elo(v: f64) -> String {
    if v.abs() < 0.5 {
        "0".into()
    } else {
        format!("{v:+.0}")
    }
}

/// A pairing's Elo difference in words, with its 95 % interval; never an infinity:
/// `Elo +70 ± 124`; `Elo +636 (95 %: +240 to +1033)` (Wilson's interval, not centred);
/// `won all 20: Elo above +287 (95 %)`.
pub fn describe_elo(wdl: Wdl) -> String {
    let Some(e) = elo_difference(wdl) else {
        return "no games".into();
    };
    let n = wdl.games();
    if wdl.wins == n {
        return format!("won all {n}: Elo above {} (95 %)", fmt_elo(e.low));
    }
    if wdl.losses == n {
        return format!("lost all {n}: Elo below {} (95 %)", fmt_elo(e.high));
    }
    if e.wilson {
        format!(
            "Elo {} (95 %: {} to {})",
            fmt_elo(e.elo),
            fmt_elo(e.low),
            fmt_elo(e.high)
        )
    } else {
        format!("Elo {} ± {:.0}", fmt_elo(e.elo), e.margin)
    }
}

/// One player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    /// Elo; `None` when unbounded (every game won or every game lost).
    pub elo: Option<f64>,
    /// 95 % margin; `None` when unbounded, 0 for the anchor itself.
    pub margin: Option<f64>,
}

/// Errors of [`fit_ratings`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// The anchor index is not a player.
    #[error("anchor player {0} does not exist")]
    NoSuchAnchor(usize),
    /// The anchor won or lost every game, so its distance to the others is not finite.
    #[error("the anchor won or lost every game: its rating difference to the others is unbounded")]
    UnboundedAnchor,
}

/// Bradley-Terry ratings of `players` players from `points[i][j]` (points player `i` scored
/// against `j`) and `games[i][j]` (games between them; symmetric). `anchor` fixes one player's
/// rating (index, Elo); without it the bounded ratings average 0.
pub fn fit_ratings(
    points: &[Vec<f64>],
    games: &[Vec<u32>],
    anchor: Option<(usize, f64)>,
) -> Result<Vec<Rating>, RatingError> {
    let m = points.len();
    if let Some((a, _)) = anchor {
        if a >= m {
            return Err(RatingError::NoSuchAnchor(a));
        }
    }
    let active = bounded_players(points, games);
    let idx: Vec<usize> = (0..m).filter(|&i| active[i]).collect();
    if let Some((a, _)) = anchor {
        if !active[a] {
            return Err(RatingError::UnboundedAnchor);
        }
    }
    let theta = maximum_likelihood(points, games, &idx);
    let info = fisher_information(games, &idx, &theta);
    let anchor_pos = anchor.map(|(a, _)| idx.iter().position(|&i| i == a).expect("active"));
    let variance = variances(&info, anchor_pos);
    let offset = match (anchor, anchor_pos) {
        (Some((_, elo)), Some(ap)) => elo - theta[ap] * ELO_PER_NEPER,
        _ => 0.0,
    };
    let mut out = vec![
        Rating {
            elo: None,
            margin: None
        };
        m
    ];
    for (a, &i) in idx.iter().enumerate() {
        out[i] = Rating {
            elo: Some(theta[a] * ELO_PER_NEPER + offset),
            margin: Some(Z95 * variance[a].max(0.0).sqrt() * ELO_PER_NEPER),
        };
    }
    if let Some((a, elo)) = anchor {
        out[a].elo = Some(elo);
    }
    Ok(out)
}

/// The players with a finite rating: those who played, dropping each who won or lost every
/// game among those still in, until none is left to drop.
fn bounded_players(points: &[Vec<f64>], games: &[Vec<u32>]) -> Vec<bool> {
    let m = points.len();
    let mut active: Vec<bool> = (0..m).map(|i| (0..m).any(|j| games[i][j] > 0)).collect();
    loop {
        let mut changed = false;
        for i in 0..m {
            if !active[i] {
                continue;
            }
            let (mut p, mut n) = (0.0, 0.0);
            for j in (0..m).filter(|&j| active[j] && j != i) {
                p += points[i][j];
                n += games[i][j] as f64;
            }
            if n == 0.0 || p <= 0.0 || p >= n {
                active[i] = false;
                changed = true;
            }
        }
        if !changed {
            return active;
        }
    }
}

/// The maximum-likelihood strengths (`ln gamma`, geometric mean 1) of the players `idx`, by
/// Hunter's MM iteration on gamma = exp(theta). Each step looks at the pairs that played
/// only (a player's others add nothing), so a large, sparse event costs its games, not the
/// square of its players.
fn maximum_likelihood(points: &[Vec<f64>], games: &[Vec<u32>], idx: &[usize]) -> Vec<f64> {
    let k = idx.len();
    // Each player's opponents among `idx`, in order.
    let met: Vec<Vec<usize>> = (0..k)
        .map(|a| {
            (0..k)
                .filter(|&b| b != a && games[idx[a]][idx[b]] > 0)
                .collect()
        })
        .collect();
    let mut gamma = vec![1.0f64; k];
    for _ in 0..100_000 {
        let mut next = vec![0.0; k];
        let mut delta: f64 = 0.0;
        for a in 0..k {
            let (i, mut w, mut d) = (idx[a], 0.0, 0.0);
            for &b in &met[a] {
                let j = idx[b];
                w += points[i][j];
                d += games[i][j] as f64 / (gamma[a] + gamma[b]);
            }
            next[a] = w / d;
        }
        // Normalise (geometric mean 1) so the iteration cannot drift.
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        for a in 0..k {
            next[a] = (next[a].ln() - mean).exp();
            delta = delta.max((next[a].ln() - gamma[a].ln()).abs());
        }
        gamma = next;
        if delta < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| g.ln()).collect()
}

/// The Fisher information of the strengths `theta` of the players `idx` (a weighted graph
/// Laplacian).
fn fisher_information(games: &[Vec<u32>], idx: &[usize], theta: &[f64]) -> Vec<Vec<f64>> {
    let k = idx.len();
    let mut info = vec![vec![0.0; k]; k];
    for a in 0..k {
        for b in (0..k).filter(|&b| b != a) {
            let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
            let w = games[idx[a]][idx[b]] as f64 * p * (1.0 - p);
            info[a][b] -= w;
            info[a][a] += w;
        }
    }
    info
}

/// Each strength's variance: relative to the anchor at `anchor_pos` (its row and column
/// left out of the inverse), else relative to the mean (the pseudo-inverse).
fn variances(info: &[Vec<f64>], anchor_pos: Option<usize>) -> Vec<f64> {
    let k = info.len();
    match anchor_pos {
        Some(ap) => {
            // Fix the anchor: invert the information without its row and column.
            let keep: Vec<usize> = (0..k).filter(|&a| a != ap).collect();
            let sub: Vec<Vec<f64>> = keep
                .iter()
                .map(|&a| keep.iter().map(|&b| info[a][b]).collect())
                .collect();
            let inv = invert(sub);
            let mut v = vec![0.0; k];
            for (r, &a) in keep.iter().enumerate() {
                v[a] = inv.as_ref().map_or(f64::INFINITY, |inv| inv[r][r]);
            }
            v
        }
        None => {
            // Relative to the mean: the pseudo-inverse (L + J/k)^-1 - J/k.
            let shifted: Vec<Vec<f64>> = (0..k)
                .map(|a| (0..k).map(|b| info[a][b] + 1.0 / k as f64).collect())
                .collect();
            match invert(shifted) {
                Some(inv) => (0..k).map(|a| inv[a][a] - 1.0 / k as f64).collect(),
                None => vec![f64::INFINITY; k],
            }
        }
    }
}

/// Gauss-Jordan inverse with partial pivoting; `None` when singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for j in 0..n {
            a[col][j] /= p;
            inv[col][j] /= p;
        }
        for r in (0..n).filter(|&r| r != col) {
            let f = a[r][col];
            if f != 0.0 {
                for j in 0..n {
                    a[r][j] -= f * a[col][j];
                    inv[r][j] -= f * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// The square table of [`fit_ratings`] from its rows (row i: player i against each).
    fn table<T: Copy, const N: usize>(rows: [[T; N]; N]) -> Vec<Vec<T>> {
        rows.iter().map(|row| row.to_vec()).collect()
    }

    #[test]
    fn elo_curve() {
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(score_from_elo(190.848), 0.75, 1e-6));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn pairing_margin_worked_by_hand() {
        // +6 =2 -2: s = 0.7; per-game variance (6*0.3^2 + 2*0.2^2 + 2*0.7^2)/10 = 0.16;
        // se = sqrt(0.016) = 0.126491; s ± 1.96 se = 0.452077 .. 0.947923;
        // Elo -33.40 .. +504.03, centre +147.19, margin 268.72.
        let e = elo_difference(Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        })
        .unwrap();
        assert!(close(e.score, 0.7, 1e-12));
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.low, -33.40, 0.01), "{e:?}");
        assert!(close(e.high, 504.03, 0.01), "{e:?}");
        assert!(close(e.margin, 268.72, 0.01), "{e:?}");
        // All draws: no spread in the sample; Wilson's interval gives the margin (below).
        let e = elo_difference(Wdl {
            wins: 0,
            draws: 4,
            losses: 0,
        })
        .unwrap();
        assert_eq!(e.elo, 0.0);
        assert_eq!(elo_difference(Wdl::default()), None);
    }

    #[test]
    fn wilson_intervals_where_the_normal_one_says_nothing_or_leaves_the_scores() {
        let all = |w, d, l| Wdl {
            wins: w,
            draws: d,
            losses: l,
        };
        // 20 of 20: Wilson's centre (1 + z²/40) / (1 + z²/20) = 0.91945, half-width
        // z sqrt(z²/1600) / (1 + z²/20) = 0.08057: scores 0.83888 .. 1, Elo +286.6 .. inf.
        let e = elo_difference(all(20, 0, 0)).unwrap();
        assert!(e.wilson && close(e.low, 286.6, 0.1), "{e:?}");
        assert_eq!((e.elo, e.high), (f64::INFINITY, f64::INFINITY));
        // All four drawn: no spread, so no normal interval; Wilson's is 0.15003 .. 0.84997.
        let e = elo_difference(all(0, 4, 0)).unwrap();
        assert!(e.wilson && close(e.margin, 301.3, 0.1), "{e:?}");
        // +19 =1 -0: the normal interval passes 100 %; Wilson's does not.
        let e = elo_difference(all(19, 1, 0)).unwrap();
        assert!(e.wilson && e.high.is_finite() && e.low < 286.6, "{e:?}");
        // +6 =2 -2 keeps the normal interval (worked by hand above).
        assert!(!elo_difference(all(6, 2, 2)).unwrap().wilson);
        assert_eq!(
            describe_elo(all(20, 0, 0)),
            "won all 20: Elo above +287 (95 %)"
        );
        assert_eq!(
            describe_elo(all(0, 0, 20)),
            "lost all 20: Elo below -287 (95 %)"
        );
        assert_eq!(describe_elo(all(0, 4, 0)), "Elo 0 (95 %: -301 to +301)");
        assert_eq!(describe_elo(all(6, 2, 2)), "Elo +147 ± 269");
        // The more won, the higher the lower end: 19 of 20 < 19.5 of 20 < 20 of 20.
        let low = |w, d| elo_difference(all(w, d, 20 - w - d)).unwrap().low;
        assert!(low(19, 0) < low(19, 1) && low(19, 1) < low(20, 0));
        for (w, d, l) in [(19, 0, 1), (1, 0, 19), (2, 0, 0), (1, 1, 0), (0, 1, 0)] {
            let text = describe_elo(all(w, d, l));
            assert!(!text.contains("inf") && !text.contains("± 0"), "{text}");
        }
    }

    #[test]
    fn two_players_fit_equals_the_pairing() {
        // A scores 30 of 40 against B: 75 % -> A is 190.85 above B, anchored at B = 1000.
        let points = table([[0.0, 30.0], [10.0, 0.0]]);
        let games = table([[0, 40], [40, 0]]);
        let r = fit_ratings(&points, &games, Some((1, 1000.0))).unwrap();
        assert!(close(r[0].elo.unwrap(), 1190.848, 1e-3), "{r:?}");
        assert_eq!(r[1].elo, Some(1000.0));
        assert_eq!(r[1].margin, Some(0.0));
        // Fisher information 40 * 0.75 * 0.25 = 7.5; sd = 1/sqrt(7.5) nepers;
        // margin = 1.96 * 0.365148 * 173.7178 = 124.33 Elo.
        assert!(close(r[0].margin.unwrap(), 124.33, 0.01), "{r:?}");
        // Without anchor: mean zero, each 95.42 from it, margin halved.
        let r = fit_ratings(&points, &games, None).unwrap();
        assert!(close(r[0].elo.unwrap(), 95.424, 1e-3), "{r:?}");
        assert!(close(r[1].elo.unwrap(), -95.424, 1e-3), "{r:?}");
        assert!(close(r[0].margin.unwrap(), 62.16, 0.01), "{r:?}");
    }

    #[test]
    fn three_player_round_robin_is_consistent() {
        // A beats B 3-1, B beats C 3-1, A beats C 3.5-0.5 (4 games each).
        let points = table([[0.0, 3.0, 3.5], [1.0, 0.0, 3.0], [0.5, 1.0, 0.0]]);
        let games = table([[0, 4, 4], [4, 0, 4], [4, 4, 0]]);
        let r = fit_ratings(&points, &games, Some((2, 0.0))).unwrap();
        let (a, b) = (r[0].elo.unwrap(), r[1].elo.unwrap());
        assert!(a > b && b > 0.0, "{r:?}");
        // At the maximum the expected points equal the scored points for every player.
        let e = |x: f64, y: f64| score_from_elo(x - y) * 4.0;
        assert!(close(e(a, b) + e(a, 0.0), 6.5, 1e-6), "{r:?}");
        assert!(close(e(b, a) + e(b, 0.0), 4.0, 1e-6), "{r:?}");
    }

    #[test]
    fn perfect_scores_are_unbounded() {
        let points = table([[0.0, 2.0, 2.0], [0.0, 0.0, 1.5], [0.0, 0.5, 0.0]]);
        let games = table([[0, 2, 2], [2, 0, 2], [2, 2, 0]]);
        let r = fit_ratings(&points, &games, Some((2, 100.0))).unwrap();
        assert_eq!(r[0].elo, None);
        assert!(close(r[1].elo.unwrap(), 290.848, 1e-3), "{r:?}");
        assert_eq!(
            fit_ratings(&points, &games, Some((0, 0.0))),
            Err(RatingError::UnboundedAnchor)
        );
        assert_eq!(
            fit_ratings(&points, &games, Some((7, 0.0))),
            Err(RatingError::NoSuchAnchor(7))
        );
    }
}
