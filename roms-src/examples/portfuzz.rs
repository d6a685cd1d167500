//! Long differential campaigns: a port's engine (`--cpu z80`, the default, or `--cpu 6502`) against the native reference search on
//! generated cases (random games from the start position and the perft-suite positions,
//! random placements), or on the cases of an EPD file. Every difference is shrunk
//! ([`differential::minimize`]) and printed as an EPD line for the regression file.
//!
//! ```text
//! cargo run --release -p kempelen-roms --example portfuzz -- [--cpu z80|6502] [--seed S] [--cases N]
//!     [--seconds T] [--skip K] [--depth D] [--max-nodes N] [--perft-leaves N]
//!     [--source games|placements|both] [--epd FILE] [--verbose]
//! ```
//!
//! Per case: a search to a random depth 1..=D, one time in four the deepest depth (up to 32)
//! whose native node count stays within `--max-nodes`, a node-limited search with a random
//! limit (a fifth of them below the size of iteration 1), and perft to the deepest depth
//! within `--perft-leaves`. Searches the native engine needs more than `--max-nodes` for are
//! skipped and counted, and so are node-limited searches whose iteration 1 (which the limit
//! does not cut) is that big. With `--epd`, each line's own checks (`depth`, `nodes`, `perft`) run,
//! or the generated ones when it has none. `--seconds` ends the run after the case that passes
//! the time budget; `--skip K` draws the first `K` cases without running them, to get back to
//! a case of a long run quickly. On a terminal, a progress bar on stderr counts the cases. The
//! exit status is 1 when any case differs.

use indicatif::{ProgressBar, ProgressStyle};
use kempelen_roms::differential::{self, Case, Check, Difference, Rng};
use kempelen_roms::{Port, PortEngine};
use std::time::Instant;

struct Args {
    port: &'static Port,
    seed: u64,
    cases: usize,
    depth: u32,
    max_nodes: u64,
    perft_leaves: u64,
    source: String,
    epd: Option<String>,
    seconds: Option<u64>,
    skip: usize,
    verbose: bool,
}

/// Stops with a usage message (exit status 2).
fn usage(problem: &str) -> ! {
    eprintln!(
        "portfuzz: {problem}\nusage: portfuzz [--cpu z80|6502] [--seed S] [--cases N] [--seconds T] [--skip K] \
         [--depth D] [--max-nodes N] [--perft-leaves N] [--source games|placements|both] [--epd FILE] \
         [--verbose]"
    );
    std::process::exit(2)
}

fn args() -> Args {
    let mut a = Args {
        port: &kempelen_roms::port::Z80,
        seed: 1,
        cases: 1000,
        depth: 4,
        max_nodes: 300_000,
        perft_leaves: 200_000,
        source: "both".into(),
        epd: None,
        seconds: None,
        skip: 0,
        verbose: false,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < v.len() {
        if v[i] == "--verbose" {
            a.verbose = true;
            i += 1;
            continue;
        }
        let Some(val) = v.get(i + 1).cloned() else {
            usage(&format!("{} needs a value", v[i]))
        };
        let num = || {
            val.parse::<u64>()
                .unwrap_or_else(|_| usage(&format!("{} {val}: not a number", v[i])))
        };
        match v[i].as_str() {
            "--cpu" => {
                a.port = Port::by_id(&val)
                    .unwrap_or_else(|| usage(&format!("--cpu {val}: the ports are z80 and 6502")))
            }
            "--seed" => a.seed = num(),
            "--cases" => a.cases = num() as usize,
            "--seconds" => a.seconds = Some(num()),
            "--skip" => a.skip = num() as usize,
            "--depth" => a.depth = (num() as u32).clamp(1, 32),
            "--max-nodes" => a.max_nodes = num(),
            "--perft-leaves" => a.perft_leaves = num(),
            "--source" if ["games", "placements", "both"].contains(&val.as_str()) => {
                a.source = val.clone()
            }
            "--epd" => a.epd = Some(val.clone()),
            other => usage(&format!("unknown argument or value: {other} {val}")),
        }
        i += 2;
    }
    a
}

#[derive(Default)]
struct Tally {
    cases: usize,
    searches: usize,
    deep: usize,
    limited: usize,
    perfts: usize,
    skipped: usize,
    stack_overflow: usize,
    nodes: u64,
    leaves: u64,
    cycles: u64,
    differences: usize,
}

/// The checks generated for one case (see the module header).
fn generated_checks(rng: &mut Rng, case: &Case, a: &Args) -> (Vec<Check>, usize) {
    let (pos, history) = case.build().expect("generated cases are valid");
    let mut checks = Vec::new();
    let mut skipped = 0;
    let depth = rng.range(1, a.depth as u64) as u32;
    let native = differential::native_search(&pos, &history, depth, None);
    if native.nodes <= a.max_nodes {
        checks.push(Check::Search { depth, nodes: None });
    } else {
        skipped += 1;
    }
    if rng.chance(25) {
        let mut deepest = None;
        for d in a.depth + 1..=32 {
            let n = differential::native_search(&pos, &history, d, None);
            if n.nodes > a.max_nodes {
                break;
            }
            deepest = Some(d);
        }
        if let Some(d) = deepest {
            checks.push(Check::Search {
                depth: d,
                nodes: None,
            });
        }
    }
    let one = differential::native_search(&pos, &history, 1, None).nodes;
    let limit = if rng.chance(20) {
        rng.range(0, one + 1)
    } else {
        rng.range(0, a.max_nodes / 2)
    };
    let depth = if rng.chance(80) {
        32
    } else {
        rng.range(2, 8) as u32
    };
    // The limit is armed only after iteration 1 (ALGORITHM.md section 9): with an iteration 1
    // beyond --max-nodes (quiescence among a dozen queens, say) the limit does not bound the
    // run, so it is skipped like a search that is too big.
    if one <= a.max_nodes {
        checks.push(Check::Search {
            depth,
            nodes: Some(limit as u32),
        });
    } else {
        skipped += 1;
    }
    let mut perft = 0;
    for d in 1..=6u8 {
        if kempelen_engine::perft(&pos, d as u32) > a.perft_leaves {
            break;
        }
        perft = d;
    }
    if perft > 0 {
        checks.push(Check::Perft(perft));
    }
    (checks, skipped)
}

fn main() {
    let a = args();
    let engine = PortEngine::assemble(a.port).unwrap_or_else(|e| usage(&e.to_string()));
    let mut rng = Rng::new(a.seed);
    let starts = differential::starts();
    let fixed: Option<Vec<(Case, Vec<Check>)>> = a.epd.as_ref().map(|f| {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| usage(&format!("{f}: {e}")));
        kempelen_roms::suite::parse(&text, f)
            .unwrap_or_else(|e| usage(&e.to_string()))
            .iter()
            .map(|e| {
                let bad = |what: &dyn std::fmt::Display| format!("{f}:{}: {what}", e.line);
                let case = Case::from_entry(e).unwrap_or_else(|x| usage(&bad(&x)));
                if let Err(x) = case.build() {
                    usage(&bad(&x));
                }
                (case, Case::checks(e).unwrap_or_else(|x| usage(&bad(&x))))
            })
            .collect()
    });
    let total = fixed.as_ref().map_or(a.cases, |f| f.len());
    let mut t = Tally::default();
    let start = Instant::now();
    // Hidden (drawing nothing) when stderr is not a terminal.
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} cases, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("{} campaign", a.port.name));
    for i in 0..total {
        bar.inc(1);
        if a.seconds.is_some_and(|s| start.elapsed().as_secs() >= s) {
            eprintln!("time budget of {} s used up", a.seconds.unwrap_or(0));
            break;
        }
        let (case, given) = match &fixed {
            Some(f) => f[i].clone(),
            None => {
                let placement = match a.source.as_str() {
                    "games" => false,
                    "placements" => true,
                    _ => rng.chance(30),
                };
                let case = if placement {
                    loop {
                        if let Some(f) = differential::random_placement(&mut rng) {
                            break Case::position(&f);
                        }
                    }
                } else {
                    differential::random_game_case(&mut rng, &starts, 160)
                        .unwrap_or_else(|e| usage(&e.to_string()))
                };
                (case, Vec::new())
            }
        };
        let checks = if given.is_empty() {
            let (c, skipped) = generated_checks(&mut rng, &case, &a);
            t.skipped += skipped;
            c
        } else {
            given
        };
        if i < a.skip {
            continue;
        }
        t.cases += 1;
        for check in checks {
            let t0 = Instant::now();
            if a.verbose {
                bar.suspend(|| eprint!("case {i} {check}: {} ...", case.to_epd()));
            }
            match check {
                Check::Perft(_) => t.perfts += 1,
                Check::Search { nodes: Some(_), .. } => t.limited += 1,
                Check::Search { depth, .. } if depth > a.depth => t.deep += 1,
                Check::Search { .. } => t.searches += 1,
            }
            match differential::compare(&engine, &case, check) {
                Ok(ok) => {
                    t.cycles += ok.cycles;
                    match check {
                        Check::Perft(_) => t.leaves += ok.count,
                        _ => t.nodes += ok.count,
                    }
                    if a.verbose {
                        bar.suspend(|| {
                            eprintln!(" ok {} ({:.1} s)", ok.count, t0.elapsed().as_secs_f64())
                        });
                    }
                }
                Err(d) if d.is_stack_overflow() => {
                    t.stack_overflow += 1;
                    bar.suspend(|| println!("STACK OVERFLOW (allowed) {check}: {}", case.to_epd()));
                }
                Err(d) => {
                    t.differences += 1;
                    let first = d.to_string();
                    let (small, c, sd) = differential::minimize(&engine, &case, check, d);
                    bar.suspend(|| {
                        println!("DIFFERENCE {check}: {first}\n  case: {}", case.to_epd());
                        println!("  minimal ({c}): {sd}\n  {}", small.to_epd());
                        if let Difference::Error(e) = &sd {
                            println!("  error: {e}");
                        }
                    });
                }
            }
        }
        if (i + 1) % 100 == 0 && bar.is_hidden() {
            eprintln!(
                "{} cases: searches {}, deep {}, node-limited {}, perfts {}, skipped {}; \
                 {} differences, {:.0} s",
                i + 1,
                t.searches,
                t.deep,
                t.limited,
                t.perfts,
                t.skipped,
                t.differences,
                start.elapsed().as_secs_f64()
            );
        }
    }
    bar.finish_and_clear();
    println!(
        "{}, seed {}: {} cases; searches {} (depth 1..={}), deep {}, node-limited {}, perfts {}; \
         skipped {} (native > {} nodes); stack overflows {}; {} search nodes, {} perft \
         leaves, {} cycles; differences {}; {:.0} s",
        a.port.name,
        a.seed,
        t.cases,
        t.searches,
        a.depth,
        t.deep,
        t.limited,
        t.perfts,
        t.skipped,
        a.max_nodes,
        t.stack_overflow,
        t.nodes,
        t.leaves,
        t.cycles,
        t.differences,
        start.elapsed().as_secs_f64()
    );
    if t.differences > 0 {
        std::process::exit(1);
    }
}
