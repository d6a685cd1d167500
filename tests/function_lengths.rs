//! How long a function may grow (docs/ARCHITECTURE.md, "How long a function may grow"): no
//! function of 150 lines or more outside the instruction tables that page names, at most 15 of
//! 100 lines or more. Counted on the Rust sources outside tests, examples and benches, a
//! function from its `fn` line to its closing brace. `cargo test --test function_lengths --
//! --nocapture` prints every function of 100 lines or more, longest first.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A function this long must be one of the instruction tables docs/ARCHITECTURE.md names.
const LONG: usize = 150;
/// Functions this long are counted; at most `MOST_OF_100` of them.
const COUNTED: usize = 100;
const MOST_OF_100: usize = 15;

/// Functions being split as this rule lands, each by the part of the house it belongs to (path,
/// name): not counted while they stay long. An entry leaves when its function is split (the test
/// prints the ones that can leave); nothing new is added here.
const BEING_SPLIT: &[(&str, &str)] = &[];

/// One function: where, its name and its lines from `fn` to the closing brace.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Function {
    path: String,
    name: String,
    line: usize,
    lines: usize,
}

/// The Rust sources under `dir`, paths relative to the root with `/`, outside tests, examples,
/// benches, build output and hidden folders.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let skipped = ["target", "tests", "examples", "benches", "node_modules"];
            if !name.starts_with('.') && !skipped.contains(&name.as_str()) {
                sources(&path, out);
            }
        } else if kind.is_file() && name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The name of the function whose signature starts on `line`, if one does: `fn`, after the
/// qualifiers a Rust item may carry (`pub`, `pub(crate)`, `const`, `async`, `unsafe`,
/// `extern "C"`).
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let word_end = rest.find([' ', '(', '<']).unwrap_or(rest.len());
        let word = &rest[..word_end];
        match word {
            "fn" => {
                let name = rest[2..].trim_start();
                let end = name
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(name.len());
                return (end > 0).then(|| &name[..end]);
            }
            "pub" if rest[3..].starts_with('(') => {
                let close = rest.find(')')?;
                rest = rest[close + 1..].trim_start();
            }
            "pub" | "const" | "async" | "unsafe" | "default" => {
                rest = rest[word_end..].trim_start();
            }
            "extern" => {
                rest = rest[word_end..].trim_start();
                if rest.starts_with('"') {
                    let close = rest[1..].find('"')? + 1;
                    rest = rest[close + 1..].trim_start();
                }
            }
            _ => return None,
        }
    }
}

/// The functions of one source, as rustfmt lays them out: a signature opens its body with a line
/// ending in `{` and the body closes with `}` alone at the signature's indentation; a signature
/// ending in `;` is a declaration without a body, a line ending in `}` that opened on the same
/// line is a function of one line. A function inside a function counts as part of it.
fn functions(path: &str, text: &str) -> Vec<Function> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(name) = fn_name(lines[i]) else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - lines[i].trim_start().len();
        // The end of the signature: the line that opens the body or ends a declaration.
        let mut open = i;
        let mut body = false;
        while open < lines.len() {
            let t = lines[open].trim_end();
            if t.ends_with(';') && !t.contains('{') {
                break;
            }
            if t.ends_with('{') {
                body = true;
                break;
            }
            if t.ends_with('}') && t.contains('{') {
                out.push(Function {
                    path: path.to_string(),
                    name: name.to_string(),
                    line: i + 1,
                    lines: open - i + 1,
                });
                break;
            }
            open += 1;
        }
        if !body {
            i = open + 1;
            continue;
        }
        let close = (open + 1..lines.len()).find(|&j| {
            let l = lines[j].trim_end();
            l.len() == indent + 1 && l.ends_with('}') && l[..indent].trim().is_empty()
        });
        let Some(close) = close else {
            i = open + 1;
            continue;
        };
        out.push(Function {
            path: path.to_string(),
            name: name.to_string(),
            line: i + 1,
            lines: close - i + 1,
        });
        i = close + 1;
    }
    out
}

/// Every function of the workspace's sources, longest first.
fn all_functions() -> Vec<Function> {
    let root = Path::new(ROOT);
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut all = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rel = file.strip_prefix(root).unwrap_or(&file);
        let rel = rel.to_string_lossy().replace('\\', "/");
        all.extend(functions(&rel, &text));
    }
    all.sort_by(|a, b| {
        b.lines
            .cmp(&a.lines)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
    });
    all
}

/// The instruction tables docs/ARCHITECTURE.md lets stay one long function: the list items
/// ``- `path`, `name` ...`` of its section "Instruction tables that stay one function".
fn named_tables() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/ARCHITECTURE.md"))
        .expect("docs/ARCHITECTURE.md");
    let mut out = Vec::new();
    let mut inside = false;
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            inside = heading.trim() == "Instruction tables that stay one function";
            continue;
        }
        let Some(item) = line.strip_prefix("- `").filter(|_| inside) else {
            continue;
        };
        let mut quoted = item.split('`');
        let path = quoted.next().unwrap_or_default();
        let rest = quoted.next().unwrap_or_default();
        let name = quoted.next().unwrap_or_default();
        if rest.trim() == "," && !name.is_empty() {
            out.push((path.to_string(), name.to_string()));
        }
    }
    out
}

fn table(functions: &[&Function]) -> String {
    functions
        .iter()
        .map(|f| format!("{:4} {}:{} {}\n", f.lines, f.path, f.line, f.name))
        .collect()
}

#[test]
fn no_function_a_reader_has_to_scroll_through() {
    let all = all_functions();
    assert!(
        all.len() > 1000,
        "only {} functions found under {ROOT}: the walk missed the sources",
        all.len()
    );
    let being_split = |f: &Function| BEING_SPLIT.contains(&(f.path.as_str(), f.name.as_str()));
    let counted: Vec<&Function> = all.iter().filter(|f| f.lines >= COUNTED).collect();
    for (path, name) in BEING_SPLIT {
        if !counted.iter().any(|f| f.path == *path && f.name == *name) {
            println!(
                "{path} `{name}` is no longer {COUNTED} lines or more: it can leave BEING_SPLIT"
            );
        }
    }
    println!(
        "{}{} functions of {COUNTED} lines or more ({} of {LONG} or more), {} functions in all",
        table(&counted),
        counted.len(),
        counted.iter().filter(|f| f.lines >= LONG).count(),
        all.len()
    );
    let tables = named_tables();
    for (path, name) in &tables {
        assert!(
            all.iter().any(|f| &f.path == path && &f.name == name),
            "docs/ARCHITECTURE.md names the instruction table `{name}` in {path}, which has no such function"
        );
    }
    let too_long: Vec<&Function> = counted
        .iter()
        .copied()
        .filter(|f| f.lines >= LONG && !tables.iter().any(|(p, n)| *p == f.path && *n == f.name))
        .filter(|f| !being_split(f))
        .collect();
    assert!(
        too_long.is_empty(),
        "functions of {LONG} lines or more that are not instruction tables named in \
         docs/ARCHITECTURE.md (split them into parts a reader can name):\n{}",
        table(&too_long)
    );
    let settled: Vec<&Function> = counted
        .iter()
        .copied()
        .filter(|f| !being_split(f))
        .collect();
    assert!(
        settled.len() <= MOST_OF_100,
        "{} functions of {COUNTED} lines or more (not counting BEING_SPLIT), at most \
         {MOST_OF_100} allowed:\n{}",
        settled.len(),
        table(&settled)
    );
}

#[test]
fn counted_from_fn_line_to_closing_brace() {
    let text = "\
pub(crate) const fn one() -> u8 { 1 }
fn two(
    a: u8,
) -> u8
where
    u8: Copy,
{
    let s = \"}\";
    a
}
trait T {
    fn declared(&self,
        b: u8) -> u8;
    fn with_default(&self) -> u8 {
        fn inner() {}
        0
    }
}
impl T for u8 {
    pub unsafe extern \"C\" fn ffi() {
    }
}
";
    let found: Vec<(String, usize, usize)> = functions("x.rs", text)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines))
        .collect();
    assert_eq!(
        found,
        [
            ("one".to_string(), 1, 1),
            ("two".to_string(), 2, 9),
            ("with_default".to_string(), 14, 4),
            ("ffi".to_string(), 20, 2),
        ]
    );
    assert_eq!(fn_name("    let fn_x = 1;"), None);
    assert_eq!(fn_name("// fn commented() {"), None);
}
