//! No circle between the modules of a crate (docs/ARCHITECTURE.md, "Inside a crate: no circle
//! between modules"). For every crate of the workspace and the command line's binary, the
//! module tree is read from the `mod` declarations, and every path a module names (`use` items,
//! with their braces expanded, and `crate::`, `super::` and `self::` paths written in the code)
//! is resolved to the module it reaches. The modules must then depend one way: no module uses
//! another that reaches it back through other uses. A module's use of its ancestors and of its
//! descendants is not counted (a parent declares its children and re-exports them; a child
//! may use its parent). Tests (`#[cfg(test)]` items) are left out.
//!
//! `cargo test --test module_circles -- --nocapture` prints the graph's size; a circle fails
//! the test, naming each use of it with its file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A module: its path from the crate's root (`["tournament", "game"]`) and its file.
#[derive(Debug, Clone)]
struct Module {
    path: Vec<String>,
    file: PathBuf,
}

/// One crate's modules, by path.
struct Crate {
    name: String,
    modules: BTreeMap<Vec<String>, Module>,
}

/// Where a module's children live: beside `lib.rs`, `main.rs` and `mod.rs`, else in the folder
/// named after the file.
fn children_dir(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap().to_path_buf();
    let stem = file.file_stem().unwrap().to_string_lossy();
    let name = file.file_name().unwrap().to_string_lossy();
    if ["lib.rs", "main.rs", "mod.rs"].contains(&name.as_ref()) {
        dir
    } else {
        dir.join(stem.as_ref())
    }
}

/// The source without comments, string literals' contents and `#[cfg(test)]` items: what
/// the compiler reads as code outside the tests.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            i += text[i..].find("*/").map_or(bytes.len() - i, |e| e + 2);
        } else if text[i..].starts_with("r#\"") || text[i..].starts_with("r\"") {
            let hashes = text[i + 1..].chars().take_while(|&c| c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            i = body
                + text[body..]
                    .find(&close)
                    .map_or(bytes.len() - body, |e| e + close.len());
            out.push_str("\"\"");
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if bytes[i] == b'\''
            && i + 2 < bytes.len()
            && (bytes[i + 2] == b'\'' || bytes[i + 1] == b'\\')
        {
            // A character literal ('"', '\n', '\''); a lifetime has no closing quote.
            let close = text[i + 2..]
                .find('\'')
                .map_or(bytes.len(), |e| i + 2 + e + 1);
            i = close;
            out.push_str("' '");
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    without_test_items(&out)
}

/// `out` with every item after `#[cfg(test)]` removed (to its closing brace or semicolon).
fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let (open, semi) = (after.find('{'), after.find(';'));
        let end = match (open, semi) {
            (Some(o), Some(s)) if s < o => s + 1,
            (Some(o), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (j, c) in after[o..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = o + j + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The `mod NAME;` declarations of a file's code (inline `mod NAME { ... }` are part of it).
fn declared_modules(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in code.lines() {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        while words.first().is_some_and(|w| w.starts_with("pub")) {
            words.remove(0);
        }
        if words.len() == 2 && words[0] == "mod" && words[1].ends_with(';') {
            found.push(words[1].trim_end_matches(';').to_string());
        }
    }
    found
}

/// Reads the module tree of the crate whose root file is `root`.
fn read_crate(name: &str, root: &Path) -> Crate {
    let mut modules = BTreeMap::new();
    let mut todo = vec![Module {
        path: Vec::new(),
        file: root.to_path_buf(),
    }];
    while let Some(m) = todo.pop() {
        let text = std::fs::read_to_string(&m.file).unwrap();
        let dir = children_dir(&m.file);
        for child in declared_modules(&code_of(&text)) {
            let flat = dir.join(format!("{child}.rs"));
            let nested = dir.join(&child).join("mod.rs");
            let file = if flat.is_file() { flat } else { nested };
            assert!(file.is_file(), "{}: mod {child}: no file", m.file.display());
            let mut path = m.path.clone();
            path.push(child);
            todo.push(Module { path, file });
        }
        modules.insert(m.path.clone(), m);
    }
    Crate {
        name: name.to_string(),
        modules,
    }
}

/// The paths a `use` item names, its braces expanded (`a::{b, c::{d}}` gives `a::b`, `a::c::d`).
fn expand_use(tree: &str) -> Vec<String> {
    // `x as y` keeps `x`: the renaming is marked, the blanks dropped, the name cut at the mark.
    let marked = tree
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" as ", "@");
    let tree: String = marked.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split('@').next().unwrap().to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (j, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand_use(&format!("{prefix}{p}")))
        .collect()
}

/// Every path of a file's code that starts at `crate`, `super` or `self`, with its line.
fn named_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    // `use` items, which may span lines; blanked out of the code read below.
    let mut others = code.to_string();
    let mut from = 0;
    while let Some(at) = find_word(&code[from..], "use") {
        let (at, start) = (from + at, from + at + 3);
        let Some(end) = code[start..].find(';').map(|e| start + e) else {
            break;
        };
        let line = code[..at].matches('\n').count() + 1;
        for p in expand_use(&code[start..end]) {
            found.push((line, p.split("::").map(str::to_string).collect()));
        }
        let blank: String = code.as_bytes()[at..end]
            .iter()
            .map(|&b| if b == b'\n' { '\n' } else { ' ' })
            .collect();
        others.replace_range(at..end, &blank);
        from = end;
    }
    // Paths in the rest of the code: `crate::a::b`, `super::x`.
    for (n, line) in others.lines().enumerate() {
        for head in ["crate::", "super::", "self::"] {
            let mut from = 0;
            while let Some(at) = line[from..].find(head) {
                let at = from + at;
                from = at + head.len();
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let path: Vec<String> = line[at..]
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap()
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                found.push((n + 1, path));
            }
        }
    }
    found
}

/// Where `word` stands alone as a word at the start of a statement in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find(word) {
        let at = from + at;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let alone_before = before
            .is_none_or(|c| c.is_whitespace() || c == ';' || c == '{' || c == '}' || c == ')');
        if alone_before && after.is_some_and(char::is_whitespace) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The module `path` (named from module `from`) reaches: as many of its segments as name modules.
fn resolve(krate: &Crate, from: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut at: Vec<String> = match path.first()?.as_str() {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        "super" => {
            let mut p = from.to_vec();
            p.pop()?;
            p
        }
        _ => return None,
    };
    for seg in &path[1..] {
        if seg == "super" {
            at.pop()?;
            continue;
        }
        let mut next = at.clone();
        next.push(seg.clone());
        if krate.modules.contains_key(&next) {
            at = next;
        } else {
            break;
        }
    }
    Some(at)
}

/// A use of one module by another, neither holding the other: `(from, to, site)`.
type Use = (Vec<String>, Vec<String>, String);

/// The uses between modules of a crate, leaving out a module's uses of itself, of its
/// ancestors and of its descendants.
fn module_uses(krate: &Crate) -> Vec<Use> {
    let mut out = Vec::new();
    for m in krate.modules.values() {
        let text = std::fs::read_to_string(&m.file).unwrap();
        for (line, path) in named_paths(&code_of(&text)) {
            let Some(target) = resolve(krate, &m.path, &path) else {
                continue;
            };
            let common = m
                .path
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == m.path.len() || common == target.len() {
                continue; // the same module, its ancestor or its descendant
            }
            let rel = m
                .file
                .strip_prefix(ROOT)
                .unwrap_or(&m.file)
                .display()
                .to_string();
            out.push((
                m.path.clone(),
                target,
                format!("{rel}:{line} ({})", path.join("::")),
            ));
        }
    }
    out
}

/// A module's name as the crate writes it (`crate` for the root).
fn name(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_string()
    } else {
        path.join("::")
    }
}

/// The circles between a crate's modules: each use that one module makes of another which
/// reaches it back.
fn circles(krate: &Crate) -> Vec<String> {
    let uses = module_uses(krate);
    let mut graph: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for (from, to, _) in &uses {
        graph.entry(from).or_default().insert(to);
    }
    let reaches = |from: &Vec<String>, to: &Vec<String>| -> bool {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(n) = todo.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n) {
                if let Some(next) = graph.get(n) {
                    todo.extend(next.iter().copied());
                }
            }
        }
        false
    };
    uses.iter()
        .filter(|(from, to, _)| reaches(to, from))
        .map(|(from, to, site)| {
            format!(
                "{}: {} uses {} at {site}, and {} reaches {} back",
                krate.name,
                name(from),
                name(to),
                name(to),
                name(from)
            )
        })
        .collect()
}

/// The workspace's crates (the members' `src/lib.rs`) and the command line's binary.
fn workspace() -> Vec<Crate> {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find_map(|l| l.strip_prefix("members = "))
        .expect("the workspace's members");
    let mut crates = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        let lib = Path::new(ROOT).join(member).join("src/lib.rs");
        if lib.is_file() {
            crates.push(read_crate(member, &lib));
        }
    }
    crates.push(read_crate(
        "kempelen (the command line)",
        &Path::new(ROOT).join("tools/kempelen/main.rs"),
    ));
    crates
}

#[test]
fn no_circle_between_the_modules_of_a_crate() {
    let crates = workspace();
    assert!(crates.len() >= 10, "{} crates read", crates.len());
    let mut all = Vec::new();
    for krate in &crates {
        let uses = module_uses(krate);
        println!(
            "{}: {} modules, {} uses between them",
            krate.name,
            krate.modules.len(),
            uses.len()
        );
        all.extend(circles(krate));
    }
    assert!(
        all.is_empty(),
        "circles between modules:\n{}",
        all.join("\n")
    );
}

/// The reading of paths, on a small source: braces expanded, comments and tests left out.
#[test]
fn paths_are_read_as_the_compiler_reads_them() {
    let code = code_of(
        "use crate::a::{b::{C, D}, e};\n// use crate::nope;\nfn f() { let s = \"crate::x\"; super::g::h(); }\n\
         #[cfg(test)]\nmod tests { use crate::t; }\nuse self::k as L;\n",
    );
    let paths: Vec<String> = named_paths(&code)
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "crate::a::b::C",
            "crate::a::b::D",
            "crate::a::e",
            "self::k",
            "super::g::h"
        ]
    );
}
