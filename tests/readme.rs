//! Every command the README documents is checked: each `kempelen` line (also as
//! `cargo run --release -- ...` or `target/release/kempelen ...`) must parse as the command line
//! takes it (`KEMPELEN_PARSE_ONLY=1` stops after parsing), every `cargo test`/`cargo bench`
//! line must name packages and test targets that exist, and every file a line runs must exist.
//!
//! Then each `kempelen` line is run ([`PLANS`] says how): those that take seconds here, and
//! where the README shows what a command prints, that is compared; the lines that need the
//! historical programs when `KEMPELEN_HISTORICAL` names them (`DIR` stands for that folder);
//! the long ones are named with the test that runs them or checks their figures.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The lines of the fenced code blocks without a language (the shell lines) of `text`.
fn shell_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<bool> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("```") {
            fence = match fence {
                None => Some(rest.is_empty()),
                Some(_) => None,
            };
            continue;
        }
        if fence == Some(true) && !t.is_empty() {
            out.push((i + 1, t.to_string()));
        }
    }
    out
}

/// Splits a shell line into words (single and double quotes, `#` comments).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c == '#' && !in_word => break,
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// The test targets of a package: the files of its `tests/` folder.
fn test_target_exists(package: Option<&str>, name: &str) -> bool {
    let dir = match package {
        None | Some("kempelen") => Path::new(ROOT).join("tests"),
        Some("kempelen-engine") => Path::new(ROOT).join("engine/tests"),
        Some("kempelen-emulator") => Path::new(ROOT).join("emulator/tests"),
        Some("kempelen-asm") => Path::new(ROOT).join("tools/asm/tests"),
        Some("kempelen-roms") => Path::new(ROOT).join("roms-src/tests"),
        Some(other) => panic!("unknown package {other}"),
    };
    dir.join(format!("{name}.rs")).exists()
}

fn check_cargo(words: &[String]) -> Result<(), String> {
    let mut package = None;
    let mut i = 2;
    while i < words.len() {
        match words[i].as_str() {
            "--" => break,
            "-p" => {
                let p = words.get(i + 1).ok_or("-p without a package")?;
                if ![
                    "kempelen",
                    "kempelen-engine",
                    "kempelen-emulator",
                    "kempelen-asm",
                    "kempelen-roms",
                ]
                .contains(&p.as_str())
                {
                    return Err(format!("no package {p}"));
                }
                package = Some(p.clone());
                i += 1;
            }
            "--test" => {
                let t = words.get(i + 1).ok_or("--test without a name")?;
                if !test_target_exists(package.as_deref(), t) {
                    return Err(format!("no test target {t} in {package:?}"));
                }
                i += 1;
            }
            "--example" => {
                let e = words.get(i + 1).ok_or("--example without a name")?;
                let found = ["roms-src/examples", "emulator/examples", "examples"]
                    .iter()
                    .any(|d| Path::new(ROOT).join(d).join(format!("{e}.rs")).exists());
                if !found {
                    return Err(format!("no example {e}"));
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// The flags of each command that name a file it writes.
fn output_flags(command: &str) -> &'static [&'static str] {
    match command {
        "asm" => &["-o", "--output", "--listing", "--symbols"],
        "bench" => &["--svg", "--save"],
        "tree" => &["--svg"],
        "tournament" => &["--pgn"],
        "claims" => &["--markdown"],
        "play" => &["--write-rom"],
        "gen-tables" => &["--out"],
        _ => &[],
    }
}

/// A documented command leaves no file in the repository root: each output is written
/// somewhere with a directory (`target/bench.svg`, `docs/CLAIMS.md`).
fn check_outputs_leave_the_root_clean(args: &[String]) -> Result<(), String> {
    let Some(command) = args.first() else {
        return Ok(());
    };
    let flags = output_flags(command);
    for pair in args.windows(2) {
        if flags.contains(&pair[0].as_str()) && !pair[1].contains('/') {
            return Err(format!(
                "{} {} writes into the repository root; write into a directory (target/...)",
                pair[0], pair[1]
            ));
        }
    }
    Ok(())
}

fn check_kempelen(args: &[String]) -> Result<(), String> {
    check_outputs_leave_the_root_clean(args)?;
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .env("KEMPELEN_PARSE_ONLY", "1")
        .current_dir(ROOT)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Checks one shell line; `Ok(false)` when it is not a command this test knows.
fn check_line(line: &str) -> Result<bool, String> {
    let mut w = words(line);
    // Leading environment assignments (`KEMPELEN_FUZZ_CASES=100000 cargo test ...`).
    while w
        .first()
        .is_some_and(|x| x.contains('=') && !x.starts_with('-'))
    {
        w.remove(0);
    }
    let Some(first) = w.first().cloned() else {
        return Ok(false);
    };
    match first.as_str() {
        "cargo" => match w.get(1).map(String::as_str) {
            Some("run") => {
                let sep = w
                    .iter()
                    .position(|x| x == "--")
                    .ok_or("cargo run without --")?;
                if w[..sep].iter().any(|x| x == "-p" || x == "--example") {
                    check_cargo(&w)?;
                    return Ok(true);
                }
                check_kempelen(&w[sep + 1..])?;
                Ok(true)
            }
            Some("test") | Some("bench") => {
                check_cargo(&w)?;
                Ok(true)
            }
            Some("build") => Ok(true),
            _ => Err(format!("unknown cargo command in {line}")),
        },
        "kempelen" | "target/release/kempelen" => {
            check_kempelen(&w[1..])?;
            Ok(true)
        }
        "python3" => {
            let script = w.get(1).ok_or("python3 without a script")?;
            if Path::new(ROOT).join(script).exists() {
                Ok(true)
            } else {
                Err(format!("{script} does not exist"))
            }
        }
        path if path.starts_with("tools/") => {
            let p = Path::new(ROOT).join(path);
            let executable = std::fs::metadata(&p)
                .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0)
                .unwrap_or(false);
            if executable {
                Ok(true)
            } else {
                Err(format!("{path} is not an executable file"))
            }
        }
        _ => Ok(false),
    }
}

#[test]
fn every_readme_command_is_valid() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, line) in shell_lines(&text) {
        match check_line(&line) {
            Ok(true) => checked += 1,
            Ok(false) => failures.push(format!(
                "README.md:{n}: not a command this test knows: {line}"
            )),
            Err(e) => failures.push(format!("README.md:{n}: {line}\n  {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 20, "only {checked} commands found");
}

#[test]
fn the_checker_catches_a_bad_command() {
    assert!(check_line("cargo run --release -- compare --no-such-flag").is_err());
    assert!(check_line("cargo run --release -- bench --cpu z80 --svg bench.svg").is_err());
    assert!(check_line("kempelen asm a.asm --cpu z80 -o a.bin").is_err());
    assert!(check_line("kempelen frobnicate").is_err());
    assert!(check_line("cargo test --test no_such_test").is_err());
    assert!(check_line("cargo test -p kempelen-asm --test historical -- --ignored").is_ok());
    assert!(check_line("tools/no-such-script.sh").is_err());
    assert_eq!(words("a 'b c' \"d\" # e"), ["a", "b c", "d"]);
    // As in a shell, `#` at the start of a word begins a comment.
    assert_eq!(words("run --org #32768"), ["run", "--org"]);
}

// ----- the README's commands, run -----

/// What a README command printed.
struct Ran {
    stdout: String,
    stderr: String,
}

/// Compares what a command printed with the README (`readme` is its text).
type Check = fn(&Ran, &str) -> Result<(), String>;

/// How a `kempelen` line of the README is checked beyond parsing.
enum How {
    /// Run here (it takes seconds), with `input` on its standard input; `check` reads what it
    /// printed.
    Run { input: &'static str, check: Check },
    /// Run here with other arguments (`args`, split at spaces): the files it reads are made by
    /// long runs, and the repository holds the same files.
    RunAs {
        args: &'static str,
        why: &'static str,
        check: Check,
    },
    /// Needs the historical programs: run here when `KEMPELEN_HISTORICAL` names them (`DIR`
    /// in the line stands for that folder).
    Historical { input: &'static str, check: Check },
    /// Not run here: it takes minutes or hours, or it rewrites a committed file. Says which
    /// test runs it (or the same on fewer games or positions) and checks its figures.
    Elsewhere(&'static str),
}

/// Every `kempelen` line of the README (the words after `cargo run --release --`, `#`
/// comments left out) and how it is checked. A line of the README missing here, or a line
/// here missing from the README, fails [`every_readme_command_runs`].
const PLANS: &[(&str, How)] = &[
    (
        "compare",
        How::Elsewhere(
            "minutes (every bundled position on both builds): tests/port_cli.rs runs compare on its own positions; roms-src/tests/differential.rs holds both builds to the native engine node for node",
        ),
    ),
    (
        "play",
        How::Run {
            input: "q\n",
            check: says_goodbye,
        },
    ),
    (
        "play --machine trs-80 --realtime",
        How::Run {
            input: "q\n",
            check: says_goodbye,
        },
    ),
    (
        "play --cpu 6502 --machine apple-2 --realtime",
        How::Run {
            input: "q\n",
            check: says_goodbye,
        },
    ),
    (
        "uci --cpu 6502 --machine c64",
        How::Run {
            input: "uci\nisready\nposition startpos moves e2e4\ngo depth 2\n",
            check: answers_uci,
        },
    ),
    (
        "build --target zx-spectrum -o target/kempelen.tap",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "run target/kempelen.tap --machine zx-spectrum",
        How::Run {
            input: "q\n",
            check: says_goodbye,
        },
    ),
    (
        "compare --cpu z80,6502 --depth 4",
        How::Elsewhere("minutes: as `compare` above, at its default depth"),
    ),
    (
        "compare --suite tests/data/suite.epd --full --json",
        How::Elsewhere("minutes: as `compare` above; tests/port_cli.rs checks the JSON of compare"),
    ),
    (
        "search --depth 6 --cpu 6502 --machine kim-1 --moves e2e4",
        How::Run {
            input: "",
            check: prints_bestmove,
        },
    ),
    (
        "bench --cpu z80,6502",
        How::Elsewhere(
            "about 11 minutes (17 beside another build): the ignored readme_bench_tables_are_what_bench_prints runs it with --json and compares every figure of the README's two bench tables (and its sentence on the builds' speed); readme_bench_figures_agree_with_the_roms_and_the_clocks checks the engine ROMs and the tables' derived columns without it; tests/engine_cli.rs checks bench on fewer positions",
        ),
    ),
    (
        "bench --cpu z80 --svg target/bench.svg",
        How::Elsewhere(
            "minutes: as `bench --cpu z80,6502`; tests/engine_cli.rs checks bench on fewer positions",
        ),
    ),
    (
        "bench --program adaptors/sargon-jupiter3.toml --level 1",
        How::Historical {
            input: "",
            check: program_bench_as_in_readme,
        },
    ),
    (
        "bench --program adaptors/sargon-jupiter3.toml --program adaptors/microchess-kim1.toml --program adaptors/microchess-rictor.toml --save docs/history/program-speed.json",
        How::Elsewhere(
            "rewrites docs/history/program-speed.json: readme_program_speed_table_is_the_saved_file compares the README with that file; the line above measures the same programs",
        ),
    ),
    (
        "search --profile microchess --depth 1 --moves e2e4 c7c5",
        How::Run {
            input: "",
            check: prints_bestmove,
        },
    ),
    (
        "search --profile sargon --depth 3 --moves e2e4 e7e5 g1f3 b8c6",
        How::Run {
            input: "",
            check: searched_to_depth_3,
        },
    ),
    (
        "uci",
        How::Run {
            input: "setoption name Profile value tartan\nposition startpos\ngo depth 3\n",
            check: prints_bestmove,
        },
    ),
    (
        "tournament reference turing shannon tartan microchess sargon salomon nimzo micromax --nodes 5000 --games 20",
        How::Elsewhere(
            "minutes: round_robin_pairings_as_in_the_readme plays some of its pairings and compares them; readme_round_robin_is_what_the_tournament_prints (ignored) plays it all",
        ),
    ),
    (
        "tournament full xboard:fairymax --tc 10+0.1 --games 100 --pgn target/match.pgn",
        How::Elsewhere(
            "about 35 minutes of clocks: tests/tournament.rs plays Fairymax over xboard",
        ),
    ),
    (
        "tournament z80:Machine=jupiter-3 6502:Machine=kim-1 --clock emulated --tc 40/7200 --games 2 --pgn target/8bit.pgn",
        How::Elsewhere(
            "minutes: tests/tournament.rs emulated_clocks_make_a_match_reproducible_move_for_move plays the same on a shorter clock",
        ),
    ),
    (
        "ratings target/8bit.pgn target/match.pgn",
        How::Elsewhere(
            "reads the PGN of the two tournaments above; the championship's `ratings` line is run here",
        ),
    ),
    (
        "claims --quick",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "claims --only null-move --json",
        How::Elsewhere(
            "minutes: the full claims run writes docs/CLAIMS.md; tests/claims_quick.rs holds the page to the quick rows, readme_claims_table_is_docs_claims_md the README to the page",
        ),
    ),
    (
        "tree",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "tree --algorithm minimax --svg target/minimax.svg",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "debug --program adaptors/minisearch-z80.toml --break sr_cut --stops 3",
        How::Run {
            input: "",
            check: prints_stops,
        },
    ),
    (
        "debug --program adaptors/minisearch-6502.toml --lesson 2 --json",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "tree --program adaptors/minisearch-6502.toml --depth 2 --beside-profile --svg target/minisearch-tree.svg",
        How::Run {
            input: "",
            check: trees_agree,
        },
    ),
    (
        "tree --view to-move",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "debug --program adaptors/sargon-book-jupiter3.toml --lesson 3",
        How::Historical {
            input: "",
            check: prints_stops,
        },
    ),
    (
        "tree --program adaptors/sargon-book-jupiter3.toml --fen \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\" --depth 2 --beside-profile",
        How::Historical {
            input: "",
            check: trees_agree,
        },
    ),
    (
        "debug --program adaptors/microchess-kim1.toml --fen \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\" --break GENRM --stops 2",
        How::Historical {
            input: "",
            check: prints_stops,
        },
    ),
    (
        "machines",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "uci --program adaptors/sargon-jupiter3.toml",
        How::Historical {
            input: "uci\nisready\n",
            check: answers_uci,
        },
    ),
    (
        "tournament z80=z80:Machine=jupiter-3 sargon=program:adaptors/sargon-jupiter3.toml --clock emulated --tc 40/7200 --games 20 --event \"Kempelen championship\" --pgn target/z80-sargon.pgn",
        How::Elsewhere(CHAMPIONSHIP),
    ),
    (
        "tournament 6502=6502:Machine=kim-1 microchess=program:adaptors/microchess-kim1.toml --clock emulated --tc 40/7200 --games 20 --event \"Kempelen championship\" --pgn target/6502-microchess.pgn",
        How::Elsewhere(CHAMPIONSHIP),
    ),
    (
        "tournament sargon=program:adaptors/sargon-jupiter3.toml microchess=program:adaptors/microchess-kim1.toml --clock emulated --tc 40/7200 --games 20 --event \"Kempelen championship\" --pgn target/sargon-microchess.pgn",
        How::Elsewhere(CHAMPIONSHIP),
    ),
    (
        "ratings target/z80-sargon.pgn target/6502-microchess.pgn target/sargon-microchess.pgn",
        How::RunAs {
            args: "ratings docs/championship/z80-sargon.pgn docs/championship/6502-microchess.pgn docs/championship/sargon-microchess.pgn",
            why: "the games of the three lines above, as committed",
            check: championship_as_in_readme,
        },
    ),
    (
        "asm roms-src/z80/console.asm --cpu z80 -o target/console.bin --symbols target/console.sym",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "disasm target/console.bin --cpu z80 --symbols target/console.sym",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "asm DIR/microchess_drictor.asm --cpu 65c02 --ignore-case -o target/microchess.bin",
        How::Historical {
            input: "",
            check: succeeded,
        },
    ),
    (
        "asm DIR/sargon-z80.asm --cpu z80 --overlap later-wins -o target/sargon.bin",
        How::Historical {
            input: "",
            check: succeeded,
        },
    ),
    (
        "asm DIR/sargon2.asm --cpu z80 --dialect tdl --paren-closes-bracket --overlap later-wins -o target/sargon.bin --listing target/sargon.lst --symbols target/sargon.sym",
        How::Historical {
            input: "",
            check: succeeded,
        },
    ),
    (
        "uci --program adaptors/sargon-book-jupiter3.toml",
        How::Historical {
            input: "uci\nisready\n",
            check: answers_uci,
        },
    ),
    (
        "run target/console.bin --cpu z80 --symbols target/console.sym --input e2e4\\nq\\n --cycle-profile",
        How::Run {
            input: "",
            check: says_goodbye,
        },
    ),
    (
        "build --target trs-80 -o target/KEMPELEN.CMD --symbols target/kempelen-trs80.sym",
        How::Run {
            input: "",
            check: succeeded,
        },
    ),
    (
        "run target/KEMPELEN.CMD --machine trs-80 --symbols target/kempelen-trs80.sym --input e2e4\\nq\\n --cycle-profile",
        How::Run {
            input: "",
            check: says_goodbye,
        },
    ),
];

const CHAMPIONSHIP: &str = "hours (20 games at 40 moves in two hours of emulated time): the games are in docs/championship/, and the `ratings` line below is run on them here";

/// The `kempelen` arguments of a README line (after `cargo run ... --` or `kempelen`), or
/// `None` for another kind of line. `DIR` stays as written.
fn kempelen_args(line: &str) -> Option<Vec<String>> {
    let mut w = words(line);
    while w
        .first()
        .is_some_and(|x| x.contains('=') && !x.starts_with('-'))
    {
        w.remove(0);
    }
    match w.first().map(String::as_str) {
        Some("cargo") if w.get(1).map(String::as_str) == Some("run") => {
            if w.iter().any(|x| x == "-p" || x == "--example") {
                return None;
            }
            let sep = w.iter().position(|x| x == "--")?;
            Some(w[sep + 1..].to_vec())
        }
        Some("kempelen") | Some("target/release/kempelen") => Some(w[1..].to_vec()),
        _ => None,
    }
}

/// A plan's key as the README's words give it: the words joined by spaces, a word with a
/// space in quotes.
fn key_of(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.contains(' ') {
                format!("\"{a}\"")
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `kempelen args` in the repository root with `input` on its standard input, within
/// `limit` (past it the process is killed and the run fails).
fn run_kempelen(args: &[String], input: &str, limit: Duration) -> Result<Ran, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    {
        use std::io::Write;
        // A program that ends before reading all of its input closes the pipe: no error.
        let mut stdin = child.stdin.take().expect("piped");
        let _ = stdin.write_all(input.as_bytes());
    }
    let read = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut text);
            }
            text
        })
    };
    let out = read(child.stdout.take().map(|r| Box::new(r) as _));
    let err = read(child.stderr.take().map(|r| Box::new(r) as _));
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {limit:?}; killed"));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let ran = Ran {
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    if status.success() {
        Ok(ran)
    } else {
        Err(format!("{status}: {}", ran.stderr))
    }
}

/// Runs every README line a plan says to run here, in the README's order (a later line may
/// read what an earlier one wrote), and checks what it printed.
#[test]
fn every_readme_command_runs() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let historical = std::env::var("KEMPELEN_HISTORICAL").ok();
    if historical.is_none() {
        eprintln!(
            "SKIPPED: the README lines with DIR (set KEMPELEN_HISTORICAL to the folder with the historical programs)"
        );
    }
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let limit = Duration::from_secs(600);
    for (n, line) in shell_lines(&text) {
        let Some(args) = kempelen_args(&line) else {
            continue;
        };
        let key = key_of(&args);
        let Some((_, how)) = PLANS.iter().find(|(k, _)| *k == key) else {
            failures.push(format!(
                "README.md:{n}: {key}\n  say in PLANS (tests/readme.rs) how this command is run and checked"
            ));
            continue;
        };
        seen.push(key.clone());
        let (args, input, check): (Vec<String>, &str, Check) = match how {
            How::Run { input, check } => (args, input, *check),
            How::RunAs { args, why, check } => {
                eprintln!("README.md:{n}: run as `{args}`: {why}");
                (args.split(' ').map(str::to_string).collect(), "", *check)
            }
            How::Historical { input, check } => match &historical {
                Some(dir) => (
                    args.iter()
                        .map(|a| a.replace("DIR/", &format!("{dir}/")))
                        .collect(),
                    input,
                    *check,
                ),
                None => continue,
            },
            How::Elsewhere(why) => {
                eprintln!("README.md:{n}: not run here: {key}\n  {why}");
                continue;
            }
        };
        let started = Instant::now();
        let result = run_kempelen(&args, input, limit).and_then(|ran| check(&ran, &text));
        eprintln!(
            "README.md:{n}: {:.1} s: {key}",
            started.elapsed().as_secs_f64()
        );
        if let Err(e) = result {
            failures.push(format!("README.md:{n}: {key}\n  {e}"));
        }
    }
    for (key, _) in PLANS {
        if !seen.iter().any(|s| s == key) {
            failures.push(format!(
                "PLANS names a line the README no longer has: {key}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `kempelen debug`: stops with a source line and the registers.
fn prints_stops(ran: &Ran, _: &str) -> Result<(), String> {
    if ran.stdout.contains("stop 1:") && ran.stdout.contains("registers: PC=") {
        Ok(())
    } else {
        Err(format!("no stop printed:\n{}", ran.stdout))
    }
}

/// `kempelen tree --program --beside-profile`: every node of the program's tree is its
/// profile's, in the same order with the same value.
fn trees_agree(ran: &Ran, _: &str) -> Result<(), String> {
    let first = ran.stdout.lines().next().unwrap_or("");
    let w: Vec<&str> = first.split(' ').collect();
    match w.as_slice() {
        [a, "of", "the", "program's", b, ..] if a == b => Ok(()),
        _ => Err(format!("the trees differ: {first}")),
    }
}

fn succeeded(_: &Ran, _: &str) -> Result<(), String> {
    Ok(())
}

fn holds(ran: &Ran, part: &str) -> Result<(), String> {
    if ran.stdout.contains(part) {
        Ok(())
    } else {
        Err(format!("no `{part}` in what it printed:\n{}", ran.stdout))
    }
}

/// The console's last word after `q` (the front end of the 8-bit build ends the game).
fn says_goodbye(ran: &Ran, _: &str) -> Result<(), String> {
    if ran.stdout.to_ascii_lowercase().contains("goodbye") {
        Ok(())
    } else {
        Err(format!(
            "the console did not end with Goodbye:\n{}",
            ran.stdout
        ))
    }
}

fn answers_uci(ran: &Ran, _: &str) -> Result<(), String> {
    holds(ran, "uciok")?;
    holds(ran, "readyok")
}

fn prints_bestmove(ran: &Ran, _: &str) -> Result<(), String> {
    holds(ran, "bestmove ")?;
    if ran.stdout.contains("bestmove 0000") {
        return Err(format!("no move:\n{}", ran.stdout));
    }
    Ok(())
}

/// Sargon's search outside its book: depth 3 and nodes counted (its book move would be
/// depth 1 without a node).
fn searched_to_depth_3(ran: &Ran, readme: &str) -> Result<(), String> {
    prints_bestmove(ran, readme)?;
    let last = ran
        .stdout
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_default();
    if last.contains("depth 3") && !last.contains(" nodes 0 ") {
        Ok(())
    } else {
        Err(format!("not a search to depth 3: {last}"))
    }
}

// ----- the README's tables -----

/// The rows of the Markdown table that starts at `lines[0]` (the header row included, the
/// `|---|` row left out), each cell trimmed.
fn table_rows(lines: &[&str]) -> Vec<Vec<String>> {
    lines
        .iter()
        .take_while(|l| l.trim_start().starts_with('|'))
        .filter(|l| !l.contains("|---"))
        .map(|l| {
            let t = l.trim().trim_start_matches('|').trim_end_matches('|');
            t.split('|').map(|c| c.trim().to_string()).collect()
        })
        .collect()
}

/// The table whose header row holds `marker` (the header row included); empty if none has.
fn table_with_header(text: &str, marker: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    match lines
        .iter()
        .position(|l| l.trim_start().starts_with('|') && l.contains(marker))
    {
        Some(at) => table_rows(&lines[at..]),
        None => Vec::new(),
    }
}

/// `a` and `b` name the same figures: the same words, numbers compared as numbers (`46.2 %`
/// and `46.2%`, `+552` and `552`, `100 %` and `100.0%` agree).
fn same_figures(a: &str, b: &str) -> bool {
    fn tokens(s: &str) -> Vec<String> {
        let s = s.replace('%', " % ").replace(',', "");
        s.split_whitespace()
            .map(|t| match t.trim_start_matches('+').parse::<f64>() {
                Ok(v) => format!("{v}"),
                Err(_) => t.to_string(),
            })
            .collect()
    }
    tokens(a) == tokens(b)
}

/// The README's championship tables against `kempelen ratings` on the committed games: the
/// standings (rank, points, games, score, Elo) and each pairing (won, drawn, lost, the Elo
/// difference, and each player's emulated time a move, mean and longest, from the games'
/// `[%emt]` comments).
fn championship_as_in_readme(ran: &Ran, readme: &str) -> Result<(), String> {
    let players = [
        ("Kempelen's 6502 build", "6502"),
        ("Kempelen's Z80 build", "z80"),
        ("Sargon (1978)", "sargon"),
        ("Microchess (1976)", "microchess"),
        ("Z80 build", "z80"),
        ("6502 build", "6502"),
        ("Sargon", "sargon"),
        ("Microchess", "microchess"),
    ];
    let id = |name: &str| {
        players
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, id)| *id)
            .ok_or_else(|| format!("a player the test does not know: {name}"))
    };
    let mut errors = Vec::new();
    let standings = table_with_header(readme, "| # | player | machine, clock | points |");
    if standings.len() != 5 {
        return Err(format!("the standings table has {} rows", standings.len()));
    }
    for row in &standings[1..] {
        let who = id(&row[1])?;
        // `  1  6502  - . . 20:0  20  20  100.0%  unbounded (won all)`
        let line = ran
            .stdout
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(who))
            .ok_or_else(|| format!("ratings printed no row for {who}"))?;
        let f: Vec<&str> = line.split_whitespace().collect();
        let n = 2 + standings.len() - 1;
        let printed = format!(
            "{} {} {} {} {}",
            f[0],
            f[n],
            f[n + 1],
            f[n + 2],
            f[n + 3..].join(" ")
        );
        let readme_row = format!("{} {} {} {} {}", row[0], row[3], row[4], row[5], row[6]);
        if !same_figures(&printed, &readme_row) {
            errors.push(format!("README: {readme_row}\n  ratings: {printed}"));
        }
    }
    let pairings = table_with_header(readme, "| pairing | won, drawn, lost |");
    if pairings.len() != 4 {
        return Err(format!("the pairings table has {} rows", pairings.len()));
    }
    for row in &pairings[1..] {
        let (a, b) = row[0]
            .split_once(" - ")
            .ok_or_else(|| format!("pairing `{}`", row[0]))?;
        let (a, b) = (id(a)?, id(b)?);
        let line = ran
            .stdout
            .lines()
            .find(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.len() > 3 && w[0] == a && w[1] == "vs" && w[2] == b
            })
            .ok_or_else(|| format!("ratings printed no pairing {a} vs {b}"))?;
        let w: Vec<&str> = line.split_whitespace().collect();
        let score = w[3..6].join(" ");
        let elo = line
            .split("Elo ")
            .nth(1)
            .unwrap_or_default()
            .replace("(95 %: ", "(")
            .replace(" (95 %)", "");
        if score != row[1] || !same_figures(&elo, &row[2]) {
            errors.push(format!(
                "README: {} {} {}\n  ratings: {score} {elo}",
                row[0], row[1], row[2]
            ));
        }
        let file = format!("{ROOT}/docs/championship/{a}-{b}.pgn");
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let times = |p: &str| {
            let t = emulated_times(&text, p);
            let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
            let longest = t.iter().cloned().fold(0.0, f64::max);
            format!("{mean:.0} s, {longest:.0} s")
        };
        let computed = format!("{}; {}", times(a), times(b));
        if computed != row[3] {
            errors.push(format!(
                "README: {} time a move {}\n  the games: {computed}",
                row[0], row[3]
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// The emulated seconds of each move `player` searched in the PGN `text` (`[%emt H:MM:SS.mmm]`
/// after the move), over all games.
fn emulated_times(text: &str, player: &str) -> Vec<f64> {
    let mut out = Vec::new();
    for game in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            game.lines()
                .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
                .map(|v| v.trim_end_matches("\"]").to_string())
        };
        let white = tag("White").as_deref() == Some(player);
        let black = tag("Black").as_deref() == Some(player);
        let movetext: String = game
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        // The side of the last move: a move number `N.` goes before White's move, `N...`
        // before Black's; a move without a number is the other side's.
        let mut white_moved = false;
        let mut next_white = true;
        let mut rest = movetext.as_str();
        while !rest.is_empty() {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix('{') {
                let end = after.find('}').unwrap_or(after.len());
                let comment = &after[..end];
                if let Some(t) = comment.split("[%emt ").nth(1) {
                    let t = t.split(']').next().unwrap_or_default();
                    let secs = t
                        .split(':')
                        .fold(0.0, |acc, p| acc * 60.0 + p.parse::<f64>().unwrap_or(0.0));
                    if (white_moved && white) || (!white_moved && black) {
                        out.push(secs);
                    }
                }
                rest = after.get(end + 1..).unwrap_or_default();
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if token.is_empty() {
                continue;
            }
            if let Some(number) = token.strip_suffix("...") {
                if number.parse::<u32>().is_ok() {
                    next_white = false;
                    continue;
                }
            }
            if let Some(number) = token.strip_suffix('.') {
                if number.parse::<u32>().is_ok() {
                    next_white = true;
                    continue;
                }
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            white_moved = next_white;
            next_white = !next_white;
        }
    }
    out
}

/// `bench --program adaptors/sargon-jupiter3.toml --level 1` prints the positions per
/// second of the README's table at look-ahead 1.
fn program_bench_as_in_readme(ran: &Ran, readme: &str) -> Result<(), String> {
    let table = table_with_header(readme, "| program (`kempelen bench --program`");
    let row = table
        .iter()
        .find(|r| r.len() > 3 && r[2] == "look-ahead 1")
        .ok_or("no look-ahead 1 row in the program table")?;
    let figure = &row[3];
    if ran.stdout.contains(&format!(" {figure}")) {
        Ok(())
    } else {
        Err(format!(
            "the README gives {figure} positions/s at look-ahead 1; bench printed:\n{}",
            ran.stdout
        ))
    }
}

// ----- the round robin of the historical profiles -----

/// The README's round robin, as it names it.
const ROUND_ROBIN: &str = "tournament reference turing shannon tartan microchess sargon salomon nimzo micromax --nodes 5000 --games 20";

/// The printed table of docs/TOURNAMENT.md's section on the historical profiles: the text
/// block after the command.
fn tournament_md_round_robin() -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/TOURNAMENT.md")).unwrap();
    let section = text
        .split("## The historical profiles")
        .nth(1)
        .expect("docs/TOURNAMENT.md has a section on the historical profiles");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a text block with the printed table");
    block.to_string()
}

/// Each pairing line of a tournament's output (`  reference   vs  turing  +19 =0 -1 ...`),
/// by its two players.
fn pairing_lines(text: &str) -> Vec<((String, String), String)> {
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() > 4 && w[1] == "vs")
                .then(|| ((w[0].to_string(), w[2].to_string()), l.trim().to_string()))
        })
        .collect()
}

/// The README's standings of the round robin (rank, profile, points, score, Elo) against
/// the crosstable `printed`.
fn readme_round_robin_matches(readme: &str, printed: &str) -> Result<(), String> {
    let table = table_with_header(readme, "| # | profile | points of 160 |");
    if table.len() != 10 {
        return Err(format!("the README's round robin has {} rows", table.len()));
    }
    let mut errors = Vec::new();
    for row in &table[1..] {
        let line = printed
            .lines()
            .find(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.len() > 2 && w[0] == row[0] && w[1] == row[1]
            })
            .ok_or_else(|| format!("no row {} {} in:\n{printed}", row[0], row[1]))?;
        let w: Vec<&str> = line.split_whitespace().collect();
        // rank, name, nine cells, points, games, score, Elo.
        let printed_row = format!(
            "{} {} {} {} {}",
            w[0],
            w[1],
            w[11],
            w[13],
            w[14..].join(" ")
        );
        let readme_row = format!("{} {} {} {} {}", row[0], row[1], row[2], row[3], row[4]);
        if !same_figures(&printed_row, &readme_row) {
            errors.push(format!("README: {readme_row}\n  printed: {printed_row}"));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// Some pairings of the README's round robin, played here as a round robin of their own
/// (each pairing's games depend only on its two players and their order: opening k / 2 and
/// colours by k's parity, fixed node limits), give the pairing lines docs/TOURNAMENT.md
/// prints for them; the README's standings are those of docs/TOURNAMENT.md's crosstable.
/// The whole round robin: [`readme_round_robin_is_what_the_tournament_prints`].
#[test]
fn round_robin_pairings_as_in_the_readme() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let documented = tournament_md_round_robin();
    readme_round_robin_matches(&readme, &documented).unwrap();
    // In the order of the README's players, so that each pairing's first player is the same;
    // profiles that play 5,000 nodes in milliseconds (Sargon's replays of the game's earlier
    // searches take about a minute a pairing: the ignored test plays them).
    let players = ["reference", "turing", "tartan", "microchess"];
    let mut args: Vec<String> = vec!["tournament".into()];
    args.extend(players.iter().map(|p| p.to_string()));
    for a in ["--nodes", "5000", "--games", "20", "--concurrency", "2"] {
        args.push(a.into());
    }
    let ran = run_kempelen(&args, "", Duration::from_secs(1800)).unwrap();
    let documented = pairing_lines(&documented);
    let played = pairing_lines(&ran.stdout);
    assert_eq!(played.len(), 6, "{}", ran.stdout);
    for (pair, line) in &played {
        let doc = documented
            .iter()
            .find(|(p, _)| p == pair)
            .unwrap_or_else(|| panic!("docs/TOURNAMENT.md has no pairing {pair:?}"));
        assert_eq!(
            &doc.1, line,
            "docs/TOURNAMENT.md's pairing against what the games give"
        );
    }
}

/// The README's round robin command prints docs/TOURNAMENT.md's table, line for line, and the
/// README's standings (720 games: about 9 minutes on two shared cores; `--concurrency 2`
/// added, which plays two games at once and changes no game).
#[test]
#[ignore = "the whole round robin: 720 games, minutes"]
fn readme_round_robin_is_what_the_tournament_prints() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let mut args: Vec<String> = ROUND_ROBIN.split(' ').map(str::to_string).collect();
    args.extend(["--concurrency".to_string(), "2".to_string()]);
    let started = Instant::now();
    let ran = run_kempelen(&args, "", Duration::from_secs(4 * 3600)).unwrap();
    eprintln!("{:.0} s:\n{}", started.elapsed().as_secs_f64(), ran.stdout);
    let documented = tournament_md_round_robin();
    let printed: Vec<&str> = ran.stdout.lines().map(str::trim_end).collect();
    for line in documented.lines().map(str::trim_end) {
        assert!(
            printed.contains(&line),
            "docs/TOURNAMENT.md: `{line}` is not what the tournament printed:\n{}",
            ran.stdout
        );
    }
    readme_round_robin_matches(&readme, &ran.stdout).unwrap();
}

/// The Rust the README says Kempelen needs is the workspace's `rust-version` and edition.
#[test]
fn readme_names_the_rust_the_workspace_needs() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let cargo = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let field = |name: &str| {
        cargo
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name} = \"")))
            .map(|v| v.trim_end_matches('"').to_string())
            .unwrap_or_else(|| panic!("Cargo.toml has no {name}"))
    };
    let (version, edition) = (field("rust-version"), field("edition"));
    assert!(
        readme.contains(&format!(
            "Rust: {version} or newer (the workspace is edition {edition}"
        )),
        "the README should say Rust {version}, edition {edition}"
    );
    assert_eq!(field("license"), "MIT");
    let license = std::fs::read_to_string(Path::new(ROOT).join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License") && license.contains("the Kempelen authors"));
}

// ----- the README's bench tables -----

/// The numbers of a README cell as written, in order (`1,613 / 2,140 bytes` gives `1,613` and
/// `2,140`, `(381` gives `381`); words that are not numbers (`48K`, `KIM-1`, `...`) left out.
fn numbers(cell: &str) -> Vec<String> {
    cell.split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ':' | ';')))
        .filter(|w| w.replace(',', "").parse::<f64>().is_ok())
        .map(str::to_string)
        .collect()
}

/// The number of a cell before `word` (`3.5` in `381 at its 3.5 MHz CPU clock`).
fn number_before(cell: &str, word: &str) -> Option<String> {
    let words: Vec<&str> = cell.split_whitespace().collect();
    let at = words.iter().position(|w| *w == word)?;
    numbers(words[..at].last()?).pop()
}

/// A README figure's value and its number of decimals (`3,981.8`: 3981.8 and 1).
fn figure(text: &str) -> (f64, usize) {
    let t = text.replace(',', "");
    let decimals = t.split_once('.').map_or(0, |(_, d)| d.len());
    (t.parse().unwrap_or(f64::NAN), decimals)
}

/// `value` rounded as the README rounds `readme` is the README's figure.
fn at_readme_rounding(readme: &str, value: f64) -> bool {
    let (v, decimals) = figure(readme);
    format!("{value:.decimals$}").parse::<f64>() == Ok(v)
}

/// The values a README figure stands for: its value give or take half its last digit.
fn span(readme: &str) -> (f64, f64) {
    let (v, decimals) = figure(readme);
    let half = 0.5 / 10f64.powi(decimals as i32);
    (v - half, v + half)
}

/// The README's figure `readme` can be a value of `lo..=hi`.
fn within(readme: &str, (lo, hi): (f64, f64)) -> bool {
    let (a, b) = span(readme);
    a <= hi && lo <= b
}

/// A machine of the README's table of machines (`| machine (model) | ...`): its name, its
/// timing model (none for the machines of the last row, whose CPU clock is the machine), and
/// its figures as written: nodes/s as it ran, at the CPU clock alone (`the same`), share.
struct MachineRow {
    name: String,
    model: Option<String>,
    as_ran: String,
    cpu: String,
    share: String,
}

impl MachineRow {
    /// The nodes/s at the CPU clock alone as written (`the same`: the figure as it ran).
    fn cpu_figure(&self) -> &str {
        if self.cpu == "the same" {
            &self.as_ran
        } else {
            &self.cpu
        }
    }
}

/// The README's table of machines, the last row's list (`TRS-80, Jupiter III, ...` beside
/// `193.2, 217.8, ...`) one row a machine, the `...` left out.
fn machine_table(readme: &str) -> Result<Vec<MachineRow>, String> {
    let table = table_with_header(readme, "| machine (model) |");
    let header = [
        "machine (model)",
        "nodes/s as it ran",
        "at the CPU clock alone",
        "share",
    ];
    if table.first().map(Vec::as_slice) != Some(&header.map(String::from)[..]) {
        return Err(format!(
            "the README's table of machines should have the columns {header:?}: {:?}",
            table.first()
        ));
    }
    let mut rows = Vec::new();
    for r in &table[1..] {
        if r.len() != 4 {
            return Err(format!("a row of the table of machines: {r:?}"));
        }
        let row = |name: &str, model: Option<&str>, as_ran: &str| MachineRow {
            name: name.to_string(),
            model: model.map(str::to_string),
            as_ran: as_ran.to_string(),
            cpu: r[2].clone(),
            share: r[3].clone(),
        };
        if let Some((name, rest)) = r[0].split_once(" (`") {
            let model = rest.split('`').next().unwrap_or_default();
            rows.push(row(name, Some(model), &r[1]));
        } else {
            let names: Vec<&str> = r[0]
                .split(" (")
                .next()
                .unwrap_or_default()
                .split(", ")
                .collect();
            let figures: Vec<&str> = r[1].split(", ").take_while(|f| *f != "...").collect();
            if figures.is_empty() || figures.len() > names.len() {
                return Err(format!(
                    "the machines {names:?} and their figures {figures:?}"
                ));
            }
            for (name, f) in names.iter().zip(figures) {
                rows.push(row(name, None, f));
            }
        }
    }
    Ok(rows)
}

/// A text field of a JSON row (empty if none).
fn text_of<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_default()
}

/// A number field of a JSON row (NaN if none, which no README figure matches).
fn number_of(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or(f64::NAN)
}

/// The clock (one of `clocks`, rows as `bench --json` prints them in `clocks`: `machine`,
/// `name`, `mhz`, `timing`, and here `cpu`) of the README's machine `name` under `model`:
/// with a model, the clock measured under `<machine>/<model>` (of several, the one whose name
/// holds the README's name before its comma: `MSX, PAL`); without, the one whose name holds
/// the README's name (`KIM-1`).
fn clock_of<'a>(
    clocks: &'a [serde_json::Value],
    name: &str,
    model: Option<&str>,
) -> Result<&'a serde_json::Value, String> {
    let short = name.split(", ").next().unwrap_or(name);
    let named = |c: &&serde_json::Value| text_of(c, "name").contains(short);
    let found: Vec<&serde_json::Value> = match model {
        Some(m) => {
            let modelled: Vec<_> = clocks
                .iter()
                .filter(|c| text_of(c, "timing").split_once('/').map(|t| t.1) == Some(m))
                .collect();
            if modelled.len() > 1 {
                modelled.into_iter().filter(named).collect()
            } else {
                modelled
            }
        }
        None => clocks.iter().filter(named).collect(),
    };
    match found.as_slice() {
        [c] => Ok(c),
        _ => Err(format!(
            "the README's machine {name} (model {model:?}) names {} of the builds' machines, not one: {:?}",
            found.len(),
            found
                .iter()
                .map(|c| text_of(c, "machine"))
                .collect::<Vec<_>>()
        )),
    }
}

/// The clock of the README's machine `name`, its model taken from the table of machines when
/// a row has that name (`ZX Spectrum 48K` is `48k`).
fn clock_named<'a>(
    clocks: &'a [serde_json::Value],
    machines: &[MachineRow],
    name: &str,
) -> Result<&'a serde_json::Value, String> {
    let model = machines
        .iter()
        .find(|m| m.name == name)
        .and_then(|m| m.model.as_deref());
    clock_of(clocks, name, model)
}

/// Every clock with a timing model has a row of the table of machines (the machine ids of
/// its rows: `named`): one line for each that has none.
fn every_model_in_the_table(clocks: &[serde_json::Value], named: &[&str]) -> Vec<String> {
    clocks
        .iter()
        .filter_map(|c| {
            let (id, timing) = (text_of(c, "machine"), text_of(c, "timing"));
            if timing != "cpu" && !named.contains(&id) {
                Some(format!(
                    "bench measures {id} under {timing}: the README's table of machines has no row for it"
                ))
            } else {
                None
            }
        })
        .collect()
}

/// The README's table of the builds (`| the same algorithm on (`kempelen bench ...`) | Z80 |
/// 6502 |`).
struct BuildsTable {
    /// The command of its header, without `kempelen`.
    command: String,
    /// The builds' ids, by column.
    cpus: Vec<String>,
    /// The rows, the header left out.
    rows: Vec<Vec<String>>,
}

/// The README's table of the builds.
fn builds_table(readme: &str) -> Result<BuildsTable, String> {
    let table = table_with_header(readme, "| the same algorithm on (");
    let header = table
        .first()
        .ok_or("the README has no table of the builds")?;
    let command = header[0]
        .split_once("`kempelen ")
        .and_then(|(_, c)| c.split_once('`'))
        .map(|(c, _)| c.to_string())
        .ok_or_else(|| format!("no command in `{}`", header[0]))?;
    let cpus = header[1..].iter().map(|c| c.to_lowercase()).collect();
    Ok(BuildsTable {
        command,
        cpus,
        rows: table[1..].to_vec(),
    })
}

/// The README's sentence on Kempelen's speed beside the historical programs (`Kempelen's
/// builds search 218 nodes/s on the Jupiter III and 251 on the KIM-1`): (machine, figure).
fn prose_speeds(readme: &str) -> Result<Vec<(String, String)>, String> {
    let marker = "Kempelen's builds search ";
    let at = readme
        .find(marker)
        .ok_or_else(|| format!("the README no longer says `{marker}`"))?;
    let sentence = readme[at + marker.len()..]
        .lines()
        .next()
        .unwrap_or_default();
    sentence
        .trim_end_matches(':')
        .split(" and ")
        .map(|part| {
            let figure = numbers(part).into_iter().next();
            let name = part.split_once("on the ").map(|(_, n)| n.to_string());
            figure
                .zip(name)
                .map(|(f, n)| (n, f))
                .ok_or_else(|| format!("not a figure on a machine: `{part}`"))
        })
        .collect()
}

/// The machine a cell of the builds' nodes/s row names (`376 on the ZX Spectrum 48K as it
/// ran (...)`, `251 on the KIM-1 at 1 MHz`).
fn machine_in(cell: &str) -> Result<&str, String> {
    let rest = cell
        .split_once("on the ")
        .map(|(_, r)| r)
        .ok_or_else(|| format!("no machine in `{cell}`"))?;
    let end = [" as it ran", " at "]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
        .unwrap_or(rest.len());
    Ok(&rest[..end])
}

/// The first number of `text` after `word` (`5` after `depth ` in `depth 5 (...)`).
fn number_after(text: &str, word: &str) -> Option<String> {
    numbers(text.split_once(word)?.1).into_iter().next()
}

/// `row`'s README figure `readme` against the figure bench printed, at the README's rounding:
/// the difference, if any.
fn differs(row: &str, readme: &str, printed: f64) -> Option<String> {
    (!at_readme_rounding(readme, printed))
        .then(|| format!("{row}: the README says `{readme}`, bench printed {printed}"))
}

/// One cell of the README's table of the builds (row `label`, the column of build `b` of
/// bench's JSON) against what bench printed: the differences.
fn builds_cell_differences(
    label: &str,
    cell: &str,
    b: &serde_json::Value,
    clocks: &[serde_json::Value],
    machines: &[MachineRow],
) -> Result<Vec<String>, String> {
    let at = format!("`{label}` ({})", text_of(b, "cpu"));
    let n = numbers(cell);
    let first = n.first().map_or("", String::as_str);
    let second = n.get(1).map_or("", String::as_str);
    let ram = &b["ram"];
    let mut out = Vec::new();
    if label.starts_with("cycles per node") {
        out.push(differs(&at, first, number_of(b, "cycles_per_node")));
        let depth = number_after(label, "depth ").unwrap_or_default();
        out.push(differs(
            &format!("{at}, depth"),
            &depth,
            number_of(b, "depth"),
        ));
        let nodes = number_before(label, "nodes").unwrap_or_default();
        out.push(differs(
            &format!("{at}, nodes"),
            &nodes,
            number_of(b, "nodes"),
        ));
        let suite = text_of(b, "suite");
        if label.contains("bundled suite") && suite != kempelen_roms::suite::BUNDLED_NAME {
            out.push(Some(format!(
                "{at}: bench searched {suite}, not the bundled suite"
            )));
        }
    } else if label.starts_with("nodes per second") {
        let name = machine_in(cell)?;
        let c = clock_named(clocks, machines, name)?;
        let at = format!("{at}, {name}");
        out.push(differs(&at, first, number_of(c, "nodes_per_second")));
        if cell.contains("as it ran") {
            let cpu = number_of(c, "nodes_per_second_cpu");
            out.push(differs(
                &format!("{at} at the CPU clock alone"),
                second,
                cpu,
            ));
        } else if text_of(c, "timing") != "cpu" {
            out.push(Some(format!(
                "{at}: the README names no timing model, bench measured {}",
                text_of(c, "timing")
            )));
        }
        let mhz = number_before(cell, "MHz").unwrap_or_default();
        out.push(differs(&format!("{at}, MHz"), &mhz, number_of(c, "mhz")));
    } else if label == "engine ROM" {
        out.push(differs(&at, first, number_of(&b["rom"], "engine")));
    } else if label.starts_with("peak RAM") {
        let depth = number_after(label, "depth-").unwrap_or_default();
        let row = ram["by_depth"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|d| at_readme_rounding(&depth, number_of(d, "depth")))
            .ok_or_else(|| format!("{at}: bench measured no RAM at depth `{depth}`"))?;
        out.push(differs(
            &format!("{at}, mean"),
            first,
            number_of(row, "mean"),
        ));
        out.push(differs(
            &format!("{at}, largest"),
            second,
            number_of(row, "max"),
        ));
        let suite = text_of(ram, "suite");
        if !label.contains(&format!("`{suite}`")) {
            out.push(Some(format!("{at}: bench measured the RAM on {suite}")));
        }
    } else if label.starts_with("bytes of RAM per ply") {
        out.push(differs(&at, first, number_of(ram, "bytes_per_ply")));
        let deepest = number_after(label, " to ").unwrap_or_default();
        let max_depth = number_of(ram, "max_depth");
        out.push(differs(&format!("{at}, deepest"), &deepest, max_depth));
    } else {
        out.push(Some(format!(
            "{at}: a row no test compares (say in tests/readme.rs which figure of bench it is)"
        )));
    }
    Ok(out.into_iter().flatten().collect())
}

/// The README's table of machines against the clocks of bench's JSON: each machine's nodes/s
/// as it ran and at its CPU clock alone, its share, no model where the README names none, and
/// a row for every machine bench measures under a model.
fn machine_table_differences(
    machines: &[MachineRow],
    clocks: &[serde_json::Value],
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut named = Vec::new();
    for m in machines {
        let c = clock_of(clocks, &m.name, m.model.as_deref())?;
        named.push(text_of(c, "machine"));
        let at = format!("`{}` in the table of machines", m.name);
        let ran = number_of(c, "nodes_per_second");
        let cpu = number_of(c, "nodes_per_second_cpu");
        out.extend(differs(&format!("{at}, as it ran"), &m.as_ran, ran));
        let at_cpu = format!("{at}, at the CPU clock alone");
        out.extend(differs(&at_cpu, m.cpu_figure(), cpu));
        let share = numbers(&m.share).into_iter().next().unwrap_or_default();
        out.extend(differs(&format!("{at}, share"), &share, 100.0 * ran / cpu));
        if m.model.is_none() && text_of(c, "timing") != "cpu" {
            out.push(format!(
                "{at}: the README names no timing model, bench measured {}",
                text_of(c, "timing")
            ));
        }
    }
    out.extend(every_model_in_the_table(clocks, &named));
    Ok(out)
}

/// The clocks of every build of bench's JSON, each with its build's `cpu`.
fn bench_clocks(json: &serde_json::Value) -> Vec<serde_json::Value> {
    let mut clocks = Vec::new();
    for b in json["builds"].as_array().into_iter().flatten() {
        for c in b["clocks"].as_array().into_iter().flatten() {
            let mut c = c.clone();
            c["cpu"] = b["cpu"].clone();
            clocks.push(c);
        }
    }
    clocks
}

/// Every figure of the README's bench tables (the builds side by side, the machines) and of
/// its sentence on the builds' speed beside the historical programs against `bench --json` of
/// both builds (`json`), at the README's rounding: one line per difference, naming the row.
fn bench_tables_differences(readme: &str, json: &serde_json::Value) -> Result<Vec<String>, String> {
    let BuildsTable { cpus, rows, .. } = builds_table(readme)?;
    let machines = machine_table(readme)?;
    let builds = json["builds"]
        .as_array()
        .ok_or("no builds in bench's JSON")?;
    let clocks = bench_clocks(json);
    let mut out = Vec::new();
    for row in &rows {
        for (cpu, cell) in cpus.iter().zip(&row[1..]) {
            let b = builds
                .iter()
                .find(|b| text_of(b, "cpu") == cpu)
                .ok_or_else(|| format!("bench printed no build {cpu}"))?;
            out.extend(builds_cell_differences(
                &row[0], cell, b, &clocks, &machines,
            )?);
        }
    }
    out.extend(machine_table_differences(&machines, &clocks)?);
    for (name, figure) in prose_speeds(readme)? {
        let c = clock_of(&clocks, &name, None)?;
        let at = format!("`Kempelen's builds search ...` on the {name}");
        out.extend(differs(&at, &figure, number_of(c, "nodes_per_second")));
    }
    Ok(out)
}

/// The README's bench tables (the builds side by side; each machine as it ran, at its CPU
/// clock alone, and the share) and its sentence on the builds' speed beside Sargon and
/// Microchess are, figure for figure at the README's rounding, what the table's command
/// prints with `--json` (about 11 minutes on two shared cores). `KEMPELEN_BENCH_JSON=FILE`
/// compares a saved `bench --cpu z80,6502 --json` instead; each run saves its JSON in the
/// target's tmp folder.
#[test]
#[ignore = "the README's bench of both builds: about 11 minutes"]
fn readme_bench_tables_are_what_bench_prints() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let command = builds_table(&readme).unwrap().command;
    let mut args: Vec<String> = command.split(' ').map(str::to_string).collect();
    args.push("--json".to_string());
    let printed = match std::env::var("KEMPELEN_BENCH_JSON") {
        Ok(file) => {
            eprintln!("comparing {file}, not running `kempelen {}`", key_of(&args));
            std::fs::read_to_string(file).unwrap()
        }
        Err(_) => {
            let started = Instant::now();
            let ran = run_kempelen(&args, "", Duration::from_secs(3 * 3600)).unwrap();
            let saved = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-bench.json");
            std::fs::write(&saved, &ran.stdout).unwrap();
            eprintln!(
                "kempelen {}: {:.0} s (saved in {})",
                key_of(&args),
                started.elapsed().as_secs_f64(),
                saved.display()
            );
            ran.stdout
        }
    };
    let json: serde_json::Value =
        serde_json::from_str(&printed).unwrap_or_else(|e| panic!("bench's JSON: {e}\n{printed}"));
    eprintln!("{}", json["side_by_side"]);
    for c in bench_clocks(&json) {
        eprintln!(
            "{} {}: {} nodes/s as it ran ({}), {} at the CPU clock",
            text_of(&c, "cpu"),
            text_of(&c, "machine"),
            number_of(&c, "nodes_per_second"),
            text_of(&c, "timing"),
            number_of(&c, "nodes_per_second_cpu")
        );
    }
    let differences = bench_tables_differences(&readme, &json).unwrap();
    assert!(
        differences.is_empty(),
        "the README's bench figures against `kempelen {}`:\n{}",
        key_of(&args),
        differences.join("\n")
    );
}

/// The clocks of both builds as bench measures them without running it: `machine`, `name`,
/// `mhz`, `cpu` and `timing` (the machine's timing model, `machine/model`, or `cpu`).
fn machines_clocks() -> Vec<serde_json::Value> {
    kempelen_roms::PORTS
        .iter()
        .flat_map(|p| {
            p.clocks().into_iter().map(move |c| {
                let model = kempelen_emulator::Timing::Machine
                    .model_for(c.id)
                    .ok()
                    .flatten();
                serde_json::json!({
                    "machine": c.id, "name": c.machine, "mhz": c.mhz, "cpu": p.id,
                    "timing": model.map_or("cpu".to_string(), |m| m.full_id()),
                })
            })
        })
        .collect()
}

/// The cell of the README's table of the builds in the row starting with `label`, column
/// `cpu`.
fn builds_cell<'a>(
    cpus: &[String],
    rows: &'a [Vec<String>],
    label: &str,
    cpu: &str,
) -> Result<&'a str, String> {
    let column = cpus.iter().position(|c| c == cpu).ok_or("no such build")?;
    rows.iter()
        .find(|r| r[0].starts_with(label))
        .and_then(|r| r.get(column + 1))
        .map(String::as_str)
        .ok_or_else(|| format!("the README's table of the builds has no `{label}` for {cpu}"))
}

/// The README's table of machines against what needs no bench run: each machine's nodes/s at
/// its CPU clock alone is its clock over the cycles per node of its CPU in the table of the
/// builds, each share the nodes/s as it ran over those at the CPU clock, the machines without
/// a model have none, and every machine with a model has a row (each figure as the values its
/// rounding stands for).
fn machine_table_consistency(
    readme: &str,
    clocks: &[serde_json::Value],
) -> Result<Vec<String>, String> {
    let BuildsTable { cpus, rows, .. } = builds_table(readme)?;
    let mut out = Vec::new();
    let mut named = Vec::new();
    for m in machine_table(readme)? {
        let c = clock_of(clocks, &m.name, m.model.as_deref())?;
        named.push(text_of(c, "machine"));
        let at = format!("`{}` in the table of machines", m.name);
        let cpn = numbers(builds_cell(
            &cpus,
            &rows,
            "cycles per node",
            text_of(c, "cpu"),
        )?);
        let cpn = cpn
            .first()
            .ok_or("no cycles per node in the builds' table")?;
        let (hz, (lo, hi)) = (number_of(c, "mhz") * 1e6, span(cpn));
        let cpu = m.cpu_figure();
        if !within(cpu, (hz / hi, hz / lo)) {
            out.push(format!(
                "{at}: {cpu} nodes/s at the CPU clock alone, but {} MHz over the {cpn} cycles per node of the builds' table give {:.2}",
                number_of(c, "mhz"),
                hz / figure(cpn).0
            ));
        }
        let ((ran_lo, ran_hi), (cpu_lo, cpu_hi)) = (span(&m.as_ran), span(cpu));
        let share = numbers(&m.share).into_iter().next().unwrap_or_default();
        if !within(&share, (100.0 * ran_lo / cpu_hi, 100.0 * ran_hi / cpu_lo)) {
            out.push(format!(
                "{at}: share {share} %, but {} / {cpu} is {:.2} %",
                m.as_ran,
                100.0 * figure(&m.as_ran).0 / figure(cpu).0
            ));
        }
        if m.model.is_none() && text_of(c, "timing") != "cpu" {
            out.push(format!(
                "{at}: no timing model in the README, but the machine runs under {}",
                text_of(c, "timing")
            ));
        }
    }
    out.extend(every_model_in_the_table(clocks, &named));
    Ok(out)
}

/// The figures of the README's builds' nodes/s row and of its sentence on the builds' speed
/// are the table of machines' for the same machines (at their own rounding), at the machines'
/// clocks.
fn builds_speeds_consistency(
    readme: &str,
    clocks: &[serde_json::Value],
) -> Result<Vec<String>, String> {
    let BuildsTable { cpus, rows, .. } = builds_table(readme)?;
    let machines = machine_table(readme)?;
    let row_of = |name: &str| {
        machines
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| format!("the README's table of machines has no {name}"))
    };
    let mut out = Vec::new();
    for cpu in &cpus {
        let cell = builds_cell(&cpus, &rows, "nodes per second", cpu)?;
        let name = machine_in(cell)?;
        let (m, c) = (row_of(name)?, clock_named(clocks, &machines, name)?);
        let at = format!("`nodes per second` ({cpu}), {name}");
        let n = numbers(cell);
        let mut figures = vec![(n.first(), m.as_ran.as_str())];
        if cell.contains("as it ran") {
            figures.push((n.get(1), m.cpu_figure()));
        } else if m.cpu != "the same" {
            out.push(format!("{at}: the table of machines gives it a model"));
        }
        for (said, table) in figures {
            let said = said.map_or("", String::as_str);
            if !within(said, span(table)) {
                out.push(format!("{at}: {said}, the table of machines {table}"));
            }
        }
        let mhz = number_before(cell, "MHz").unwrap_or_default();
        if !at_readme_rounding(&mhz, number_of(c, "mhz")) {
            out.push(format!("{at}: {mhz} MHz, the machine's clock {}", c["mhz"]));
        }
    }
    for (name, said) in prose_speeds(readme)? {
        let m = row_of(&name)?;
        if !within(&said, span(&m.as_ran)) {
            out.push(format!(
                "`Kempelen's builds search ...` on the {name}: {said}, the table of machines {}",
                m.as_ran
            ));
        }
    }
    Ok(out)
}

/// The README's bench figures that need no 11-minute run (the ignored
/// [`readme_bench_tables_are_what_bench_prints`] compares every one with bench): the engine
/// ROMs, assembled here; the table of machines against the machines' clocks and the builds'
/// cycles per node; the builds' nodes/s row and the sentence on the builds' speed against the
/// table of machines.
#[test]
fn readme_bench_figures_agree_with_the_roms_and_the_clocks() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let BuildsTable { cpus, rows, .. } = builds_table(&readme).unwrap();
    let clocks = machines_clocks();
    let mut out = machine_table_consistency(&readme, &clocks).unwrap();
    out.extend(builds_speeds_consistency(&readme, &clocks).unwrap());
    for cpu in &cpus {
        let port = kempelen_roms::Port::by_id(cpu)
            .unwrap_or_else(|| panic!("the README's table of the builds names no build {cpu}"));
        if let Err(e) = port.require() {
            eprintln!("SKIPPED: the {cpu} engine ROM: {e}");
            continue;
        }
        let rom = kempelen_roms::PortEngine::assemble(port)
            .unwrap()
            .rom()
            .len();
        let cell = builds_cell(&cpus, &rows, "engine ROM", cpu).unwrap();
        let said = numbers(cell).into_iter().next().unwrap_or_default();
        if !at_readme_rounding(&said, rom as f64) {
            out.push(format!(
                "`engine ROM` ({cpu}): the README says `{said}`, the assembled engine is {rom} bytes"
            ));
        }
    }
    assert!(out.is_empty(), "{}", out.join("\n"));
}
