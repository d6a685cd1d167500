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

/// A live command of a lesson, as the page runs it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LiveItem {
    /// A profile's search: the page's search request.
    Search {
        /// The profile (`engine` of a search request).
        profile: String,
        /// Depth.
        depth: u32,
        /// The position.
        fen: String,
        /// The command as the lesson writes it.
        command: String,
    },
    /// A tree: the tree view's request.
    Tree {
        /// `minimax`, `alphabeta`, `reference`.
        algorithm: String,
        /// Depth.
        depth: u32,
        /// Moves per node (0: all).
        width: usize,
        /// The root (None: the Tartan figure).
        fen: Option<String>,
        /// The command.
        command: String,
    },
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
    /// Its live commands, by number.
    pub live: Vec<LiveItem>,
}

/// The lesson `id`, rendered.
pub fn lesson_page(id: &str) -> Result<LessonPage, WebError> {
    let l = lesson(id).ok_or_else(|| {
        let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
        WebError::Request(format!("no lesson '{id}' (lessons: {})", ids.join(", ")))
    })?;
    let r = render(l);
    let live = r
        .live
        .into_iter()
        .map(|x| match x {
            Live::Search {
                profile,
                depth,
                fen,
                command,
            } => LiveItem::Search {
                profile,
                depth,
                fen,
                command,
            },
            Live::Tree {
                algorithm,
                depth,
                width,
                fen,
                command,
            } => LiveItem::Tree {
                algorithm: algorithm.to_string(),
                depth,
                width: width.unwrap_or(0),
                fen,
                command,
            },
        })
        .collect();
    Ok(LessonPage {
        id: l.id,
        title: l.title(),
        file: l.file,
        html: r.html,
        live,
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
