//! What the historical documents claim and report, and Kempelen's figures beside them.
//!
//! - [`figures`]: the data file `docs/history/figures.toml` (compiled in): the sources by
//!   publication, the machines, the programs, the historical figures of the bench chart and
//!   the claims.
//! - [`ledger`]: every claim re-measured (search trees, branching factors, the null move,
//!   NegaScout and MTD(f), bytes per ply, Elo per ply) and set beside the document's figure
//!   with a verdict; `kempelen claims` prints it, `docs/CLAIMS.md` is its Markdown.
//! - [`chart`]: the chart of `kempelen bench --svg`: the 8-bit builds' measured figures beside
//!   the historical programs', drawn as SVG.
//! - [`programs`]: the historical programs' speed measured inside Kempelen (`kempelen bench
//!   --program`), and its data file `docs/history/program-speed.json` (compiled in) for the chart.
//! - [`tree`]: the tree a search visits, drawn as text, SVG or JSON; by default the lost
//!   figure of C. Zwerschke's "Tartan" article (TOS 1/1991).
//! - [`program_tree`]: a historical program's search tree (the real program's or its
//!   profile's) drawn as text, SVG or JSON, marked against the other's.
//! - [`lessons`]: `docs/SEARCH.md` and the lessons of `docs/history/` rendered for the page,
//!   their commands made live.

pub mod chart;
pub mod figures;
pub mod ledger;
pub mod lessons;
pub mod program_tree;
pub mod programs;
pub mod tree;

// `DOC_FILES`: the paths and lengths of the documents build.rs bundled.
include!(concat!(env!("OUT_DIR"), "/docs.rs"));

/// The text of a bundled document (`docs/SEARCH.md`, `docs/history/*.md`,
/// `docs/history/figures.toml`, `docs/history/program-speed.json`), by its path in the
/// repository: build.rs stores them deflated (the page's wasm carries a third of their bytes);
/// they are inflated once, on first use.
pub(crate) fn bundled(path: &str) -> &'static str {
    static FILES: std::sync::OnceLock<Vec<(&str, &str)>> = std::sync::OnceLock::new();
    FILES
        .get_or_init(|| {
            kempelen_bundle::unpack(
                include_bytes!(concat!(env!("OUT_DIR"), "/docs.deflate")),
                DOC_FILES,
            )
        })
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("claims/build.rs bundles {path}"))
}
