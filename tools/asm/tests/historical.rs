//! The historical programs' own sources, assembled with the dialect options. They
//! are not ours and never in the repository: these tests run only when `KEMPELEN_HISTORICAL`
//! names a folder holding local copies (the table of docs/EMULATOR.md, "The historical files",
//! names each file, where to fetch it and its SHA-256), and are ignored otherwise:
//!
//! ```text
//! KEMPELEN_HISTORICAL=DIR cargo test -p kempelen-asm --test historical -- --ignored
//! ```
//!
//! - `microchess_drictor.asm` (Daryl Rictor's 2002 serial Microchess, from
//!   netzerohero/MicrochessRP6502 `reference_code/microchess_peter_jennings_drictor_01.asm`):
//!   unmodified, with `--ignore-case`, byte-identical to xa65 (which has no such option, so xa65
//!   assembles a scratch copy whose symbol references are spelled as their definitions).
//! - `sargon-z80.asm` (the Spracklens' 1978 listing in Zilog syntax, from
//!   billforsternz/retro-sargon `stages/sargon-z80.asm`): unmodified, with `--overlap
//!   later-wins`, byte-identical to the bytes of zmac's listing `sargon-z80.lst` beside it.
//! - `sargon1.asm` and `sargon2.asm` (the book's own text in TDL's syntax as typed, and with
//!   its typos fixed, from retro-sargon's `stages/`): with `--dialect tdl`, stage 1 assembles up
//!   to the `.END` it has in the middle (a warning says so), stage 2 needs
//!   `--paren-closes-bracket` for its two `)` typos and gives the bytes of zmac's listing but
//!   for the one difference the Zilog conversion made, which is accounted byte by byte.

use std::path::{Path, PathBuf};
use std::process::Command;

use kempelen_asm::diag::Diagnostic;
use kempelen_asm::source::FsSource;
use kempelen_asm::{Assembly, Cpu, Dialect, Options, Overlap, SymbolTable, assemble};

fn historical(file: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("KEMPELEN_HISTORICAL") else {
        eprintln!("KEMPELEN_HISTORICAL is not set: skipped");
        return None;
    };
    let path = Path::new(&dir).join(file);
    assert!(
        path.exists(),
        "{} is missing (KEMPELEN_HISTORICAL={})",
        path.display(),
        Path::new(&dir).display()
    );
    Some(path)
}

fn assemble_with(cpu: Cpu, path: &Path, options: impl FnOnce(&mut Options)) -> Assembly {
    let mut o = Options::new(cpu);
    options(&mut o);
    assemble(&path.to_string_lossy(), &FsSource, &o)
}

/// `file` of `KEMPELEN_HISTORICAL` (`None` when the variable is not set) assembled for `cpu`:
/// without the dialect options it has errors (those `is_it` picks; at least one), with
/// `option` none. The path, those errors, and the clean assembly.
fn needs_option(
    file: &str,
    cpu: Cpu,
    is_it: impl Fn(&str) -> bool,
    option: impl FnOnce(&mut Options),
) -> Option<(PathBuf, Vec<Diagnostic>, Assembly)> {
    let path = historical(file)?;
    let strict = assemble_with(cpu, &path, |_| {});
    let errors: Vec<Diagnostic> = strict
        .errors()
        .filter(|d| is_it(&d.message))
        .cloned()
        .collect();
    assert!(!errors.is_empty(), "{file}: the errors without the option");
    let ours = assemble_with(cpu, &path, option);
    assert!(ours.is_ok(), "{}", ours.report());
    Some((path, errors, ours))
}

/// `text` with every whole-word, case-insensitive use of a name in `names` outside strings and
/// comments spelled as in `names`.
fn respell(text: &str, names: &[String]) -> String {
    let by_lower: std::collections::HashMap<String, &String> =
        names.iter().map(|n| (n.to_ascii_lowercase(), n)).collect();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut word = String::new();
        let mut quote: Option<char> = None;
        let mut comment = false;
        let flush = |word: &mut String, out: &mut String| {
            match by_lower.get(&word.to_ascii_lowercase()) {
                Some(n) => out.push_str(n),
                None => out.push_str(word),
            }
            word.clear();
        };
        for c in line.chars() {
            if comment || quote.is_some() {
                if Some(c) == quote {
                    quote = None;
                }
                out.push(c);
                continue;
            }
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            flush(&mut word, &mut out);
            match c {
                ';' => comment = true,
                '"' | '\'' => quote = Some(c),
                _ => {}
            }
            out.push(c);
        }
        flush(&mut word, &mut out);
    }
    out
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL=DIR with microchess_drictor.asm, and xa65"]
fn rictor_microchess_assembles_unmodified_with_ignore_case() {
    // Without --ignore-case the case mismatches are errors.
    let undefined = |m: &str| m.starts_with("undefined symbol");
    let file = "microchess_drictor.asm";
    let Some((path, case_errors, ours)) =
        needs_option(file, Cpu::Mos6502, undefined, |o| o.ignore_case = true)
    else {
        return;
    };
    let case_errors = case_errors.len();
    eprintln!("without --ignore-case: {case_errors} undefined symbols");

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("historical-rictor");
    std::fs::create_dir_all(&dir).unwrap();
    let names: Vec<String> = ours.symbols.iter().map(|s| s.name.clone()).collect();
    let text = std::fs::read_to_string(&path).unwrap();
    let copy = dir.join("respelled.asm");
    std::fs::write(&copy, respell(&text, &names)).unwrap();
    let bin = dir.join("xa.bin");
    let status = Command::new("xa")
        .arg("-o")
        .arg(&bin)
        .arg(&copy)
        .status()
        .expect("xa65 (Debian: apt-get install xa65)");
    assert!(status.success(), "xa65 rejects the respelled copy");
    let theirs = std::fs::read(&bin).unwrap();
    // xa65 writes the bytes of each `*=` area one after the other, without the gap between
    // them; Kempelen's image fills the gap. Compare the bytes the listing says were written.
    let mut written = Vec::new();
    for line in &ours.listing.lines {
        written.extend_from_slice(&line.bytes);
    }
    std::fs::write(dir.join("kempelen.bin"), &written).unwrap();
    assert_eq!(ours.image.origin, 0x1000);
    assert!(written == theirs, "Kempelen and xa65 differ");
}

/// The bytes of a zmac listing, in listing order (later lines overwrite earlier ones, as zmac
/// wrote them): `NNN:<tab>ADDR  HEXBYTES<tab>source` (`ADDR'` where zmac marks a relocatable
/// value), continued on `<tab>      HEXBYTES` lines. Returns the memory and which bytes the
/// listing gives; a line whose address field is damaged is skipped with its continuations
/// (retro-sargon's listing has one such line), and counted.
fn zmac_listing(listing: &str) -> (Vec<u8>, Vec<bool>, usize) {
    let mut memory = vec![0u8; 0x10000];
    let mut given = vec![false; 0x10000];
    let mut next: Option<usize> = None;
    let mut damaged = 0;
    let hex_bytes = |h: &str| -> Option<Vec<u8>> {
        if h.is_empty() || h.len() % 2 != 0 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
            .collect()
    };
    for line in listing.lines() {
        let line = line.trim_end_matches('\r');
        let (addr, field) = if let Some((number, rest)) = line.split_once(":\t")
            && number.trim().bytes().all(|b| b.is_ascii_digit())
        {
            next = None;
            let field = rest.split('\t').next().unwrap_or("");
            if field.trim().is_empty() {
                continue;
            }
            let addr = field
                .get(..4)
                .and_then(|a| usize::from_str_radix(a, 16).ok());
            let sep = field.as_bytes().get(4).copied();
            let Some(addr) = addr.filter(|_| matches!(sep, Some(b' ' | b'\''))) else {
                damaged += 1;
                continue;
            };
            (addr, field[4..].trim_start_matches('\'').trim())
        } else if let Some(rest) = line.strip_prefix("\t      ") {
            let Some(addr) = next else {
                continue;
            };
            (addr, rest.trim())
        } else {
            continue;
        };
        let Some(bytes) = hex_bytes(field) else {
            continue;
        };
        for (i, b) in bytes.iter().enumerate() {
            memory[addr + i] = *b;
            given[addr + i] = true;
        }
        next = Some(addr + bytes.len());
    }
    (memory, given, damaged)
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL=DIR with sargon-z80.asm and sargon-z80.lst"]
fn sargon_listing_assembles_unmodified_with_later_wins() {
    // Without --overlap later-wins the overlap is an error.
    let overlapping = |m: &str| m.contains("overlapping ORG areas");
    let later_wins = |o: &mut Options| o.overlap = Overlap::LaterWins;
    let Some((path, overlaps, ours)) =
        needs_option("sargon-z80.asm", Cpu::Z80, overlapping, later_wins)
    else {
        return;
    };
    let overlap = &overlaps[0];
    assert!(overlap.notes.iter().any(|n| n.contains("the earlier line")));
    eprintln!("without --overlap later-wins: {}", overlap.message);
    let listing =
        String::from_utf8_lossy(&std::fs::read(path.with_extension("lst")).unwrap()).into_owned();
    let (theirs, given, damaged) = zmac_listing(&listing);
    assert!(damaged <= 1, "{damaged} damaged listing lines");
    let origin = usize::from(ours.image.origin);
    let end = origin + ours.image.bytes.len();
    assert_eq!(given.iter().position(|&g| g), Some(origin));
    assert_eq!(given.iter().rposition(|&g| g), Some(end - 1));
    let mut compared = 0;
    for (addr, ours) in (origin..end).zip(&ours.image.bytes) {
        if given[addr] {
            compared += 1;
            assert_eq!(
                *ours, theirs[addr],
                "Kempelen and zmac's listing differ at ${addr:04X}"
            );
        }
    }
    // Every byte Kempelen's listing shows was compared, but the few the damaged line hides
    // (zmac lists no bytes for DS, Kempelen lists the zeros it reserves).
    let mut written = vec![false; 0x10000];
    let reserves = |source: &str| {
        let code = source.split(';').next().unwrap_or("");
        code.split_whitespace()
            .any(|w| w.eq_ignore_ascii_case("DS") || w.eq_ignore_ascii_case("DEFS"))
    };
    for line in &ours.listing.lines {
        if reserves(&line.source) {
            continue;
        }
        if let Some(addr) = line.addr {
            for i in 0..line.bytes.len() {
                written[usize::from(addr) + i] = true;
            }
        }
    }
    let ours_written = written.iter().filter(|&&w| w).count();
    assert!(
        compared + 16 >= ours_written,
        "only {compared} of {ours_written} bytes compared"
    );
    eprintln!("{compared} of {ours_written} bytes written equal zmac's listing");
}

/// The book's text in TDL's syntax, with the options it needs: the dialect, the later bytes
/// winning (as in the Zilog text), and (stage 2) `--paren-closes-bracket`.
fn tdl_options(paren: bool) -> impl FnOnce(&mut Options) {
    move |o: &mut Options| {
        o.dialect = Dialect::Tdl;
        o.overlap = Overlap::LaterWins;
        o.paren_closes_bracket = paren;
    }
}

/// zmac's listing of the Zilog conversion: its bytes and which addresses it gives.
fn zmac_bytes(dir_file: &Path) -> (Vec<u8>, Vec<bool>) {
    let listing =
        String::from_utf8_lossy(&std::fs::read(dir_file.with_file_name("sargon-z80.lst")).unwrap())
            .into_owned();
    let (memory, given, damaged) = zmac_listing(&listing);
    assert!(damaged <= 1, "{damaged} damaged listing lines");
    (memory, given)
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL=DIR with sargon1.asm and sargon-z80.lst"]
fn sargon_book_stage1_assembles_up_to_its_end() {
    let Some(path) = historical("sargon1.asm") else {
        return;
    };
    let ours = assemble_with(Cpu::Z80, &path, tdl_options(false));
    assert!(ours.is_ok(), "{}", ours.report());
    let warnings: Vec<_> = ours
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("stops the program here"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", ours.report());
    assert_eq!(warnings[0].line, 1470, "the book's .END in the middle");
    assert!(
        warnings[0]
            .message
            .contains("the 1836 lines after it, which define 'MOVE', 'MV1', 'MV5' and 168 more"),
        "{}",
        warnings[0].message
    );
    eprintln!("{}", warnings[0].message);
    let (theirs, given) = zmac_bytes(&path);
    // The lines after the .END write some bytes over tables of the lines before it (the
    // graphics data over the last table, which the Zilog text does too): those are not
    // stage 1's to compare. Stage 2 (the .END at the end) tells which they are.
    let full = assemble_with(
        Cpu::Z80,
        &path.with_file_name("sargon2.asm"),
        tdl_options(true),
    );
    assert!(full.is_ok(), "{}", full.report());
    let end_line = warnings[0].line;
    let mut overwritten = vec![false; 0x10000];
    for l in full.listing.lines.iter().filter(|l| l.line >= end_line) {
        if let Some(a) = l.addr {
            for i in 0..l.bytes.len() {
                overwritten[usize::from(a) + i] = true;
            }
        }
    }
    let mut compared = 0;
    let mut skipped = 0;
    for (i, b) in ours.image.bytes.iter().enumerate() {
        let addr = usize::from(ours.image.origin) + i;
        if !given[addr] || !ours.listing.lines.iter().any(|l| writes(l, addr)) {
            continue;
        }
        if overwritten[addr] {
            skipped += 1;
            continue;
        }
        compared += 1;
        assert_eq!(
            *b, theirs[addr],
            "stage 1 and zmac's listing differ at ${addr:04X}"
        );
    }
    eprintln!(
        "stage 1: {compared} bytes before its .END equal zmac's listing ({skipped} that lines after it overwrite not compared)"
    );
    // The figures docs/ASSEMBLER.md gives.
    assert_eq!((compared, skipped), (1851, 7));
}

/// Whether listing line `l` wrote the byte at `addr`.
fn writes(l: &kempelen_asm::listing::ListingLine, addr: usize) -> bool {
    l.addr
        .is_some_and(|a| (usize::from(a)..usize::from(a) + l.bytes.len()).contains(&addr))
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL=DIR with sargon2.asm, sargon-z80.asm and sargon-z80.lst"]
fn sargon_book_stage2_gives_the_bytes_of_the_zmac_listing() {
    // Without --paren-closes-bracket, the two ')' where a ']' belongs are errors at their
    // places (the book's text has them in stage 1 too, after its .END).
    let Some(path) = historical("sargon2.asm") else {
        return;
    };
    let strict = assemble_with(Cpu::Z80, &path, tdl_options(false));
    let typos: Vec<(u32, u32)> = strict
        .errors()
        .filter(|d| d.message.contains("a ']' was meant?"))
        .map(|d| (d.line, d.col))
        .collect();
    assert_eq!(strict.errors().count(), 2, "{}", strict.report());
    assert_eq!(typos, [(2086, 34), (2098, 21)]);
    let ours = assemble_with(Cpu::Z80, &path, tdl_options(true));
    assert!(ours.is_ok(), "{}", ours.report());
    let zilog = assemble_with(Cpu::Z80, &path.with_file_name("sargon-z80.asm"), |o| {
        o.overlap = Overlap::LaterWins;
    });
    assert!(zilog.is_ok(), "{}", zilog.report());
    let (theirs, given) = zmac_bytes(&path);
    let accounted = ConversionDifference::new(&ours.symbols, &zilog.symbols);

    let mut compared = 0;
    let mut equal = 0;
    let mut operand_bytes = 0;
    for (i, b) in ours.image.bytes.iter().enumerate() {
        let addr = usize::from(ours.image.origin) + i;
        if !given[addr] || !ours.listing.lines.iter().any(|l| writes(l, addr)) {
            continue;
        }
        compared += 1;
        if *b == theirs[addr] {
            equal += 1;
        } else if accounted.in_messages(addr) {
            // Compared below, as a whole.
        } else {
            let line = ours
                .listing
                .lines
                .iter()
                .find(|l| writes(l, addr))
                .expect("written");
            assert!(
                accounted.moved_operand(line, addr, &theirs),
                "${addr:04X} differs ({b:02X}, zmac {:02X}) and names no label the conversion moved: {}",
                theirs[addr],
                line.source
            );
            operand_bytes += 1;
        }
    }
    let collapsed = accounted.messages_equal(&ours.image, &theirs);
    let message_bytes = compared - equal - operand_bytes;
    eprintln!(
        "stage 2: {equal} of {compared} bytes equal zmac's listing; the other {} are the \
         conversion's difference: {message_bytes} in the messages from TITLE3 on (equal once \
         the {collapsed} one-byte `.ASCII [^Hxx]` items the Zilog text writes as three bytes \
         `'[',$xx,']'` are read as one) and {operand_bytes} operand bytes naming labels after \
         them, which moved",
        compared - equal
    );
    // The figures docs/ASSEMBLER.md gives.
    assert_eq!(collapsed, 13);
    assert_eq!(
        (equal, compared, message_bytes, operand_bytes),
        (4624, 4855, 171, 60)
    );
}

/// The one difference retro-sargon's conversion made to the bytes: the book's `.ASCII
/// [^H83]` (one byte, 83h: TDL reads `[expr]` in `.ASCII` as a byte) became `DB '[',$83,']'`
/// (three bytes) in the Zilog text, twelve times in TITLE3 and once in BLANKR, so the messages
/// after TITLE3 and the variables after them lie 24 and 26 bytes further up there.
struct ConversionDifference<'a> {
    ours: &'a SymbolTable,
    zilog: &'a SymbolTable,
    /// The book's TITLE3 and the end of its last message (INVAL2, "TRY AGAIN").
    start: usize,
    end: usize,
}

impl<'a> ConversionDifference<'a> {
    fn new(ours: &'a SymbolTable, zilog: &'a SymbolTable) -> Self {
        let at = |t: &SymbolTable, n: &str| usize::from(t.get(n).unwrap_or_else(|| panic!("{n}")));
        // Every label before TITLE3's underlines is where the Zilog text has it; every label
        // that moved is a message or variable after them.
        let start = at(ours, "TITLE3");
        for s in ours.iter() {
            let Some(z) = zilog.get(&s.name.replace('.', "_")) else {
                continue;
            };
            let moved = usize::from(z) != usize::from(s.value);
            let after = usize::from(s.value) > start && usize::from(s.value) < 0x1A00;
            assert_eq!(
                moved, after,
                "{} at ${:04X}, ${z:04X} in the Zilog text",
                s.name, s.value
            );
        }
        ConversionDifference {
            ours,
            zilog,
            start,
            end: at(ours, "INVAL2") + "TRY AGAIN".len(),
        }
    }

    fn in_messages(&self, addr: usize) -> bool {
        (self.start..0x1A00).contains(&addr)
    }

    /// The book's messages from TITLE3 to INVAL2 equal the Zilog text's with each `'['`, `x`,
    /// `']'` read as `x`; how many there are.
    fn messages_equal(&self, image: &kempelen_asm::Image, theirs: &[u8]) -> usize {
        let origin = usize::from(image.origin);
        let ours = &image.bytes[self.start - origin..self.end - origin];
        let zilog_start = usize::from(self.zilog.get("TITLE3").expect("TITLE3"));
        let zilog_end = usize::from(self.zilog.get("INVAL2").expect("INVAL2")) + "TRY AGAIN".len();
        let zilog = &theirs[zilog_start..zilog_end];
        let mut read = Vec::new();
        let mut collapsed = 0;
        let mut i = 0;
        while i < zilog.len() {
            if zilog[i] == b'[' && zilog.get(i + 2) == Some(&b']') {
                read.push(zilog[i + 1]);
                collapsed += 1;
                i += 3;
            } else {
                read.push(zilog[i]);
                i += 1;
            }
        }
        assert_eq!(
            ours,
            read.as_slice(),
            "the messages differ beyond the bracketed bytes"
        );
        collapsed
    }

    /// Whether the byte at `addr` of listing line `line` belongs to a 16-bit operand that is a
    /// label (plus an offset) of ours in one place and the same of the Zilog text in the other.
    fn moved_operand(
        &self,
        line: &kempelen_asm::listing::ListingLine,
        addr: usize,
        theirs: &[u8],
    ) -> bool {
        let start = usize::from(line.addr.expect("written"));
        let word = |bytes: &[u8], at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        (start..start + line.bytes.len() - 1)
            .filter(|&w| w == addr || w + 1 == addr)
            .any(|w| {
                let ours = word(&line.bytes, w - start);
                let zilog = word(theirs, w);
                // `label` or `label+offset` (`TITLE4+2`) in both texts.
                self.ours.containing(ours).is_some_and(|(name, offset)| {
                    self.zilog
                        .get(&name.replace('.', "_"))
                        .is_some_and(|z| z.wrapping_add(offset) == zilog)
                })
            })
    }
}
