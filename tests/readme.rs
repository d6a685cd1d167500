//! Every command the README documents is checked: each `kempelen` line (also as
//! `cargo run --release -- ...` or `target/release/kempelen ...`) must parse as the command line
//! takes it (`KEMPELEN_PARSE_ONLY=1` stops after parsing), every `cargo test`/`cargo bench`
//! line must name packages and test targets that exist, and every file a line runs must exist.
//! What the commands print is checked by the tests of each part (the pages in `docs/` name
//! them).

use std::path::Path;
use std::process::Command;

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
