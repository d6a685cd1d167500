//! A chess move with its number (`1. e4`, `12... Nf6`) at the start of a line of a Markdown
//! document is read as a numbered list's item, by the page's lessons and by any Markdown
//! viewer: "As White Sargon plays\n   1. e4 or 1. d4" renders "e4 or 1. d4" as a nested list.
//! No document of docs/ (the lessons among them) and no README may start a line that way.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Whether `line` starts (after its indentation) with a move number and a move in SAN.
fn starts_with_a_numbered_move(line: &str) -> bool {
    let rest = line.trim_start();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let rest = &rest[digits..];
    let Some(rest) = rest.strip_prefix("...").or_else(|| rest.strip_prefix('.')) else {
        return false;
    };
    let Some(mv) = rest.strip_prefix(' ') else {
        return false;
    };
    let mv = mv.trim_start_matches("...").trim_start();
    let word: String = mv
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ',')
        .collect();
    let san = word.trim_end_matches(['+', '#', '!', '?', ')', '.', ';', ':']);
    is_san(san)
}

/// A move in standard algebraic notation (`e4`, `Nxf3`, `exd5`, `O-O`, `e8=Q`).
fn is_san(s: &str) -> bool {
    if s == "O-O" || s == "O-O-O" {
        return true;
    }
    let s = s.split('=').next().unwrap_or(s);
    let b = s.as_bytes();
    if b.len() < 2 {
        return false;
    }
    let (file, rank) = (b[b.len() - 2], b[b.len() - 1]);
    if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
        return false;
    }
    let head = &s[..s.len() - 2];
    head.chars().all(|c| "KQRBNabcdefgh12345678x".contains(c))
}

fn markdown_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn no_line_of_a_document_starts_with_a_numbered_move() {
    let mut files = vec![Path::new(ROOT).join("README.md")];
    markdown_files(&Path::new(ROOT).join("docs"), &mut files);
    assert!(files.len() > 10, "{} Markdown files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut fenced = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            if !fenced && starts_with_a_numbered_move(line) {
                let rel = file.strip_prefix(ROOT).unwrap().display();
                found.push(format!("{rel}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "lines a Markdown reader takes for a numbered list:\n{}",
        found.join("\n")
    );
}

#[test]
fn numbered_moves_are_told_from_numbered_lists() {
    for yes in [
        "   1. e4 or 1. d4",
        "12... Nf6 wins",
        "3. O-O",
        "1. exd5",
        "7. Nxf3+ and",
    ] {
        assert!(starts_with_a_numbered_move(yes), "{yes}");
    }
    for no in [
        "1. **Book.** On move 1",
        "  2. double push to `sq + 2f`",
        "1990. A year",
        "1. a list",
    ] {
        assert!(!starts_with_a_numbered_move(no), "{no}");
    }
}
