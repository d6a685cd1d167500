//! `kempelen claims`: re-measures every claim of the documents Kempelen was built from and
//! prints the ledger (`kempelen_claims::ledger`) as text, JSON or the Markdown of
//! `docs/CLAIMS.md`. `--quick` runs only the fast rows (the synthetic trees); the test suite
//! runs it and checks that `docs/CLAIMS.md` still holds the same rows.

use anyhow::{Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kempelen_claims::figures;
use kempelen_claims::ledger::{markdown, measure, text};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ClaimsArgs {
    /// Only the fast rows (synthetic trees), as the test suite runs them.
    #[arg(long)]
    pub quick: bool,
    /// Only the claim with this id (minimal-tree, branching-factor, null-move, negascout-mtdf,
    /// stack-per-ply, elo-per-ply).
    #[arg(long, value_name = "ID")]
    pub only: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the report as Markdown to FILE (a full run of every claim only).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

pub fn run(args: &ClaimsArgs) -> Result<()> {
    if let Some(o) = &args.only {
        if !figures::claims().iter().any(|c| &c.id == o) {
            bail!(
                "--only {o}: no such claim (expected one of: {})",
                figures::claims()
                    .iter()
                    .map(|c| c.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if args.markdown.is_some() && (args.quick || args.only.is_some()) {
        bail!("--markdown writes the full report: run it without --quick and --only");
    }
    // A full run takes minutes: a path that cannot be written is refused before it.
    if let Some(path) = &args.markdown {
        crate::output::check_writable("--markdown", path)?;
    }
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new_spinner();
        b.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {pos} steps: {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        b
    };
    let ticker = crate::progress::Ticker::start("claims", &bar, args.json);
    let sections = measure(args.quick, args.only.as_deref(), &bar)?;
    drop(ticker);
    bar.finish_and_clear();
    if let Some(path) = &args.markdown {
        let report = markdown(&sections);
        if let Err(e) = crate::output::write_output("--markdown", path, report.as_bytes(), &[]) {
            // The measurement is not lost: the report goes to standard output instead.
            print!("{report}");
            return Err(e.context("the Markdown report is printed above instead"));
        }
        if !args.json {
            eprintln!("wrote {}", path.display());
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "quick": args.quick,
                "claims": sections,
            }))?
        );
    } else {
        print!("{}", text(&sections));
    }
    Ok(())
}
