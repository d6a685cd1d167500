//! `kempelen tree`: draws the tree a search visits, as text on the terminal and as SVG
//! (`kempelen_claims::tree`); by default the lost figure of C. Zwerschke's "Tartan" article
//! (TOS 1/1991).

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_claims::tree::{self, Drawn, TreeError, json, svg, text, title};
use kempelen_engine::Position;
use kempelen_engine::tree::Algorithm;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TreeArgs {
    /// Position (FEN). Without it: the start position with the Tartan article's move orders.
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies (1-12).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// minimax, alphabeta or reference.
    #[arg(long, default_value = "alphabeta")]
    pub algorithm: Algorithm,
    /// Search only the first K moves of every node (after ordering); 0 = all moves.
    #[arg(long, default_value_t = 2)]
    pub width: usize,
    /// Search these moves first at the node reached by PATH: "PATH: MOVES", both as UCI moves
    /// separated by spaces (":" alone or ": e2e4" for the root). Repeatable. Without --fen and
    /// without --order, the Tartan article's orders apply.
    #[arg(long = "order", value_name = "PATH: MOVES")]
    pub order: Vec<String>,
    /// Write the tree as SVG to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the search a drawing shows.
fn search(args: &TreeArgs) -> Result<Drawn> {
    if !(1..=12).contains(&args.depth) {
        bail!("--depth {}: expected 1 to 12", args.depth);
    }
    let position = match &args.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("--fen '{f}'"))?,
        None => Position::startpos(),
    };
    let orders = if args.order.is_empty() && args.fen.is_none() {
        tree::tartan_orders()
    } else {
        let mut orders = Vec::new();
        for s in &args.order {
            orders.push(tree::parse_order(&position, s, "--order")?);
        }
        orders
    };
    let width = (args.width > 0).then_some(args.width);
    tree::search(position, args.algorithm, args.depth, width, orders).map_err(|e| match e {
        TreeError::TooManySearched => anyhow::anyhow!(
            "{e}: lower --depth or --width (now {} and {})",
            args.depth,
            args.width
        ),
        TreeError::TooManyDrawn(_) => anyhow::anyhow!("{e}: lower --depth or --width"),
        e => e.into(),
    })
}

pub fn run(args: &TreeArgs) -> Result<()> {
    if let Some(path) = &args.svg {
        crate::output::check_writable("--svg", path)?;
    }
    let d = search(args)?;
    let tartan = args.fen.is_none() && args.order.is_empty();
    if let Some(path) = &args.svg {
        crate::output::write_output("--svg", path, svg(&d, &title(&d, tartan)).as_bytes(), &[])?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json(&d))?);
    } else {
        print!("{}", text(&d));
    }
    Ok(())
}
