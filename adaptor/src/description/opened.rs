//! What opens a program up, read from its adaptor file: the counters of points of its code
//! (`[[count]]`, [`crate::variables`]), its variables and tables (`[[variable]]`), where its
//! search makes its moves and backs up its values (`[tree]`, [`crate::tree`]), a listing laid
//! over a binary that has no text (`[listing]`, [`crate::listing`]) and the lessons' steps in
//! its code (`[[lesson]]`, [`crate::lessons`]). Part of the crate's feature `opened` (on by
//! default): the debugger ([`crate::session`]) and the tree collector use it; a build without
//! it (the page's) reads these sections and leaves them.

use serde::de::DeserializeOwned;

use super::{
    Adaptor, AssembleSpec, Chunks, OpenedParts, ProgramSource, Reader, check_sha256, symbol_or_addr,
};
use crate::error::AdaptorError;
use crate::lessons::{LessonFile, LessonStep};
use crate::listing::ListingMap;
use crate::tree::{TreeFile, TreeSpec};
use crate::variables::{CountSpec, Counter, Variable, VariableSpec};

/// The declarations that open a program up, resolved.
#[derive(Default)]
pub(crate) struct Opened {
    pub(crate) variables: Vec<Variable>,
    pub(crate) counters: Vec<Counter>,
    pub(crate) tree: Option<TreeSpec>,
    /// The listing laid over the binary: what it explains; or why it is not there.
    pub(crate) listing: Option<Result<ListingMap, String>>,
    pub(crate) lessons: Vec<LessonStep>,
}

/// `[listing]`: a published source of the program, assembled and laid over the binary the
/// adaptor loads wherever its code is the same, for the debugger's view only: the program
/// runs from its `[[image]]`, and without the listing's file it runs all the same.
#[derive(serde::Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ListingSpec {
    file: String,
    sha256: Option<String>,
    assemble: AssembleSpec,
}

/// A section read from its TOML value: `what` names it in the error, with its `name` or `at`
/// where it has one (`[[variable]] `NPLY`: unknown field `size`, ...`).
fn typed<T: DeserializeOwned>(r: &Reader, what: &str, v: &toml::Value) -> Result<T, AdaptorError> {
    v.clone().try_into().map_err(|e: toml::de::Error| {
        let which = ["name", "at", "step"]
            .iter()
            .find_map(|k| v.get(k))
            .map(|n| format!(" {n}"))
            .unwrap_or_default();
        r.invalid(format!("{what}{which}: {}", e.message()))
    })
}

fn all<T: DeserializeOwned>(
    r: &Reader,
    what: &str,
    v: &[toml::Value],
) -> Result<Vec<T>, AdaptorError> {
    v.iter().map(|x| typed(r, what, x)).collect()
}

impl Opened {
    /// Reads the sections: the listing assembled and laid over the binary's `chunks` (its
    /// lines and labels added to `program`), then the counters, variables, tree and lessons,
    /// each name and expression resolved with the images' `symbols` and the variables before
    /// it.
    pub(crate) fn read(
        r: &Reader,
        parts: &OpenedParts,
        chunks: &Chunks,
        symbols: &[(String, u16)],
        program: &mut ProgramSource,
    ) -> Result<Opened, AdaptorError> {
        let listing = match parts.listing {
            None => None,
            Some(v) => {
                let spec: ListingSpec = typed(r, "[listing]", v)?;
                Some(lay_listing(r, &spec, chunks, program))
            }
        };
        let counts: Vec<CountSpec> = all(r, "[[count]]", parts.count)?;
        let vars: Vec<VariableSpec> = all(r, "[[variable]]", parts.variable)?;
        let tree: Option<TreeFile> = parts.tree.map(|t| typed(r, "[tree]", t)).transpose()?;
        let lessons: Vec<LessonFile> = all(r, "[[lesson]]", parts.lesson)?;
        let mut names = crate::expr::Names::symbols(symbols.to_vec());
        let symbol = |s: &str| symbol_or_addr(symbols, s).map_err(|e| e.to_string());
        let counters = crate::variables::resolve_counts(&counts, &mut names, &symbol)
            .map_err(|e| r.invalid(e))?;
        let variables =
            crate::variables::resolve(&vars, &mut names, &symbol).map_err(|e| r.invalid(e))?;
        let tree = tree
            .as_ref()
            .map(|t| crate::tree::resolve(t, &names, &variables, &symbol))
            .transpose()
            .map_err(|e| r.invalid(e))?;
        let lessons =
            crate::lessons::resolve(&lessons, &names, &symbol).map_err(|e| r.invalid(e))?;
        Ok(Opened {
            variables,
            counters,
            tree,
            listing,
            lessons,
        })
    }
}

/// `[listing]`: the listing assembled and laid over the binary's `chunks`, its lines and labels
/// added to `program`; an error (a missing or changed file, an assembly error) is kept to be
/// shown, not raised: the program runs without its listing.
fn lay_listing(
    r: &Reader,
    l: &ListingSpec,
    chunks: &Chunks,
    program: &mut ProgramSource,
) -> Result<ListingMap, String> {
    let file = r.files.locate(r.dir, &l.file).map_err(|e| e.to_string())?;
    let bytes = r
        .files
        .read(&file)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if let Some(want) = &l.sha256 {
        check_sha256(&file, &bytes, want).map_err(|e| e.to_string())?;
    }
    let a = l
        .assemble
        .assembly(&file, r.files.sources())
        .map_err(|e| e.to_string())?;
    let (source, map) = crate::listing::map_listing(&a, chunks)?;
    for s in source.symbols.iter() {
        program.symbols.insert(s.name.clone(), s.value, s.kind);
    }
    for line in source.lines.iter() {
        program.lines.insert(
            line.addr,
            line.len,
            line.code,
            line.file.clone(),
            line.line,
            line.text.clone(),
        );
    }
    Ok(map)
}

/// What opens the program up (`crate::description::opened`).
impl Adaptor {
    /// The declared variables (`[[variable]]`).
    pub fn variables(&self) -> &[Variable] {
        &self.opened.variables
    }

    /// The counters (`[[count]]`).
    pub fn counters(&self) -> &[Counter] {
        &self.opened.counters
    }

    /// Where the program's search tree is read (`[tree]`), if the file says.
    pub fn tree_spec(&self) -> Option<&TreeSpec> {
        self.opened.tree.as_ref()
    }

    /// The listing laid over the binary (`[listing]`): what it explains, or why it is not
    /// there; `None` when the file names no listing.
    pub fn listing(&self) -> Option<&Result<ListingMap, String>> {
        self.opened.listing.as_ref()
    }

    /// The lessons' steps (`[[lesson]]`).
    pub fn lessons(&self) -> &[LessonStep] {
        &self.opened.lessons
    }
}
