//! docs/GUI.md, held to what Kempelen does: the UCI session it shows by hand is run and every
//! line compared, its example of a progress line inside a long iteration is one the Z80 build
//! prints, and the console's picture in a terminal is drawn from what `kempelen play` prints
//! (written to `KEMPELEN_SCREENSHOTS/console-terminal.png` when that folder is named).

mod common;

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn guide() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("docs/GUI.md")).unwrap()
}

/// The code block of docs/GUI.md that starts with `first`.
fn block_starting(text: &str, first: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| l.trim() != first);
    assert!(
        lines.next().is_some(),
        "docs/GUI.md has no block starting `{first}`"
    );
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

/// A UCI command a GUI sends (the lines of the session that are not the engine's).
fn is_command(line: &str) -> bool {
    ["uci", "isready", "quit", "stop"].contains(&line)
        || ["position ", "go ", "setoption "]
            .iter()
            .any(|c| line.starts_with(c))
}

/// The session docs/GUI.md shows by hand, sent to `kempelen uci --cpu z80 --machine
/// zx-spectrum`: the engine answers every line the page shows, and nothing else.
#[test]
fn uci_spectrum_session_as_in_docs_gui_md() {
    let session = block_starting(&guide(), "$ kempelen uci --cpu z80 --machine zx-spectrum");
    // Without the `quit`: a GUI sends it after the `bestmove`, and the input's end waits for
    // the search as a GUI does (a `quit` read at once would stop the search).
    let input: String = session
        .iter()
        .filter(|l| is_command(l) && l.as_str() != "quit")
        .map(|l| format!("{l}\n"))
        .collect();
    let shown: Vec<&String> = session.iter().filter(|l| !is_command(l)).collect();
    let out = common::with_input(&["uci", "--cpu", "z80", "--machine", "zx-spectrum"], input);
    assert!(out.status.success());
    let printed = String::from_utf8_lossy(&out.stdout);
    let printed: Vec<&str> = printed.lines().collect();
    assert_eq!(
        printed,
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "docs/GUI.md's session against what the engine printed"
    );
}

/// The progress line docs/GUI.md quotes is one the Z80 build prints inside an iteration of
/// `go depth 5` after 1. e4 (the iteration being searched and the nodes so far, emulated
/// time): a line without a score or a line, between the lines of finished iterations, and
/// the search's nodes are those of the native reference (the reading of RAM changes none).
#[test]
fn a_long_iteration_reports_its_progress_as_in_docs_gui_md() {
    let text = guide();
    let quoted = text
        .split("(`info depth ")
        .nth(1)
        .and_then(|t| t.split('`').next())
        .map(|t| format!("info depth {t}"))
        .expect("docs/GUI.md quotes a progress line");
    let out = common::with_input(
        &["uci", "--cpu", "z80", "--machine", "zx-spectrum"],
        "position startpos moves e2e4\ngo depth 5\n",
    );
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = printed.lines().collect();
    assert!(
        lines.contains(&quoted.as_str()),
        "`{quoted}` not in:\n{printed}"
    );
    let progress: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("info depth ") && !l.contains(" pv "))
        .collect();
    assert!(progress.len() >= 3, "{printed}");
    for l in &progress {
        assert!(!l.contains("score"), "{l}");
    }
    // The last finished iteration: the native reference's nodes at depth 5.
    let game = {
        let mut g = kempelen_engine::Game::default();
        g.push_uci("e2e4").unwrap();
        g
    };
    let native = kempelen_engine::reference::search_game(
        &game,
        kempelen_engine::reference::ReferenceLimits::depth(5),
    );
    let last = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 5 ") && l.contains(" pv "))
        .expect("depth 5 finished");
    assert!(
        last.contains(&format!(" nodes {} ", native.nodes)),
        "{last}: native {}",
        native.nodes
    );
}

/// `uci --machine jupiter-3` without `--cpu` names the flag given and the CPU it needs.
#[test]
fn uci_machine_without_cpu_says_what_was_given() {
    let err = common::fails(&["uci", "--machine", "jupiter-3"]);
    assert!(
        err.contains("--machine jupiter-3 without --cpu")
            && err.contains("jupiter-3 has a Z80 CPU: add --cpu z80"),
        "{err}"
    );
    assert!(!err.contains("--realtime"), "{err}");
    let err = common::fails(&["uci", "--realtime"]);
    assert!(err.contains("--realtime without --cpu"), "{err}");
    let err = common::fails(&["uci", "--machine", "kim-1", "--realtime"]);
    assert!(
        err.contains("--machine kim-1 and --realtime without --cpu") && err.contains("--cpu 6502"),
        "{err}"
    );
}

/// `kempelen play` in a terminal, 1. e4 and the console's reply: what the console printed is
/// the page's picture of it. With `KEMPELEN_SCREENSHOTS=DIR` and ImageMagick, the text is
/// drawn in a terminal font to `DIR/console-terminal.png`.
#[test]
fn console_in_a_terminal_as_in_docs_gui_md() {
    let out = common::with_input(&["play"], "e2e4\nq\n");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.contains("Kempelen plays d7d5"), "{text}");
    assert!(guide().contains("](gui/console-terminal.png)"));
    let Some(dir) = std::env::var_os("KEMPELEN_SCREENSHOTS") else {
        return;
    };
    // The screen after the reply: from the console's greeting to its next prompt.
    let screen: String = text
        .lines()
        .take_while(|l| !l.starts_with("> Goodbye"))
        .collect::<Vec<_>>()
        .join("\n");
    let file = Path::new(&dir).join("console-terminal.png");
    let tmp = Path::new(&dir).join(".console-terminal.png.tmp");
    let drawn = std::process::Command::new("convert")
        .args([
            "-background",
            "#202020",
            "-fill",
            "#e0e0e0",
            "-font",
            "DejaVu-Sans-Mono",
            "-pointsize",
            "14",
            "-border",
            "12",
            "-bordercolor",
            "#202020",
        ])
        .arg(format!("label:{}", screen.replace('\\', "\\\\")))
        .arg(format!("png:{}", tmp.display()))
        .status();
    match drawn {
        Ok(s) if s.success() => std::fs::rename(&tmp, &file).unwrap(),
        other => {
            let _ = std::fs::remove_file(&tmp);
            panic!("convert (ImageMagick) could not draw the console: {other:?}");
        }
    }
}
