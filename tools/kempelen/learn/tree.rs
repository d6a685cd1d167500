//! `kempelen tree`: draws the tree a search visits, as text on the terminal and as SVG
//! (`kempelen_claims::tree`); by default the lost figure of C. Zwerschke's "Tartan" article
//! (TOS 1/1991). With `--program FILE.toml` the tree a real historical program visits in the
//! emulator as it chooses its move (`kempelen_adaptor::tree`), optionally beside its profile's
//! with the differences marked; with `--profile` the profile's alone
//! (`kempelen_claims::program_tree`).

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_adaptor::Adaptor;
use kempelen_adaptor::tree::{TREE_LIMIT, TreeRun};
use kempelen_claims::program_tree::{self, ProgramDrawing};
use kempelen_claims::tree::{self, Drawn, TreeError, json, svg_in, text_in, title};
use kempelen_engine::history::TreeProfile;
use kempelen_engine::tree::Algorithm;
use kempelen_engine::tree::searched::{Comparison, SearchTree, View, compare};
use kempelen_engine::{Game, Position};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct TreeArgs {
    /// Position (FEN). Without it: the start position with the Tartan article's move orders.
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies (1-12; default 4); with --program or --profile the program's level (its
    /// look-ahead; default the adaptor's).
    #[arg(long)]
    pub depth: Option<u32>,
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
    /// Values from White's side (`white`, the default) or from the side to move's (`to-move`,
    /// negamax).
    #[arg(long, default_value = "white")]
    pub view: View,
    /// The tree a real historical program visits in the emulator, run through its adaptor
    /// file (its `[tree]` says where it makes its moves and backs up its values).
    #[arg(long, value_name = "FILE.toml", conflicts_with = "profile")]
    pub program: Option<PathBuf>,
    /// With --program: its profile's tree too (the profile its adaptor names), each marked
    /// where it differs from the other.
    #[arg(long, requires = "program")]
    pub beside_profile: bool,
    /// The tree of a profile that re-creates a program (sargon, microchess, minisearch).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<TreeProfile>,
    /// With --program or --profile: the most nodes kept.
    #[arg(long, default_value_t = TREE_LIMIT)]
    pub nodes: usize,
    /// Write the tree as SVG to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the search a drawing shows.
fn search(args: &TreeArgs) -> Result<Drawn> {
    let depth = args.depth.unwrap_or(4);
    if !(1..=12).contains(&depth) {
        bail!("--depth {depth}: expected 1 to 12");
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
    tree::search(position, args.algorithm, depth, width, orders).map_err(|e| match e {
        TreeError::TooManySearched => anyhow::anyhow!(
            "{e}: lower --depth or --width (now {depth} and {})",
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
    if args.program.is_some() || args.profile.is_some() {
        return run_program(args);
    }
    let d = search(args)?;
    let tartan = args.fen.is_none() && args.order.is_empty();
    if let Some(path) = &args.svg {
        let svg = svg_in(&d, &title(&d, tartan), args.view);
        crate::output::write_output("--svg", path, svg.as_bytes(), &[])?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json(&d))?);
    } else {
        print!("{}", text_in(&d, args.view));
    }
    Ok(())
}

/// The game of `--fen`.
fn game(args: &TreeArgs) -> Result<Game> {
    Ok(Game::new(match &args.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("--fen '{f}'"))?,
        None => Position::startpos(),
    }))
}

/// A profile's tree (`None`: its book answers, or no legal move).
fn profile_tree(
    p: TreeProfile,
    game: &Game,
    depth: Option<u32>,
    nodes: usize,
) -> Result<SearchTree> {
    kempelen_engine::history::profile_tree(p, game, depth, nodes).ok_or_else(|| {
        anyhow::anyhow!(
            "the {} profile plays from its book here (or has no legal move): no tree",
            p.name()
        )
    })
}

/// `--program` and `--profile`: the trees, drawn.
fn run_program(args: &TreeArgs) -> Result<()> {
    let game = game(args)?;
    let fen = game.position().to_fen();
    let mut trees: Vec<(SearchTree, String, String)> = Vec::new();
    if let Some(file) = &args.program {
        let adaptor =
            Adaptor::from_file(file).with_context(|| format!("--program {}", file.display()))?;
        let name = adaptor.name().to_string();
        let profile = adaptor.profile();
        let run = TreeRun::open(Arc::new(adaptor), &game, args.depth, args.nodes)?;
        let level = run.session().level();
        let started = std::time::Instant::now();
        let (tree, cycles, printed) = run.finish()?;
        eprintln!(
            "{name}: {} nodes read in its turn of {cycles} cycles ({:.1} s of host time); it answered {}",
            tree.nodes.len(),
            started.elapsed().as_secs_f64(),
            printed.trim().lines().last().unwrap_or("").trim()
        );
        let title = format!(
            "{name}{} from {fen}",
            level.map(|l| format!(" at level {l}")).unwrap_or_default()
        );
        let units = profile.map_or("the program's own numbers less its neutral value", |p| {
            p.units()
        });
        trees.push((tree, title, units.to_string()));
        if args.beside_profile {
            let p = profile.ok_or_else(|| {
                anyhow::anyhow!("--beside-profile: {} names no profile", file.display())
            })?;
            let t = profile_tree(p, &game, level, args.nodes)?;
            let title = format!(
                "the {} profile{}",
                p.name(),
                level.map(|l| format!(" at level {l}")).unwrap_or_default()
            );
            trees.push((t, title, p.units().to_string()));
        }
    } else if let Some(p) = args.profile {
        let t = profile_tree(p, &game, args.depth, args.nodes)?;
        trees.push((
            t,
            format!("the {} profile from {fen}", p.name()),
            p.units().to_string(),
        ));
    }
    let comparison: Option<(Comparison, Comparison)> = (trees.len() == 2).then(|| {
        (
            compare(&trees[0].0, &trees[1].0),
            compare(&trees[1].0, &trees[0].0),
        )
    });
    let drawings: Vec<ProgramDrawing> = trees
        .iter()
        .enumerate()
        .map(|(k, (t, title, units))| ProgramDrawing {
            tree: t,
            title: title.clone(),
            units: units.clone(),
            view: args.view,
            marks: comparison.as_ref().map(|(a, b)| {
                if k == 0 {
                    (a.program.as_slice(), "the profile".to_string())
                } else {
                    (b.program.as_slice(), "the program".to_string())
                }
            }),
        })
        .collect();
    draw(args, &drawings, comparison.as_ref().map(|(a, _)| a))
}

/// Writes the SVG and prints the text or JSON of the drawings.
fn draw(
    args: &TreeArgs,
    drawings: &[ProgramDrawing],
    comparison: Option<&Comparison>,
) -> Result<()> {
    if let Some(path) = &args.svg {
        let svgs: Vec<String> = drawings
            .iter()
            .map(program_tree::svg)
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("--svg: {e}: draw a smaller tree, or use --json"))?;
        let svg = program_tree::stacked(&svgs);
        crate::output::write_output("--svg", path, svg.as_bytes(), &[])?;
    }
    if args.json {
        let all: Vec<serde_json::Value> = drawings
            .iter()
            .enumerate()
            .map(|(k, d)| program_tree::json(d, if k == 0 { comparison } else { None }))
            .collect();
        let out = match all.as_slice() {
            [one] => one.clone(),
            _ => serde_json::json!({"program": all[0], "profile": all[1]}),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    if let Some(c) = comparison {
        println!(
            "{} of the program's {} nodes are the profile's, in the same order with the same value ({} found in the profile's tree at all)",
            c.agree, c.program_nodes, c.found
        );
    }
    for d in drawings {
        print!("{}", program_tree::text(d));
    }
    Ok(())
}
