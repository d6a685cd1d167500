//! The target machines' program files in emulators that nobody at Kempelen wrote, installed by
//! `tools/test.sh` (Debian packages `openmsx`, `cbios`, `fuse-emulator-sdl`,
//! `fuse-emulator-utils`, `opense-basic`, `xvfb`, `xdotool`, `imagemagick`; PyPI `py65`). A
//! test whose tool is missing prints `SKIPPED: <reason>` and passes.
//!
//! - `msx_cartridge_in_openmsx`: openMSX 18 with the free C-BIOS (`-machine C-BIOS_MSX1`),
//!   driven headless through `-control stdio`: `e2e4` and Return are put in the BIOS's
//!   keyboard buffer, where the cartridge's CHGET takes them, and the reply is read from the
//!   emulated screen (the VDP's name table of SCREEN 0 in VRAM).
//! - `spectrum_tape_passes_tzxlist`: `tzxlist` lists the .tap's four blocks with good checksums.
//! - `spectrum_tape_in_fuse`: Fuse (`fuse-sdl`) with the free OpenSE BASIC ROM under Xvfb:
//!   `LOAD ""` typed with xdotool, then `e2e4` and Return; the reply is read from screenshots
//!   of the emulator's window, each 8x8 cell matched against the ROM's own character set.
//! - `py65_plays_the_opening_as_the_reference`: the py65 build in `py65mon` (py65's monitor,
//!   `-i bf01 -o bf01 -r FILE`), its console piped: `d 2` and the first eight plies of the
//!   depth-2 game, the replies those of the native reference at depth 2 (move, depth, score,
//!   nodes); ignored: `py65_plays_a_game_to_mate_as_the_reference`, the whole game (74 plies,
//!   about a minute).
//!
//! The Spectrum's and the MSX's reply must be the native reference search's at the console's
//! depth (4) from the start position after 1. e4: its move, depth, score and node count.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use kempelen_engine::reference::{self, ReferenceLimits};
use kempelen_engine::{Game, MATE};
use kempelen_roms::target::Target;

/// The folder `KEMPELEN_SCREENSHOTS` names: the Fuse and openMSX tests save the emulator's
/// screen there after the console's reply (`fuse-spectrum.png`, `openmsx-msx.png`; the
/// pictures of docs/GUI.md).
fn screenshots_dir() -> Option<PathBuf> {
    std::env::var_os("KEMPELEN_SCREENSHOTS").map(PathBuf::from)
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kempelen-external-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Whether `tool` runs (`tool --version` or `-h` exits at all).
fn has(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether every one of `tools` runs; if not, prints that the test is skipped and where the
/// missing tool comes from (`packages`).
fn installed(tools: &[&str], packages: &str) -> bool {
    let missing = tools.iter().find(|t| !has(t));
    if let Some(tool) = missing {
        eprintln!("SKIPPED: {tool} is not installed ({packages})");
    }
    missing.is_none()
}

/// The target's file written into a fresh scratch folder `name`: the folder, the file and
/// the target.
fn built(id: &str, name: &str) -> (PathBuf, PathBuf, &'static Target) {
    let dir = scratch(name);
    let (path, t) = build(id, &dir);
    (dir, path, t)
}

/// The target's file written into `dir`.
fn build(id: &str, dir: &Path) -> (PathBuf, &'static Target) {
    let t = Target::by_id(id).unwrap();
    let p = t.build().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join(t.file.replace('/', "."));
    std::fs::write(&path, &p.file).unwrap();
    (path, t)
}

/// The reply line the native reference gives after 1. e4 at depth 4, as the console prints it
/// (lower case): "kempelen plays d7d5 (depth 4, score -28, 2516 nodes)".
fn expected_reply() -> String {
    let mut game = Game::default();
    game.push_uci("e2e4").unwrap();
    let r = reference::search_game(&game, ReferenceLimits::depth(4));
    let score = if r.score.abs() >= MATE - 64 {
        panic!("no mate after 1. e4")
    } else {
        format!("score {}", r.score)
    };
    format!(
        "kempelen plays {} (depth {}, {score}, {} nodes)",
        r.best.unwrap().to_uci(),
        r.depth,
        r.nodes
    )
}

/// The reply line in a screen's text (its wrapped lines joined), if the screen shows it and
/// the next prompt.
fn reply_on_screen(t: &Target, screen: &str) -> Option<String> {
    let text = t.unwrap_output(screen).to_lowercase();
    if !text.contains("move 2, white to move") {
        return None;
    }
    text.lines()
        .find(|l| l.starts_with("kempelen plays "))
        .map(|l| l.trim_end().to_string())
}

/// Whether the console refused what was typed (a key lost or doubled on the way): the test
/// then fails at once instead of waiting for a reply that cannot come.
fn refused(screen: &str) -> bool {
    screen.to_lowercase().contains("not a move or command")
}

/// Kills and reaps a child when dropped (a failed test leaves no emulator behind).
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_some() {
            return;
        }
        // SIGTERM first, so that Xvfb removes its lock file; SIGKILL after a second.
        let _ = Command::new("kill").arg(self.0.id().to_string()).status();
        for _ in 0..20 {
            if self.0.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

// --- MSX: openMSX with C-BIOS ------------------------------------------------------------

/// openMSX under `-control stdio`: XML commands in, `<reply>` elements out.
struct OpenMsx {
    child: Reaped,
    stdin: ChildStdin,
    out: BufReader<std::process::ChildStdout>,
    buf: String,
}

impl OpenMsx {
    /// openMSX with the cartridge `rom`, on the X `display` when one is given (for a
    /// screenshot), else without one.
    fn start(rom: &Path, display: Option<&str>) -> Result<OpenMsx, String> {
        let mut command = Command::new("openmsx");
        if let Some(d) = display {
            command.env("DISPLAY", d);
        }
        let mut child = command
            .args(["-machine", "C-BIOS_MSX1", "-carta"])
            .arg(rom)
            .args(["-control", "stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("openmsx could not be started: {e}"))?;
        let mut stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        stdin.write_all(b"<openmsx-control>\n").unwrap();
        Ok(OpenMsx {
            child: Reaped(child),
            stdin,
            out,
            buf: String::new(),
        })
    }

    /// Runs a Tcl command; its result, or the error openMSX reports.
    fn cmd(&mut self, c: &str) -> Result<String, String> {
        let esc = c
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        writeln!(self.stdin, "<command>{esc}</command>").map_err(|e| e.to_string())?;
        self.stdin.flush().map_err(|e| e.to_string())?;
        loop {
            if let Some(start) = self.buf.find("<reply result=\"") {
                if let Some(end) = self.buf[start..].find("</reply>") {
                    let reply = self.buf[start..start + end].to_string();
                    self.buf.drain(..start + end + "</reply>".len());
                    let ok = reply.starts_with("<reply result=\"ok\"");
                    let body = reply.split_once('>').map_or("", |(_, b)| b);
                    let body = body
                        .replace("&#x0a;", "\n")
                        .replace("&lt;", "<")
                        .replace("&gt;", ">")
                        .replace("&quot;", "\"")
                        .replace("&apos;", "'")
                        .replace("&amp;", "&");
                    return if ok { Ok(body) } else { Err(body) };
                }
            }
            let mut line = String::new();
            if self.out.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                let _ = self.child.0.wait();
                return Err(format!("openmsx ended (after `{c}`)"));
            }
            self.buf.push_str(&line);
        }
    }

    /// SCREEN 0's 24 lines of 40 characters, from the name table at VRAM 0.
    fn screen(&mut self) -> Result<String, String> {
        let hex = self.cmd("binary encode hex [debug read_block VRAM 0 960]")?;
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(b'?'))
            .collect();
        Ok(bytes
            .chunks(40)
            .map(|l| {
                let s: String = l.iter().map(|&b| char::from(b)).collect();
                s.trim_end().to_string()
            })
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// Polls the screen until `done` holds; the screen then, or an error after `limit`.
    fn wait_screen(
        &mut self,
        limit: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let start = Instant::now();
        loop {
            let s = self.screen()?;
            if done(&s) {
                return Ok(s);
            }
            if start.elapsed() > limit {
                return Err(format!("after {limit:?} the screen shows:\n{s}"));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

#[test]
fn msx_cartridge_in_openmsx() {
    if !installed(&["openmsx"], "Debian: openmsx, cbios") {
        return;
    }
    let (dir, rom, t) = built("msx", "msx");
    // With KEMPELEN_SCREENSHOTS, openMSX runs on an X display of its own, so that it can
    // draw the screen for a picture at the end.
    let shots = screenshots_dir();
    let x = shots.as_ref().and_then(|_| xvfb());
    let mut msx = match OpenMsx::start(&rom, x.as_ref().map(|(_, d)| d.as_str())) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("SKIPPED: {e}");
            return;
        }
    };
    // Without C-BIOS the machine cannot be set up: openMSX answers nothing or an error.
    if let Err(e) = msx.cmd("set renderer none") {
        eprintln!("SKIPPED: openmsx -machine C-BIOS_MSX1 did not start (cbios missing?): {e}");
        return;
    }
    msx.cmd("set throttle off").unwrap();
    msx.cmd("set power on").unwrap();
    let first = msx
        .wait_screen(Duration::from_secs(60), |s| {
            s.contains("Move 1, White to move\n>")
        })
        .unwrap_or_else(|e| panic!("the cartridge did not come up: {e}"));
    assert!(first.contains("Kempelen chess"), "{first}");
    // The keys go into the BIOS's keyboard buffer at the next interrupt (openMSX's
    // `type_via_keybuf`), where CHGET takes them, in emulated time only. openMSX's `type`
    // presses them in the key matrix instead; under a host load of 6 on 2 cores it lost or
    // doubled one of the first keys in 1 run of 15 ("ee2e4" without its Return, or "e4"),
    // never on an idle host: the start of `type` depends on the host, not the cartridge.
    msx.cmd("type_via_keybuf \"e2e4\\r\"").unwrap();
    let screen = msx
        .wait_screen(Duration::from_secs(180), |s| {
            reply_on_screen(t, s).is_some() || refused(s)
        })
        .unwrap_or_else(|e| panic!("no reply to 1. e4: {e}"));
    let reply = reply_on_screen(t, &screen)
        .unwrap_or_else(|| panic!("the console did not take the move:\n{screen}"));
    eprintln!("openMSX (C-BIOS_MSX1) screen after e2e4:\n{screen}");
    assert_eq!(reply, expected_reply(), "{screen}");
    if let (Some(shots), Some(_)) = (&shots, &x) {
        // openMSX's own picture of the MSX screen (its SDL renderer draws the frames from
        // now on; a second lets it draw some).
        msx.cmd("set renderer SDL").unwrap();
        std::thread::sleep(Duration::from_secs(2));
        let file = shots.join("openmsx-msx.png");
        msx.cmd(&format!("screenshot {}", file.display()))
            .unwrap_or_else(|e| panic!("openMSX took no screenshot: {e}"));
        eprintln!("openMSX's screen: {}", file.display());
    }
    let _ = msx.cmd("exit");
    let _ = std::fs::remove_dir_all(&dir);
}

// --- ZX Spectrum: tzxlist and Fuse ----------------------------------------------------------

#[test]
fn spectrum_tape_passes_tzxlist() {
    if !installed(&["tzxlist"], "Debian: fuse-emulator-utils") {
        return;
    }
    let (dir, tap, _) = built("zx-spectrum", "tzxlist");
    let out = Command::new("tzxlist").arg(&tap).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Program: \"kempelen  \" LINE 10"), "{text}");
    assert!(text.contains("CODE  32768,"), "{text}");
    assert_eq!(text.matches("(PASS)").count(), 4, "{text}");
    assert!(!text.contains("FAIL"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The OpenSE BASIC ROM of the Debian package `opense-basic`.
const OPENSE_ROM: &str = "/usr/share/spectrum-roms/opense.rom";

/// An X display for Fuse: Xvfb on the first free display number from :91.
fn xvfb() -> Option<(Reaped, String)> {
    for n in 91..120 {
        if Path::new(&format!("/tmp/.X{n}-lock")).exists() {
            continue;
        }
        let child = Command::new("Xvfb")
            .arg(format!(":{n}"))
            // -noreset: by default Xvfb resets itself whenever its last client leaves, and a
            // connection made during the reset fails. The readiness probe below is such a
            // client, and so is SDL 1.2, which opens the display, closes it and opens it again:
            // Fuse then gave up ("error initialising") in about 1 start of 3 on a busy host.
            .args(["-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut child = Reaped(child);
        let display = format!(":{n}");
        // Ready when a client can ask it its size (a busy host may take seconds).
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(100));
            if child.0.try_wait().ok().flatten().is_some() {
                break;
            }
            let asked = Command::new("xdotool")
                .env("DISPLAY", &display)
                .arg("getdisplaygeometry")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            if asked.is_ok_and(|s| s.success()) {
                return Some((child, display));
            }
        }
    }
    None
}

/// xdotool on `display`.
fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One key held for 80 ms (the program scans the keyboard every 20 ms), `with` held around
/// it.
fn press(display: &str, key: &str, with: Option<&str>) {
    if let Some(m) = with {
        xdotool(display, &["keydown", m]);
    }
    xdotool(display, &["keydown", key]);
    std::thread::sleep(Duration::from_millis(80));
    xdotool(display, &["keyup", key]);
    if let Some(m) = with {
        xdotool(display, &["keyup", m]);
    }
    std::thread::sleep(Duration::from_millis(120));
}

/// The Spectrum's screen in Fuse's window as text: the 256 x 192 pixels inside the border
/// (32 and 24 pixels at Fuse's normal size), each 8 x 8 cell matched against the ROM's
/// character set ($3D00, characters 32-127); a cell that matches none is `?`.
fn fuse_screen(display: &str, window: &str, font: &[u8], dir: &Path) -> String {
    let png = dir.join("screen.png");
    let shot = Command::new("import")
        .env("DISPLAY", display)
        .args(["-window", window])
        .arg(&png)
        .status()
        .expect("import runs");
    assert!(shot.success(), "import could not capture Fuse's window");
    let out = Command::new("convert")
        .arg(&png)
        .args([
            "-crop",
            "256x192+32+24",
            "+repage",
            "-colorspace",
            "Gray",
            "-depth",
            "8",
            "gray:-",
        ])
        .output()
        .expect("convert runs");
    let px = out.stdout;
    assert_eq!(
        px.len(),
        256 * 192,
        "the screenshot is not Fuse's 320 x 240 window"
    );
    let mut lines = Vec::new();
    for row in 0..24 {
        let mut line = String::new();
        for col in 0..32 {
            let cell: Vec<u8> = (0..8)
                .map(|y| {
                    (0..8).fold(0u8, |b, x| {
                        let p = px[(row * 8 + y) * 256 + col * 8 + x];
                        (b << 1) | u8::from(p < 96)
                    })
                })
                .collect();
            let c = (0..96)
                .find(|&i| font[i * 8..i * 8 + 8] == cell[..])
                .map_or('?', |i| char::from(32 + i as u8));
            line.push(c);
        }
        lines.push(line.trim_end().to_string());
    }
    lines.join("\n")
}

/// Fuse with the tape on `display`, and its window's id once the window is open.
fn fuse_window(display: &str, dir: &Path, tap: &Path) -> Result<(Reaped, String), String> {
    let fuse = Command::new("fuse-sdl")
        .env("DISPLAY", display)
        .env("HOME", dir)
        .args(["--machine", "48", "--rom-48", OPENSE_ROM, "--tape"])
        .arg(tap)
        .args([
            "--no-sound",
            "--traps",
            "--no-confirm-actions",
            "--no-autosave-settings",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("fuse-sdl could not be started: {e}"))?;
    let mut fuse = Reaped(fuse);
    for _ in 0..50 {
        std::thread::sleep(Duration::from_millis(200));
        let window = xdotool(display, &["search", "--name", "Fuse"]);
        if let Some(id) = window.lines().next().filter(|l| !l.is_empty()) {
            return Ok((fuse, id.to_string()));
        }
        if fuse.0.try_wait().ok().flatten().is_some() {
            break;
        }
    }
    // Stopped first, so that reading its error output cannot wait on a running Fuse.
    let stderr = fuse.0.stderr.take();
    drop(fuse);
    let mut err = String::new();
    if let Some(mut e) = stderr {
        let _ = e.read_to_string(&mut err);
    }
    Err(format!("Fuse opened no window: {}", err.trim()))
}

#[test]
fn spectrum_tape_in_fuse() {
    let tools = ["fuse-sdl", "Xvfb", "xdotool", "import", "convert"];
    if !installed(
        &tools,
        "Debian: fuse-emulator-sdl, xvfb, xdotool, imagemagick",
    ) {
        return;
    }
    let Ok(rom) = std::fs::read(OPENSE_ROM) else {
        eprintln!("SKIPPED: {OPENSE_ROM} is missing (Debian: opense-basic)");
        return;
    };
    let font = rom[0x3D00..0x3D00 + 96 * 8].to_vec();
    let (dir, tap, t) = built("zx-spectrum", "fuse");
    let Some((_x, display)) = xvfb() else {
        eprintln!("SKIPPED: Xvfb could not start a display");
        return;
    };
    let (fuse, window) = fuse_window(&display, &dir, &tap).unwrap_or_else(|e| panic!("{e}"));
    xdotool(&display, &["windowfocus", &window]);
    let screen = |want: &dyn Fn(&str) -> bool, limit: u64| -> String {
        let start = Instant::now();
        loop {
            let s = fuse_screen(&display, &window, &font, &dir);
            if want(&s) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(limit),
                "after {limit} s Fuse shows:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    };
    // OpenSE BASIC's start-up message, then LOAD "" typed: the keyword letter by letter, the
    // quotes with SYMBOL SHIFT (Fuse: Ctrl) and P.
    screen(&|s| s.contains("Nine Tiles"), 30);
    for k in ["l", "o", "a", "d", "space"] {
        press(&display, k, None);
    }
    press(&display, "p", Some("Control_L"));
    press(&display, "p", Some("Control_L"));
    press(&display, "Return", None);
    let first = screen(&|s| s.contains("Move 1, White to move"), 60);
    assert!(first.contains("Kempelen chess"), "{first}");
    for k in ["e", "2", "e", "4", "Return"] {
        press(&display, k, None);
    }
    let after = screen(&|s| reply_on_screen(t, s).is_some() || refused(s), 120);
    eprintln!("Fuse (48K, OpenSE BASIC) screen after e2e4:\n{after}");
    if let Some(shots) = screenshots_dir() {
        // The screenshot the screen above was read from.
        let file = shots.join("fuse-spectrum.png");
        std::fs::copy(dir.join("screen.png"), &file).unwrap();
        eprintln!("Fuse's window: {}", file.display());
    }
    assert_eq!(
        reply_on_screen(t, &after)
            .unwrap_or_else(|| panic!("the console did not take the move:\n{after}")),
        expected_reply(),
        "{after}"
    );
    drop(fuse);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The py65 build (`kempelen build --target py65`) in py65mon itself, the monitor of Mike
/// Naberezny's 6502 simulator in Python (PyPI `py65`): `py65mon -m 6502 -i bf01 -o bf01 -r
/// FILE`, the typed lines piped into its console. The player's moves are the native reference
/// search's at depth 2 and so, move for move, are the replies the build must give: each one
/// is checked against the reference (move, depth, score, nodes). `plies`: how many plies of
/// the game are played (0: to its end).
fn py65_game(plies: usize) {
    if !installed(&["py65mon"], "PyPI: py65") {
        return;
    }
    let (dir, file, _) = built("py65", &format!("py65-{plies}"));
    // The game: both sides the reference at depth 2; White's moves are typed.
    let search = |game: &Game| reference::search_game(game, ReferenceLimits::depth(2));
    let mut game = Game::default();
    let mut expected = Vec::new();
    let mut typed = String::from("d 2\n");
    while !game.status().is_over() && (plies == 0 || game.moves().len() < plies) {
        let white = search(&game).best.unwrap();
        typed.push_str(&format!("{}\n", white.to_uci()));
        game.push_uci(&white.to_uci()).unwrap();
        if game.status().is_over() {
            break;
        }
        let r = search(&game);
        let score = if r.score >= MATE - 64 {
            format!("mate in {}", (MATE - r.score + 1) / 2)
        } else if r.score <= -(MATE - 64) {
            format!("mated in {}", (MATE + r.score + 1) / 2)
        } else {
            format!("score {}", r.score)
        };
        let best = r.best.unwrap();
        expected.push(format!(
            "kempelen plays {} (depth {}, {score}, {} nodes)",
            best.to_uci(),
            r.depth,
            r.nodes
        ));
        game.push_uci(&best.to_uci()).unwrap();
    }
    // q ends the program (a BRK, where py65mon stops), quit the monitor.
    typed.push_str("q\nquit\n");
    let mut child = Command::new("py65mon")
        .args(["-m", "6502", "-i", "bf01", "-o", "bf01", "-r"])
        .arg(&file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("py65mon starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(typed.as_bytes())
        .unwrap();
    let mut child = Reaped(child);
    let mut out = String::new();
    let mut stdout = child.0.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    while child.0.try_wait().ok().flatten().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(900),
            "py65mon runs for more than 15 minutes"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    out.push_str(&reader.join().unwrap());
    let text = out.replace('\r', "").to_lowercase();
    // "kempelen plays c6e5, takes the pawn on e5 (depth 2, ...)": the move and the figures.
    let replies: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim_end().strip_prefix("kempelen plays "))
        .map(|l| {
            let (said, figures) = l.split_once(" (").unwrap_or((l, ""));
            let mv = said.split(", ").next().unwrap_or(said);
            format!("kempelen plays {mv} ({figures}")
        })
        .collect();
    assert_eq!(replies, expected, "py65mon's output:\n{out}");
    if plies == 0 {
        assert!(text.contains("checkmate"), "{out}");
    }
    assert!(text.contains("goodbye"), "{out}");
    eprintln!(
        "py65mon: {} replies as the native reference's, {:.1} s",
        replies.len(),
        start.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn py65_plays_the_opening_as_the_reference() {
    py65_game(8);
}

#[test]
#[ignore = "the whole game to mate in py65mon: one to two minutes"]
fn py65_plays_a_game_to_mate_as_the_reference() {
    py65_game(0);
}
