//! The historical figures and claims Kempelen measures itself against, loaded from the data
//! file `docs/history/figures.toml` (compiled in): the documents and other sources by
//! publication (author, title, year), the machines, the programs, the figures
//! `kempelen bench --cpu z80` sets beside its measurements ([`HISTORICAL`]) and the claims
//! `kempelen claims` re-measures ([`claims`]).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Where the data file lives in the repository.
pub const DATA_PATH: &str = "docs/history/figures.toml";

/// The data file, as compiled in.
pub fn data() -> &'static str {
    crate::bundled(DATA_PATH)
}

/// A publication.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Author(s), or who published it.
    pub author: String,
    /// Title.
    pub title: String,
    /// Where it appeared.
    pub publication: String,
    /// Year, where known.
    pub year: Option<u32>,
}

impl Source {
    /// "Author, "Title", publication, year".
    pub fn cite(&self) -> String {
        let mut s = format!("{}, \"{}\", {}", self.author, self.title, self.publication);
        if let Some(y) = self.year {
            if !self.publication.contains(&y.to_string()) {
                s.push_str(&format!(", {y}"));
            }
        }
        s
    }
}

/// A historical machine.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// Short id.
    pub id: String,
    /// Name (and the programs it ran).
    pub name: String,
    /// Processor.
    pub cpu: String,
    /// Clock in MHz.
    pub mhz: f64,
    /// Memory.
    pub ram: String,
    /// A remark on the clock.
    pub note: Option<String>,
    /// Source ids.
    pub sources: Vec<String>,
}

/// A historical program.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Program {
    /// Name, author, year.
    pub name: String,
    /// Processor and clock.
    pub cpu: String,
    /// Size.
    pub size: String,
    /// Search.
    pub search: String,
    /// Speed or strength.
    pub strength: String,
    /// Source ids.
    pub sources: Vec<String>,
}

/// A claim of the documents that `kempelen claims` re-measures.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Short id.
    pub id: String,
    /// The claim in words.
    pub claim: String,
    /// Source ids.
    pub sources: Vec<String>,
    /// The documents' numbers, by name.
    pub figures: BTreeMap<String, toml::Value>,
}

impl Claim {
    /// A number of the claim.
    pub fn number(&self, key: &str) -> f64 {
        match self.figures.get(key) {
            Some(toml::Value::Float(f)) => *f,
            Some(toml::Value::Integer(i)) => *i as f64,
            other => panic!("claim {}: figure {key} is {other:?}", self.id),
        }
    }
    /// A list of numbers of the claim.
    pub fn numbers(&self, key: &str) -> Vec<f64> {
        match self.figures.get(key) {
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|v| match v {
                    toml::Value::Float(f) => *f,
                    toml::Value::Integer(i) => *i as f64,
                    other => panic!("claim {}: {key} holds {other:?}", self.id),
                })
                .collect(),
            other => panic!("claim {}: figure {key} is {other:?}", self.id),
        }
    }
    /// A list of counts of the claim (leaves, nodes): [`Claim::numbers`] as whole numbers.
    pub fn counts(&self, key: &str) -> Vec<u64> {
        self.numbers(key).iter().map(|&x| x as u64).collect()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFigure {
    program: String,
    machine: String,
    kind: String,
    mhz: Option<f64>,
    low: f64,
    high: f64,
    unit: Option<String>,
    #[serde(default)]
    estimate: bool,
    quote: String,
    sources: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    sources: BTreeMap<String, Source>,
    machines: Vec<Machine>,
    programs: Vec<Program>,
    figures: Vec<RawFigure>,
    claims: Vec<Claim>,
}

/// Everything in the data file, checked.
#[derive(Debug)]
pub struct History {
    /// Sources by id.
    pub sources: BTreeMap<String, Source>,
    /// Machines (loaded and checked with the rest; no command prints them yet).
    #[allow(dead_code)]
    pub machines: Vec<Machine>,
    /// Programs (loaded and checked with the rest; no command prints them yet).
    #[allow(dead_code)]
    pub programs: Vec<Program>,
    /// Figures for the bench chart.
    pub figures: Vec<Historical>,
    /// Claims.
    pub claims: Vec<Claim>,
}

/// What a historical figure measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Figure {
    /// Search speed: `low..=high` per second (`unit`: what was counted) at `mhz`.
    Speed {
        /// Clock of the machine in MHz.
        mhz: f64,
        /// Lower end of the figure (equal to `high` for a single value).
        low: f64,
        /// Upper end.
        high: f64,
        /// What was counted: nodes, positions, evaluated positions.
        unit: &'static str,
    },
    /// Program size in bytes (`low..=high` where the source gives a range).
    Code {
        /// Smallest size.
        low: f64,
        /// Largest size.
        high: f64,
    },
    /// RAM of the program or machine in bytes (`low..=high`).
    Ram {
        /// Smallest.
        low: f64,
        /// Largest.
        high: f64,
    },
    /// RAM per ply of search depth in bytes.
    RamPerPly {
        /// Bytes per ply.
        bytes: f64,
    },
}

/// One historical figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Historical {
    /// Program (and author, year).
    pub program: &'static str,
    /// The machine or CPU it ran on.
    pub machine: &'static str,
    /// The figure.
    pub figure: Figure,
    /// Whether the source calls it an estimate (never shown as a measurement).
    pub estimate: bool,
    /// The figure's words in the source.
    pub quote: &'static str,
    /// The sources, cited by publication.
    pub source: &'static str,
}

impl Historical {
    /// A short label for charts and tables.
    pub fn label(&self) -> String {
        let mut s = format!("{} ({})", self.program, self.machine);
        if self.estimate {
            s.push_str(", estimate");
        }
        s
    }
}

/// An error in the data file: what and where.
#[derive(Debug)]
pub struct DataError(pub String);

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{DATA_PATH}: {}", self.0)
    }
}

impl std::error::Error for DataError {}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Parses and checks a data file's text: every source id known, ranges ordered, estimates
/// flagged in their quotes, kinds known.
pub fn parse(text: &str) -> Result<History, DataError> {
    let raw: Raw = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| {
                let line = text[..s.start].matches('\n').count() + 1;
                let col = s.start - text[..s.start].rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("{line}:{col}: ")
            })
            .unwrap_or_default();
        DataError(format!("{at}{}", e.message()))
    })?;
    let cite = |ids: &[String], what: &str| -> Result<String, DataError> {
        if ids.is_empty() {
            return Err(DataError(format!("{what} names no source")));
        }
        ids.iter()
            .map(|id| {
                raw.sources
                    .get(id)
                    .map(Source::cite)
                    .ok_or_else(|| DataError(format!("{what}: unknown source '{id}'")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.join("; "))
    };
    for m in &raw.machines {
        cite(&m.sources, &format!("machine {}", m.id))?;
    }
    for p in &raw.programs {
        cite(&p.sources, &format!("program {}", p.name))?;
    }
    for c in &raw.claims {
        cite(&c.sources, &format!("claim {}", c.id))?;
    }
    let mut figures = Vec::new();
    for f in &raw.figures {
        let what = format!("figure '{}' of {}", f.quote, f.program);
        let source = cite(&f.sources, &what)?;
        if !(f.low > 0.0 && f.low <= f.high) {
            return Err(DataError(format!("{what}: low {} high {}", f.low, f.high)));
        }
        if f.estimate != f.quote.contains("estimate") {
            return Err(DataError(format!(
                "{what}: estimate = {} but the quote {} the word 'estimate'",
                f.estimate,
                if f.estimate { "lacks" } else { "has" }
            )));
        }
        let figure = match f.kind.as_str() {
            "speed" => Figure::Speed {
                mhz: f
                    .mhz
                    .ok_or_else(|| DataError(format!("{what}: speed without mhz")))?,
                low: f.low,
                high: f.high,
                unit: leak(
                    f.unit
                        .clone()
                        .ok_or_else(|| DataError(format!("{what}: speed without unit")))?,
                ),
            },
            "code" => Figure::Code {
                low: f.low,
                high: f.high,
            },
            "ram" => Figure::Ram {
                low: f.low,
                high: f.high,
            },
            "ram_per_ply" => Figure::RamPerPly { bytes: f.low },
            k => {
                return Err(DataError(format!(
                    "{what}: unknown kind '{k}' (speed, code, ram, ram_per_ply)"
                )));
            }
        };
        figures.push(Historical {
            program: leak(f.program.clone()),
            machine: leak(f.machine.clone()),
            figure,
            estimate: f.estimate,
            quote: leak(f.quote.clone()),
            source: leak(source),
        });
    }
    Ok(History {
        sources: raw.sources,
        machines: raw.machines,
        programs: raw.programs,
        figures,
        claims: raw.claims,
    })
}

/// The compiled-in data (parsed once; a test checks that it parses).
pub fn history() -> &'static History {
    static H: OnceLock<History> = OnceLock::new();
    H.get_or_init(|| match parse(data()) {
        Ok(h) => h,
        Err(e) => panic!("{e}"),
    })
}

/// The claims of the documents.
pub fn claims() -> &'static [Claim] {
    &history().claims
}

/// A claim by id.
pub fn claim(id: &str) -> &'static Claim {
    claims()
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("{DATA_PATH} has no claim '{id}'"))
}

/// The sources of a claim, cited by publication.
pub fn cite(ids: &[String]) -> String {
    ids.iter()
        .filter_map(|id| history().sources.get(id).map(Source::cite))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The figures of the bench chart, iterable as `for h in HISTORICAL`.
pub const HISTORICAL: Figures = Figures;

/// Handle to the bench chart's figures ([`HISTORICAL`]).
#[derive(Clone, Copy, Debug)]
pub struct Figures;

impl IntoIterator for Figures {
    type Item = &'static Historical;
    type IntoIter = std::slice::Iter<'static, Historical>;
    fn into_iter(self) -> Self::IntoIter {
        history().figures.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_every_source_is_known() {
        let h = parse(data()).unwrap();
        assert_eq!(h.figures.len(), 13);
        assert_eq!(h.machines.len(), 14);
        assert_eq!(h.programs.len(), 12);
        let ids: Vec<&str> = h.claims.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "minimal-tree",
                "branching-factor",
                "null-move",
                "negascout-mtdf",
                "stack-per-ply",
                "elo-per-ply"
            ]
        );
        for h in HISTORICAL {
            assert!(!h.source.is_empty() && !h.source.contains(".md"), "{h:?}");
            assert_eq!(h.label().contains("estimate"), h.estimate);
        }
        assert!(claim("null-move").number("speedup").eq(&20.0));
        assert_eq!(claim("minimal-tree").numbers("salomon_best")[3], 3199.0);
    }

    #[test]
    fn bad_data_is_refused_with_a_place() {
        let bad = data().replacen("kind = \"code\"", "kind = \"cpu\"", 1);
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.contains("unknown kind 'cpu'"), "{e}");
        let bad = data().replacen("sources = [\"adrian-2011\"]", "sources = [\"nobody\"]", 1);
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("unknown source 'nobody'")
        );
        let bad = data().replacen("low = 5.0", "low = \"five\"", 1);
        let e = parse(&bad).unwrap_err().to_string();
        assert!(
            e.starts_with("docs/history/figures.toml:") && e.contains(':'),
            "{e}"
        );
        let bad = data().replacen("estimate = true\nquote", "estimate = false\nquote", 1);
        assert!(parse(&bad).unwrap_err().to_string().contains("estimate"));
    }
}
