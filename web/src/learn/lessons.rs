//! The lessons and the guided examples as the page lists and shows them.

use kempelen_claims::lessons::{LESSONS, Live, lesson, render};
use kempelen_roms::snippets::{SNIPPETS, snippet};
use serde::Serialize;

use crate::WebError;

/// A lesson in the list.
#[derive(Debug, Clone, Serialize)]
pub struct LessonItem {
    /// Its id in links.
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// Where its Markdown lives in the repository.
    pub file: &'static str,
}

/// Every lesson.
pub fn lessons() -> Vec<LessonItem> {
    LESSONS
        .iter()
        .map(|l| LessonItem {
            id: l.id,
            title: l.title(),
            file: l.file,
        })
        .collect()
}

/// A lesson rendered.
#[derive(Debug, Clone, Serialize)]
pub struct LessonPage {
    /// Its id.
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// Its file in the repository.
    pub file: &'static str,
    /// HTML (see `kempelen_claims::lessons::Rendered`).
    pub html: String,
    /// Its live commands, by number (`kind` `search` or `tree`; a tree's `width` null: all
    /// moves).
    pub live: Vec<Live>,
}

/// The lesson `id`, rendered.
pub fn lesson_page(id: &str) -> Result<LessonPage, WebError> {
    let l = lesson(id).ok_or_else(|| {
        let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
        WebError::Request(format!("no lesson '{id}' (lessons: {})", ids.join(", ")))
    })?;
    let r = render(l);
    Ok(LessonPage {
        id: l.id,
        title: l.title(),
        file: l.file,
        html: r.html,
        live: r.live,
    })
}

/// A guided example.
#[derive(Debug, Clone, Serialize)]
pub struct SnippetItem {
    /// Its id.
    pub id: &'static str,
    /// `z80`, `6502`.
    pub cpu: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What to watch.
    pub narration: String,
    /// Its source (engine routines taken in).
    pub source: String,
}

/// Every guided example.
pub fn snippets() -> Vec<SnippetItem> {
    SNIPPETS
        .iter()
        .map(|s| SnippetItem {
            id: s.id,
            cpu: s.cpu.name(),
            title: s.title(),
            narration: s.narration(),
            source: s.source().unwrap_or_else(|e| format!("; {e}\n")),
        })
        .collect()
}

/// The guided example `id`.
pub fn snippet_item(id: &str) -> Option<SnippetItem> {
    snippet(id).and_then(|s| snippets().into_iter().find(|x| x.id == s.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The live commands reach the page in the form views/lessons.js reads: `kind`, the
    /// profile's search fields, a tree's algorithm by name and its width (null: all moves).
    #[test]
    fn live_commands_serialise_as_the_page_reads_them() {
        let page = serde_json::to_value(lesson_page("search").unwrap()).unwrap();
        let live = page["live"].as_array().unwrap();
        let tree = live.iter().find(|x| x["kind"] == "tree").expect("a tree");
        assert!(
            ["minimax", "alphabeta", "reference"].contains(&tree["algorithm"].as_str().unwrap()),
            "{tree}"
        );
        assert!(tree["depth"].is_u64() && tree.get("width").is_some() && tree.get("fen").is_some());
        let page = serde_json::to_value(lesson_page("microchess").unwrap()).unwrap();
        let search = page["live"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["kind"] == "search")
            .expect("a search");
        assert_eq!(search["profile"], "microchess");
        assert!(search["fen"].is_string() && search["command"].is_string());
    }
}
