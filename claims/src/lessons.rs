//! The lessons as a page shows them: `docs/SEARCH.md` and the pages of `docs/history/`, the
//! Markdown the repository keeps (the one source), rendered to HTML with their commands made
//! live. A `kempelen search --profile P ...` or `kempelen tree ...` in the text (a code block
//! line or an inline code span) becomes a [`Live`] command the page runs on the spot (the
//! profile's move on that position, a tree to expand); a drawn tree of the lesson
//! (`tree-*.svg`) becomes the live tree of the `kempelen tree` command the text gives for it.
//! Links between the lessons become links of the page (`#view=lessons&lesson=ID`).
//!
//! ```
//! use kempelen_claims::lessons::{Live, lesson, render};
//!
//! let tartan = lesson("tartan").unwrap();
//! assert!(tartan.title().starts_with("Tartan"));
//! let page = render(tartan);
//! assert!(matches!(&page.live[0], Live::Search { profile, depth: 3, .. } if profile == "tartan"));
//! assert!(page.html.contains("data-live=\"0\""));
//! ```

use kempelen_engine::Position;
use kempelen_engine::tree::Algorithm;
use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd, html};
use serde::Serialize;

/// One lesson: its id in links, where it lives in the repository (its Markdown: [`Self::markdown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LessonText {
    /// The id in the page's links (`tartan`).
    pub id: &'static str,
    /// The file in the repository (`docs/history/tartan.md`).
    pub file: &'static str,
}

macro_rules! lesson {
    ($id:literal, $file:literal) => {
        LessonText {
            id: $id,
            file: $file,
        }
    };
}

/// Every lesson, in the order a reader takes them: the search, the timeline, the programs.
pub static LESSONS: [LessonText; 10] = [
    lesson!("search", "docs/SEARCH.md"),
    lesson!("history", "docs/history/README.md"),
    lesson!("turing", "docs/history/turing.md"),
    lesson!("shannon", "docs/history/shannon.md"),
    lesson!("tartan", "docs/history/tartan.md"),
    lesson!("microchess", "docs/history/microchess.md"),
    lesson!("sargon", "docs/history/sargon.md"),
    lesson!("salomon", "docs/history/salomon.md"),
    lesson!("nimzo", "docs/history/nimzo.md"),
    lesson!("micromax", "docs/history/micromax.md"),
];

/// The lesson with this id.
pub fn lesson(id: &str) -> Option<&'static LessonText> {
    LESSONS.iter().find(|l| l.id == id)
}

impl LessonText {
    /// The Markdown.
    pub fn markdown(&self) -> &'static str {
        crate::bundled(self.file)
    }

    /// The text of its first heading, as it reads (without the Markdown's code marks).
    pub fn title(&self) -> String {
        self.markdown()
            .lines()
            .find_map(|l| l.strip_prefix("# "))
            .unwrap_or(self.id)
            .trim()
            .replace('`', "")
    }

    /// The lesson's live page, as a fragment of the page's link.
    pub fn fragment(&self) -> String {
        format!("#view=lessons&lesson={}", self.id)
    }
}

/// A command of a lesson that the page runs (serialised as the page reads it: `kind` is
/// `search` or `tree`, the algorithm by its name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Live {
    /// `kempelen search --profile P --depth N [--fen F] [--moves ...]`: the profile's move.
    Search {
        /// The profile.
        profile: String,
        /// The depth.
        depth: u32,
        /// The position searched (FEN), after the moves.
        fen: String,
        /// The command as written.
        command: String,
    },
    /// `kempelen tree ...`: a tree to expand.
    Tree {
        /// The algorithm.
        #[serde(serialize_with = "by_name")]
        algorithm: Algorithm,
        /// The depth.
        depth: u32,
        /// Moves per node (`None`: all).
        width: Option<usize>,
        /// The root (FEN); `None`: the start position with the Tartan article's move orders.
        fen: Option<String>,
        /// The command as written.
        command: String,
    },
}

/// An algorithm by its name (`minimax`, `alphabeta`, `reference`).
fn by_name<S: serde::Serializer>(a: &Algorithm, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(a)
}

/// A lesson rendered: its HTML and the live commands its placeholders number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The HTML; a live command is `<code class="live" data-live="N">` (a line of a code block,
    /// an inline code span) or `<div class="live-tree" data-live="N">` (a drawn tree).
    pub html: String,
    /// The live commands, by number.
    pub live: Vec<Live>,
}

/// Splits a command line into words, `"..."` quoting.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The live command a line of a lesson gives, if it is one (`kempelen search --profile ...`,
/// `kempelen tree ...`; anything after `#` is a comment). A command the page cannot run as
/// written (an unknown flag, a bad FEN or move) is not live.
pub fn parse_command(line: &str) -> Option<Live> {
    let command = line.split('#').next()?.trim();
    let w = words(command);
    let (tool, args) = match w.as_slice() {
        [k, tool, args @ ..] if k == "kempelen" => (tool.as_str(), args),
        _ => return None,
    };
    let mut flags: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        match a.strip_prefix("--") {
            Some(name) => flags.push((name.to_string(), Vec::new())),
            None => flags.last_mut()?.1.push(a.clone()),
        }
    }
    let one = |name: &str| -> Option<Option<&String>> {
        match flags.iter().find(|(n, _)| n == name) {
            None => Some(None),
            Some((_, v)) if v.len() == 1 => Some(Some(&v[0])),
            Some(_) => None,
        }
    };
    // `kempelen search` needs a depth (the page runs no search without a limit); `kempelen
    // tree` draws depth 4 by default.
    let depth = match (one("depth")?, tool) {
        (Some(d), _) => d.parse::<u32>().ok().filter(|d| (1..=12).contains(d))?,
        (None, "tree") => 4,
        (None, _) => return None,
    };
    let fen = one("fen")?.cloned();
    let command = command.to_string();
    match tool {
        "search" => {
            let known = ["profile", "depth", "fen", "moves"];
            if flags.iter().any(|(n, _)| !known.contains(&n.as_str())) {
                return None;
            }
            let profile = one("profile")??.clone();
            let mut pos = match &fen {
                Some(f) => Position::from_fen(f).ok()?,
                None => Position::startpos(),
            };
            if let Some((_, moves)) = flags.iter().find(|(n, _)| n == "moves") {
                for m in moves {
                    let mv = pos.parse_uci(m).ok()?;
                    pos.play(mv);
                }
            }
            Some(Live::Search {
                profile,
                depth,
                fen: pos.to_fen(),
                command,
            })
        }
        "tree" => {
            let known = ["algorithm", "depth", "width", "fen"];
            if flags.iter().any(|(n, _)| !known.contains(&n.as_str())) {
                return None;
            }
            if let Some(f) = &fen {
                Position::from_fen(f).ok()?;
            }
            let algorithm = match one("algorithm")? {
                Some(a) => a.parse().ok()?,
                None => Algorithm::AlphaBeta,
            };
            let width = match one("width")? {
                Some(w) => w.parse::<usize>().ok()?,
                None => 2,
            };
            Some(Live::Tree {
                algorithm,
                depth,
                width: (width > 0).then_some(width),
                fen,
                command,
            })
        }
        _ => None,
    }
}

/// Where a Markdown link of a lesson leads in the page: another lesson's page, or nowhere
/// (`None`: a file of the repository the page does not hold).
fn page_link(dest: &str) -> Option<String> {
    if dest.starts_with("http://") || dest.starts_with("https://") || dest.starts_with('#') {
        return Some(dest.to_string());
    }
    let file = dest.split('#').next()?;
    let name = file.rsplit('/').next()?;
    // The lessons link to each other by file name (`shannon.md`, `../SEARCH.md`); the one
    // README among them is the history's own, linked from its folder.
    if name == "README.md" && file.contains("..") {
        return None;
    }
    LESSONS
        .iter()
        .find(|l| l.file.rsplit('/').next() == Some(name))
        .map(|l| l.fragment())
}

/// The Markdown the lessons are written in: CommonMark with GitHub's tables (as GitHub and
/// any Markdown viewer of the repository shows them).
fn parser(markdown: &str) -> Parser<'_> {
    Parser::new_ext(markdown, Options::ENABLE_TABLES)
}

/// Renders `lesson`: its HTML with the live commands numbered (see [`Rendered`]).
pub fn render(lesson: &LessonText) -> Rendered {
    let markdown = without_live_link(lesson.markdown());
    let mut live = Vec::new();
    // The `kempelen tree` commands of the text, by their place in it: a drawn tree is the
    // first one after it (the text says below a picture which command draws it).
    let trees: Vec<(usize, Live)> = parser(&markdown)
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Code(c) => parse_command(&c)
                .filter(|l| matches!(l, Live::Tree { .. }))
                .map(|l| (i, l)),
            _ => None,
        })
        .collect();
    let mut events = Vec::new();
    let mut in_code_block = false;
    let mut in_image = false;
    // For each open link: whether it leads somewhere in the page (else only its text shows).
    let mut links: Vec<bool> = Vec::new();
    for (i, e) in parser(&markdown).enumerate() {
        match e {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_) | CodeBlockKind::Indented)) => {
                in_code_block = true;
                events.push(Event::Html("<pre><code>".into()));
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                events.push(Event::Html("</code></pre>\n".into()));
            }
            Event::Text(t) if in_code_block => {
                for line in t.split_inclusive('\n') {
                    events.push(Event::Html(code_line(line, &mut live).into()));
                }
            }
            Event::Code(c) => match parse_command(&c) {
                Some(l) => {
                    live.push(l);
                    let html = format!(
                        "<code class=\"live\" data-live=\"{}\">{}</code>",
                        live.len() - 1,
                        escape(&c)
                    );
                    events.push(Event::Html(html.into()));
                }
                None => events.push(Event::Code(c)),
            },
            Event::Start(Tag::Image { dest_url, .. })
                if dest_url
                    .rsplit('/')
                    .next()
                    .is_some_and(|n| n.starts_with("tree-")) =>
            {
                in_image = true;
                if let Some((_, t)) = trees.iter().find(|(at, _)| *at > i) {
                    live.push(t.clone());
                    let html = format!(
                        "<div class=\"live-tree\" data-live=\"{}\"></div>",
                        live.len() - 1
                    );
                    events.push(Event::Html(html.into()));
                }
            }
            Event::End(TagEnd::Image) if in_image => in_image = false,
            _ if in_image => {}
            Event::Start(Tag::Link {
                dest_url,
                title,
                id,
                ..
            }) => {
                let dest = page_link(&dest_url);
                links.push(dest.is_some());
                if let Some(dest) = dest {
                    events.push(Event::Start(Tag::Link {
                        link_type: LinkType::Inline,
                        dest_url: dest.into(),
                        title,
                        id,
                    }));
                }
            }
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(true) {
                    events.push(Event::End(TagEnd::Link));
                }
            }
            e => events.push(e),
        }
    }
    let mut out = String::new();
    html::push_html(&mut out, events.into_iter());
    Rendered { html: out, live }
}

/// A line of a code block, live when it is a command.
fn code_line(line: &str, live: &mut Vec<Live>) -> String {
    match parse_command(line) {
        Some(l) => {
            live.push(l);
            let (text, end) = match line.strip_suffix('\n') {
                Some(t) => (t, "\n"),
                None => (line, ""),
            };
            format!(
                "<code class=\"live\" data-live=\"{}\">{}</code>{end}",
                live.len() - 1,
                escape(text)
            )
        }
        None => escape(line),
    }
}

/// The lesson without its line that links to its own live page (the page shows it there).
fn without_live_link(markdown: &str) -> String {
    markdown
        .lines()
        .filter(|l| !l.contains(LIVE_LINK_MARK))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// What the line of a lesson that links to its live page says.
pub const LIVE_LINK_MARK: &str = "Live in the page:";

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_become_live_when_the_page_can_run_them() {
        let l = parse_command("kempelen search --profile sargon --depth 3 --moves e2e4 e7e5 g1f3");
        let Some(Live::Search {
            profile,
            depth,
            fen,
            ..
        }) = l
        else {
            panic!("{l:?}");
        };
        assert_eq!((profile.as_str(), depth), ("sargon", 3));
        assert!(fen.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b"));
        let l = parse_command(
            "kempelen tree --algorithm reference --depth 3 --width 2 --fen \"8/8/8/8/8/k7/8/K7 w - - 0 1\"",
        );
        assert!(matches!(
            l,
            Some(Live::Tree {
                algorithm: Algorithm::Reference,
                depth: 3,
                width: Some(2),
                fen: Some(_),
                ..
            })
        ));
        let tartan = parse_command("kempelen tree   # the default");
        assert!(matches!(
            tartan,
            Some(Live::Tree {
                fen: None,
                width: Some(2),
                depth: 4,
                ..
            })
        ));
        for no in [
            "kempelen uci",
            "kempelen search --profile turing --depth x",
            "kempelen search --profile turing --moves e2e5",
            "kempelen tree --order \"e2e4: e7e5\"",
            "cargo run",
        ] {
            assert_eq!(parse_command(no), None, "{no}");
        }
    }

    /// The lesson list shows titles as they read: no Markdown code marks.
    #[test]
    fn titles_read_without_markdown_marks() {
        for l in &LESSONS {
            assert!(!l.title().contains('`'), "{}: {}", l.id, l.title());
        }
        assert_eq!(
            lesson("nimzo").unwrap().title(),
            "Nimzo and Donninger's null move (about 1993): profile nimzo"
        );
    }

    #[test]
    fn every_lesson_links_to_its_live_page_and_the_page_leaves_the_link_out() {
        for l in &LESSONS {
            let link = format!("{LIVE_LINK_MARK} [");
            let line = l.markdown().lines().find(|x| x.starts_with(&link));
            let line = line.unwrap_or_else(|| panic!("{}: no line '{LIVE_LINK_MARK}'", l.file));
            assert!(
                line.contains(&format!("/{})", l.fragment())),
                "{}: {line}",
                l.file
            );
            assert!(!render(l).html.contains(LIVE_LINK_MARK), "{}", l.id);
        }
    }

    #[test]
    fn every_lesson_renders_with_its_examples_live_and_its_links_in_the_page() {
        for l in &LESSONS {
            let r = render(l);
            assert!(!r.html.contains("href=\"tartan.md"), "{}", l.id);
            assert!(!r.html.contains("<img"), "{}: a drawn tree left", l.id);
            let placeholders = r.html.matches("data-live=").count();
            assert_eq!(placeholders, r.live.len(), "{}", l.id);
            if l.id != "history" {
                assert!(!r.live.is_empty(), "{}: nothing live", l.id);
            }
        }
        let search = render(lesson("search").unwrap());
        let trees = search.html.matches("class=\"live-tree\"").count();
        assert_eq!(trees, 3);
        // Each picture is the tree of the command the text gives below it.
        let drawn: Vec<&Live> = search
            .html
            .split("class=\"live-tree\" data-live=\"")
            .skip(1)
            .map(|rest| &search.live[rest.split('"').next().unwrap().parse::<usize>().unwrap()])
            .collect();
        let algorithms: Vec<Algorithm> = drawn
            .iter()
            .map(|l| match l {
                Live::Tree { algorithm, .. } => *algorithm,
                Live::Search { .. } => panic!("a search drawn"),
            })
            .collect();
        assert_eq!(
            algorithms,
            [
                Algorithm::Minimax,
                Algorithm::AlphaBeta,
                Algorithm::Reference
            ]
        );
        assert!(search.html.contains("is in CLAIMS.md."));
        // Tables as tables (GitHub's Markdown), not their pipes as text.
        assert!(
            search.html.contains("<table>"),
            "no table in the search lesson"
        );
        assert!(!search.html.contains("|---|"), "a table left as text");
        let history = render(lesson("history").unwrap());
        assert!(
            history
                .html
                .contains("href=\"#view=lessons&amp;lesson=shannon\"")
        );
    }
}
