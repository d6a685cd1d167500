//! The assembler: reads a program through a [`SourceProvider`] and assembles it pass after pass
//! until every symbol keeps its value.
//!
//! Each pass walks the whole program (includes, conditionals and macros included) and computes
//! every symbol; a reference to a symbol defined further down uses its value from the
//! previous pass. When a pass ends with the same values as the one before, every reference saw
//! its final value and that pass's bytes, listing and diagnostics are the result. A 6502
//! operand can shrink to zero page once its value is known, which moves later labels: this is
//! why there is no fixed number of passes, and why the loop has a cap with its own error.
//!
//! Pipeline: `stmt` classifies each line once, `encode` turns an instruction into bytes,
//! the pass here handles labels, directives, macros and includes and collects
//! [`Diagnostic`]s.

mod directives;
mod encode;
mod foreign;
mod forms;
pub(crate) mod stmt;

pub(crate) use encode::z80_has_form;

use kempelen_isa::hash::FastMap as HashMap;
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

use crate::Cpu;
use crate::diag::{Diagnostic, Severity};
use crate::expr::{Env, EvalError, Span};
use crate::isa::{self, Cycles};
use crate::listing::{Listing, ListingLine};
use crate::parse::is_identifier;
use crate::source::{MemorySource, SourceError, SourceProvider};
use crate::symbols::{SymbolKind, SymbolTable};
use directives::DirLine;
use encode::Problem;
use stmt::{Body, Dir, DirArg, Stmt, Syntax};

/// How to assemble.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The instruction set.
    pub cpu: Cpu,
    /// Give up when symbols still change after this many passes.
    pub max_passes: u32,
    /// Symbols are case-insensitive (`--ignore-case`): `POUT` and `pout` name one symbol, as
    /// in the assemblers of the 1970s. The symbol file keeps the spelling of the definition.
    pub ignore_case: bool,
    /// What happens when a line writes an address an earlier line already filled.
    pub overlap: Overlap,
    /// Whose syntax the source is in (`--dialect`): Kempelen's, or TDL's (Z80 only).
    pub dialect: Dialect,
    /// `--paren-closes-bracket` (TDL): a `)` that closes nothing in a `.DEFINE` closes its
    /// `[`, as the text of the Sargon book as typed needs twice.
    pub paren_closes_bracket: bool,
}

pub use kempelen_isa::{Dialect, Overlap};

impl Options {
    /// Default options for `cpu` (at most 32 passes, case-sensitive symbols, overlapping ORG
    /// areas an error).
    pub fn new(cpu: Cpu) -> Options {
        Options {
            cpu,
            max_passes: 32,
            ignore_case: false,
            overlap: Overlap::Error,
            dialect: Dialect::Kempelen,
            paren_closes_bracket: false,
        }
    }

    /// How this run reads its sources.
    fn syntax(&self) -> Syntax {
        Syntax {
            cpu: self.cpu,
            dialect: self.dialect,
            radix: 10,
            paren_closes_bracket: self.paren_closes_bracket,
        }
    }
}

/// The assembled bytes: from the lowest to the highest address written, gaps filled with 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// Load address of the first byte.
    pub origin: u16,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Everything a run produces. The outputs are complete even when there are errors (with
/// placeholder bytes where values were missing); check [`Assembly::is_ok`] before using them.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// The instruction set it was assembled for.
    pub cpu: Cpu,
    /// The binary.
    pub image: Image,
    /// The listing.
    pub listing: Listing,
    /// Every symbol (labels, `EQU` values); macro-internal labels are left out.
    pub symbols: SymbolTable,
    /// Every error and warning of the run, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Passes it took.
    pub passes: u32,
}

impl Assembly {
    /// Whether there were no errors.
    pub fn is_ok(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// All diagnostics rendered, one after another, with a summary line when there are errors.
    pub fn report(&self) -> String {
        let mut out: String = self.diagnostics.iter().map(|d| d.to_string()).collect();
        let errors = self.errors().count();
        if errors > 0 {
            out.push_str(&format!(
                "{errors} error{}\n",
                if errors == 1 { "" } else { "s" }
            ));
        }
        out
    }
}

/// Assembles the program whose main file is `main`.
///
/// ```
/// use kempelen_asm::{Cpu, assemble::{Options, assemble}, source::MemorySource};
/// let files = MemorySource::new()
///     .with("main.asm", "        org $8000\nstart:  ld a,(ix+2)\n        jr start\n");
/// let out = assemble("main.asm", &files, &Options::new(Cpu::Z80));
/// assert!(out.is_ok(), "{}", out.report());
/// assert_eq!(out.image.origin, 0x8000);
/// assert_eq!(out.image.bytes, [0xDD, 0x7E, 0x02, 0x18, 0xFB]);
/// assert_eq!(out.symbols.get("start"), Some(0x8000));
/// ```
pub fn assemble(main: &str, provider: &dyn SourceProvider, options: &Options) -> Assembly {
    let failed = |message: String| Assembly {
        cpu: options.cpu,
        image: Image::default(),
        listing: Listing::default(),
        symbols: SymbolTable::new(),
        diagnostics: vec![Diagnostic::global(Severity::Error, message)],
        passes: 0,
    };
    if options.dialect == Dialect::Tdl && options.cpu != Cpu::Z80 {
        return failed(format!(
            "the TDL dialect is a Z80 syntax (TDL's Z80 assembler); this source is assembled for the {}",
            options.cpu.title()
        ));
    }
    let key = provider.resolve(None, main);
    let mut cache = Cache::default();
    let main_unit = match cache.unit(options.syntax(), provider, &key) {
        Ok(unit) => unit,
        Err(e) => {
            return failed(match e {
                SourceError::NotFound(_) => format!("source file '{main}' not found"),
                other => other.to_string(),
            });
        }
    };
    let mut previous: HashMap<Rc<str>, i64> = HashMap::default();
    let mut passes = 0;
    loop {
        passes += 1;
        let mut pass = Pass::new(options, provider, &mut cache, &previous);
        pass.include_stack.push(key.clone());
        pass.run_unit(&main_unit, &[]);
        let result = pass.finish();
        let values: HashMap<Rc<str>, i64> = result
            .symbols
            .iter()
            .map(|(n, d)| (n.clone(), d.value))
            .collect();
        if values == previous {
            return result.into_assembly(options.cpu, passes);
        }
        if passes >= options.max_passes {
            let mut changing: Vec<&Rc<str>> = values
                .iter()
                .filter(|(n, v)| previous.get(*n) != Some(v))
                .map(|(n, _)| n)
                .collect();
            changing.sort();
            let shown: Vec<String> = changing.iter().take(5).map(|n| format!("'{n}'")).collect();
            // The error points at the definition of the first symbol that kept changing.
            let place = changing.first().and_then(|name| {
                let (_, def) = result.symbols.iter().find(|(n, _)| n == *name)?;
                let text = match cache.units.get(&*def.file) {
                    Some(Ok(unit)) => unit
                        .lines
                        .iter()
                        .find(|l| l.number == def.line)
                        .map(|l| l.text.to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                Some((
                    def.file.to_string(),
                    def.line,
                    def.col,
                    name.chars().count(),
                    text,
                ))
            });
            let mut assembly = result.into_assembly(options.cpu, passes);
            let mut diagnostic = Diagnostic::global(
                Severity::Error,
                format!(
                    "symbol values did not settle after {passes} passes: {}{} kept changing",
                    shown.join(", "),
                    if changing.len() > 5 { format!(" and {} more", changing.len() - 5) } else { String::new() }
                ),
            )
            .with_note("an instruction's size depends on a value that depends on that size (zero page or not)");
            if let Some((file, line, col, width, text)) = place {
                diagnostic.file = file;
                diagnostic.line = line;
                diagnostic.col = col;
                diagnostic.width = width as u32;
                diagnostic.source_line = text;
            }
            assembly.diagnostics.push(diagnostic);
            return assembly;
        }
        previous = values;
    }
}

/// Assembles a program held in a string (an `INCLUDE` in it finds nothing).
pub fn assemble_source(cpu: Cpu, name: &str, text: &str) -> Assembly {
    let files = MemorySource::new().with(name, text);
    assemble(name, &files, &Options::new(cpu))
}

// ---------------------------------------------------------------------------------------------
// Files and their parsed lines

struct UnitLine {
    number: u32,
    text: Arc<str>,
    stmt: Stmt,
    /// The radix of numbers on this line (TDL's `.RADIX`; 10 otherwise): a macro called here
    /// reads its expansion in it.
    radix: u32,
}

/// A sequence of lines: a file, or the body of one macro call.
struct Unit {
    /// The resolved path includes are relative to.
    key: String,
    /// The file name shown in diagnostics and the listing.
    file: Arc<str>,
    lines: Vec<UnitLine>,
}

/// A source line that is not UTF-8: shown with the bad bytes replaced, its statement an
/// error pointing at the first bad byte.
fn not_utf8(number: u32, raw: &[u8], e: &std::str::Utf8Error) -> UnitLine {
    let good = e.valid_up_to();
    let text = String::from_utf8_lossy(raw);
    let start = String::from_utf8_lossy(&raw[..good]).len();
    let end = start + '\u{FFFD}'.len_utf8();
    UnitLine {
        number,
        stmt: stmt::Stmt {
            label: None,
            body: stmt::Body::Error(crate::parse::SyntaxError::new(
                Span::new(start, end),
                format!(
                    "the line is not valid UTF-8 (byte ${:02X}); save the source as UTF-8",
                    raw[good]
                ),
            )),
        },
        text: Arc::from(text.as_ref()),
        radix: 10,
    }
}

/// Files parsed once, shared by all passes.
#[derive(Default)]
struct Cache {
    units: HashMap<String, Result<Rc<Unit>, SourceError>>,
    binaries: HashMap<String, Result<Rc<Vec<u8>>, SourceError>>,
}

impl Cache {
    fn unit(
        &mut self,
        syntax: Syntax,
        provider: &dyn SourceProvider,
        key: &str,
    ) -> Result<Rc<Unit>, SourceError> {
        self.units
            .entry(key.to_string())
            .or_insert_with(|| {
                let bytes = provider.read(key)?;
                let file: Arc<str> = Arc::from(key);
                let mut raw: Vec<&[u8]> = bytes
                    .split(|&b| b == b'\n')
                    .map(|raw| raw.strip_suffix(b"\r").unwrap_or(raw))
                    .collect();
                // `str::lines` semantics: a final newline does not start another line.
                if bytes.ends_with(b"\n") || bytes.is_empty() {
                    raw.pop();
                }
                let texts: Vec<(u32, Option<Arc<str>>)> = raw
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (i as u32 + 1, std::str::from_utf8(r).ok().map(Arc::from)))
                    .collect();
                let parsed = stmt::parse_lines(syntax, &texts);
                let lines = texts
                    .into_iter()
                    .zip(parsed)
                    .zip(&raw)
                    .map(|(((number, text), parsed), raw)| match text {
                        Some(text) => UnitLine {
                            number,
                            text,
                            stmt: parsed.stmt,
                            radix: parsed.radix,
                        },
                        None => {
                            let e = std::str::from_utf8(raw).expect_err("not UTF-8");
                            not_utf8(number, raw, &e)
                        }
                    })
                    .collect();
                Ok(Rc::new(Unit {
                    key: key.to_string(),
                    file,
                    lines,
                }))
            })
            .clone()
    }

    fn binary(
        &mut self,
        provider: &dyn SourceProvider,
        key: &str,
    ) -> Result<Rc<Vec<u8>>, SourceError> {
        self.binaries
            .entry(key.to_string())
            .or_insert_with(|| provider.read(key).map(Rc::new))
            .clone()
    }
}

// ---------------------------------------------------------------------------------------------
// One pass

/// Where a line comes from, for diagnostics and the listing.
#[derive(Clone)]
struct LineCtx {
    file: Arc<str>,
    line: u32,
    text: Arc<str>,
    /// "in macro 'x' called at ..." notes, innermost first.
    notes: Rc<Vec<String>>,
}

struct SymDef {
    /// The name as its definition spells it (the map key is folded with `--ignore-case`).
    spelling: Rc<str>,
    value: i64,
    kind: SymbolKind,
    /// Where it is defined, for "first defined at" notes.
    file: Arc<str>,
    line: u32,
    col: u32,
}

struct MacroDef {
    name: String,
    params: Vec<String>,
    body: Vec<(u32, Arc<str>)>,
    file: Arc<str>,
    key: String,
}

/// An open `IF`.
struct Cond {
    /// Lines are assembled in the current branch.
    taking: bool,
    /// Some branch was (or, with an inactive parent, counts as) taken.
    taken: bool,
    parent_active: bool,
    else_seen: bool,
    ctx: LineCtx,
    span: Span,
}

/// A `MACRO` whose `ENDM` has not been seen yet.
struct Recording {
    def: MacroDef,
    ctx: LineCtx,
    span: Span,
}

/// Macro calls nest at most this deep (a macro calling itself ends here).
const MAX_MACRO_DEPTH: u32 = 64;
/// At most this many macro calls are expanded in one pass (a macro that calls itself twice
/// would otherwise take 2^64 expansions to reach the depth limit).
const MAX_EXPANSIONS: u32 = 100_000;
/// Macro calls produce at most this much text in one pass (a macro whose argument holds
/// copies of itself grows its lines exponentially long before any depth limit is reached).
const MAX_EXPANDED_BYTES: usize = 16 << 20;
/// Includes nest at most this deep.
const MAX_INCLUDE_DEPTH: usize = 64;

struct PassResult {
    symbols: Vec<(Rc<str>, SymDef)>,
    /// Undefined names and the index of their diagnostic, for "did you mean" notes.
    suggestions: Vec<(usize, String)>,
    image: Image,
    listing: Vec<PendingLine>,
    diagnostics: Vec<Diagnostic>,
}

/// A listing line whose bytes are read from the image once the final pass is known (so that
/// the passes before it allocate nothing per line).
struct PendingLine {
    file: Arc<str>,
    line: u32,
    addr: Option<u16>,
    first: u32,
    len: u32,
    cycles: Option<Cycles>,
    source: Arc<str>,
    macro_depth: u32,
    skipped: bool,
}

impl PassResult {
    fn into_assembly(mut self, cpu: Cpu, passes: u32) -> Assembly {
        for (index, name) in &self.suggestions {
            let known = self
                .symbols
                .iter()
                .map(|(n, _)| n.as_ref())
                .filter(|n: &&str| !n.contains('#'));
            if let Some(close) = forms::closest(name, known) {
                let note = format!("did you mean '{close}'?");
                self.diagnostics[*index].notes.insert(0, note);
            }
        }
        let mut symbols = SymbolTable::new();
        for (name, def) in &self.symbols {
            if !name.contains('#') {
                symbols.insert_value(def.spelling.to_string(), def.value, def.kind);
            }
        }
        let image = &self.image;
        let lines = self
            .listing
            .into_iter()
            .map(|p| {
                let start = (p.first as usize).saturating_sub(image.origin as usize);
                let bytes = image
                    .bytes
                    .get(start..start + p.len as usize)
                    .map(<[u8]>::to_vec)
                    .unwrap_or_default();
                ListingLine {
                    file: p.file,
                    line: p.line,
                    addr: p.addr,
                    bytes,
                    cycles: p.cycles,
                    source: p.source,
                    macro_depth: p.macro_depth,
                    skipped: p.skipped,
                }
            })
            .collect();
        Assembly {
            cpu,
            image: self.image,
            listing: Listing { lines },
            symbols,
            diagnostics: self.diagnostics,
            passes,
        }
    }
}

struct Pass<'a> {
    cpu: Cpu,
    ignore_case: bool,
    overlap: Overlap,
    /// How the sources are read (macro expansions are read in it too).
    syntax: Syntax,
    /// For every address written in this pass, the line that wrote it (index into
    /// `writers`), so an overlap names the earlier line.
    writer: Vec<u32>,
    writers: Vec<(Arc<str>, u32)>,
    provider: &'a dyn SourceProvider,
    cache: &'a mut Cache,
    previous: &'a HashMap<Rc<str>, i64>,
    symbols: HashMap<Rc<str>, SymDef>,
    order: Vec<Rc<str>>,
    /// The global label local labels (`@x`) belong to.
    scope: String,
    pc: u32,
    /// Address of the current statement (the value of `$` / `*`).
    stmt_pc: u32,
    memory: Vec<u8>,
    written: Vec<bool>,
    lowest: u32,
    highest: u32,
    /// Where the current line's bytes start, and how many it has emitted.
    line_first: u32,
    line_len: u32,
    listing: Vec<PendingLine>,
    diagnostics: Vec<Diagnostic>,
    suggestions: Vec<(usize, String)>,
    macros: HashMap<String, Rc<MacroDef>>,
    include_stack: Vec<String>,
    macro_depth: u32,
    expansions: u32,
    expanded_bytes: usize,
    ended: bool,
    overflow_reported: bool,
    overlap_reported: bool,
    /// Names given to `.IMPORT`, checked at the end of the pass.
    imports: Vec<(LineCtx, Span, String)>,
    /// The `END` that stopped the program, when lines of its file follow it: (the line, the
    /// directive, the file's key).
    end_at: Option<(LineCtx, Span, String)>,
}

impl Env for Pass<'_> {
    fn lookup(&self, name: &str) -> Option<i64> {
        let full = self.full_name(name);
        match self.symbols.get(full.as_ref()) {
            Some(def) => Some(def.value),
            None => self.previous.get(full.as_ref()).copied(),
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        self.symbols.contains_key(self.full_name(name).as_ref())
    }

    fn pc(&self) -> i64 {
        self.stmt_pc as i64
    }
}

/// Byte offset → 1-based character column, and the caret width, clamped to the line.
fn columns(text: &str, span: Span) -> (u32, u32) {
    let clamp = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (start, end) = (clamp(span.start as usize), clamp(span.end as usize));
    let col = text[..start].chars().count() as u32 + 1;
    let width = text[start..end.max(start)].chars().count().max(1) as u32;
    (col, width)
}

/// Replaces whole-word occurrences of the parameters outside strings and comments.
/// `text` with every parameter replaced by its argument; `None` if the result would be longer
/// than `limit` bytes.
fn substitute(
    text: &str,
    params: &[String],
    args: &[(String, Span)],
    limit: usize,
) -> Option<String> {
    let mut out = String::with_capacity(text.len().min(limit));
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().expect("in bounds");
        if c == ';' {
            out.push_str(&text[i..]);
            break;
        }
        if c == '"' || (c == '\'' && !(i >= 2 && text[..i].to_ascii_uppercase().ends_with("AF"))) {
            let end = text[i + 1..].find(c).map_or(text.len(), |e| i + 1 + e + 1);
            out.push_str(&text[i..end]);
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' || c == '@' {
            let mut j = i;
            while j < text.len()
                && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'_' | b'@' | b'.'))
            {
                j += 1;
            }
            let word = &text[i..j];
            let piece = match params.iter().position(|p| p == word) {
                Some(k) => args[k].0.as_str(),
                None => word,
            };
            if out.len() + piece.len() > limit {
                return None;
            }
            out.push_str(piece);
            i = j;
            continue;
        }
        out.push(c);
        i += c.len_utf8();
    }
    (out.len() <= limit).then_some(out)
}

impl<'a> Pass<'a> {
    fn new(
        options: &Options,
        provider: &'a dyn SourceProvider,
        cache: &'a mut Cache,
        previous: &'a HashMap<Rc<str>, i64>,
    ) -> Self {
        Pass {
            cpu: options.cpu,
            ignore_case: options.ignore_case,
            overlap: options.overlap,
            syntax: options.syntax(),
            writer: vec![0; 0x10000],
            writers: Vec::new(),
            provider,
            cache,
            previous,
            symbols: HashMap::default(),
            order: Vec::new(),
            scope: String::new(),
            pc: 0,
            stmt_pc: 0,
            memory: vec![0; 0x10000],
            written: vec![false; 0x10000],
            lowest: u32::MAX,
            highest: 0,
            line_first: 0,
            line_len: 0,
            listing: Vec::new(),
            diagnostics: Vec::new(),
            suggestions: Vec::new(),
            macros: HashMap::default(),
            include_stack: Vec::new(),
            macro_depth: 0,
            expansions: 0,
            expanded_bytes: 0,
            ended: false,
            overflow_reported: false,
            overlap_reported: false,
            imports: Vec::new(),
            end_at: None,
        }
    }

    fn finish(mut self) -> PassResult {
        self.report_early_end();
        for (ctx, span, name) in std::mem::take(&mut self.imports) {
            if !self.is_defined(&name) {
                self.report(
                    &ctx,
                    span,
                    Severity::Error,
                    format!("'{name}' is imported from another module, but this program does not define it"),
                    vec!["Kempelen assembles one program and links no modules: define the name in this source (or in an INCLUDEd file)".to_string()],
                );
            }
        }
        let image = if self.lowest <= self.highest && self.lowest != u32::MAX {
            Image {
                origin: self.lowest as u16,
                bytes: self.memory[self.lowest as usize..=self.highest as usize].to_vec(),
            }
        } else {
            Image::default()
        };
        let mut symbols = self.symbols;
        let ordered = self
            .order
            .into_iter()
            .filter_map(|name| {
                let def = symbols.remove(&name)?;
                Some((name, def))
            })
            .collect();
        PassResult {
            symbols: ordered,
            suggestions: self.suggestions,
            image,
            listing: self.listing,
            diagnostics: self.diagnostics,
        }
    }

    /// The name a symbol is known by: local labels get their scope, and with
    /// `--ignore-case` every name is folded to lower case.
    fn full_name<'n>(&self, name: &'n str) -> Cow<'n, str> {
        let full = if name.starts_with('@') {
            Cow::Owned(format!("{}{}", self.scope, name))
        } else {
            Cow::Borrowed(name)
        };
        if self.ignore_case && full.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(full.to_ascii_lowercase())
        } else {
            full
        }
    }

    /// The spelling of a definition for the symbol file: local labels with their scope.
    fn spelling(&self, name: &str) -> Rc<str> {
        if name.starts_with('@') {
            Rc::from(format!("{}{}", self.scope, name))
        } else {
            Rc::from(name)
        }
    }

    // -- diagnostics --------------------------------------------------------------------------

    fn report(
        &mut self,
        ctx: &LineCtx,
        span: Span,
        severity: Severity,
        message: String,
        mut notes: Vec<String>,
    ) {
        let (col, width) = columns(&ctx.text, span);
        notes.extend(ctx.notes.iter().cloned());
        self.diagnostics.push(Diagnostic {
            severity,
            message,
            file: ctx.file.to_string(),
            line: ctx.line,
            col,
            width,
            source_line: ctx.text.to_string(),
            notes,
        });
    }

    fn error(&mut self, ctx: &LineCtx, span: Span, message: impl Into<String>) {
        self.report(ctx, span, Severity::Error, message.into(), Vec::new());
    }

    /// A syntax error of a line, with its notes.
    fn syntax_error(&mut self, ctx: &LineCtx, e: &crate::parse::SyntaxError) {
        let (span, message, notes) = (e.span, e.message.clone(), e.notes.clone());
        self.report(ctx, span, Severity::Error, message, notes);
    }

    fn problem(&mut self, ctx: &LineCtx, problem: Problem) {
        match problem {
            Problem::At {
                span,
                message,
                notes,
            } => self.report(ctx, span, Severity::Error, message, notes),
            Problem::Eval(EvalError::DivisionByZero { span }) => {
                self.error(ctx, span, "division by zero")
            }
            Problem::Eval(EvalError::Overflow { span }) => self.error(
                ctx,
                span,
                "value does not fit in 64 bits (the assembler's integers are signed 64-bit)",
            ),
            Problem::Eval(EvalError::Undefined { name, span }) => {
                let notes = Vec::new();
                if encode::reserved_name(self.cpu, self.syntax.dialect, &name) {
                    let message = format!(
                        "'{name}' is a register or condition and cannot be used in an expression"
                    );
                    self.report(ctx, span, Severity::Error, message, notes);
                    return;
                }
                let message = if name.starts_with('@') {
                    let scope = if self.scope.is_empty() {
                        "before any global label".to_string()
                    } else {
                        format!("after '{}'", self.scope)
                    };
                    format!("undefined local label '{name}' ({scope})")
                } else {
                    format!("undefined symbol '{name}'")
                };
                self.report(ctx, span, Severity::Error, message, notes);
                // The "did you mean" note costs a search through all symbols: it is added only
                // to the diagnostics of the final pass (early passes see every forward
                // reference as undefined).
                let full = self.full_name(&name).into_owned();
                self.suggestions.push((self.diagnostics.len() - 1, full));
            }
        }
    }

    fn eval(&mut self, ctx: &LineCtx, expr: &crate::expr::Expr) -> Option<i64> {
        match expr.eval(&*self) {
            Ok(v) => Some(v),
            Err(e) => {
                self.problem(ctx, Problem::Eval(e));
                None
            }
        }
    }

    // -- output -------------------------------------------------------------------------------

    fn emit(&mut self, ctx: &LineCtx, span: Span, bytes: &[u8]) {
        for &b in bytes {
            if self.pc > 0xFFFF {
                if !self.overflow_reported {
                    self.overflow_reported = true;
                    self.error(ctx, span, "code runs past the end of memory ($FFFF)");
                }
                return;
            }
            let a = self.pc as usize;
            if self.written[a] && !self.overlap_reported {
                self.overlap_reported = true;
                let (file, line) = &self.writers[self.writer[a] as usize];
                let note = format!("{file}:{line}: the earlier line that filled ${a:04X}");
                let (severity, message) = match self.overlap {
                    Overlap::Error => (
                        Severity::Error,
                        format!(
                            "overwrites ${a:04X}, which {file}:{line} already filled (overlapping ORG areas)"
                        ),
                    ),
                    Overlap::LaterWins => (
                        Severity::Warning,
                        format!(
                            "overwrites ${a:04X}, which {file}:{line} already filled; the later bytes win (--overlap later-wins)"
                        ),
                    ),
                };
                let mut notes = vec![note];
                if self.overlap == Overlap::Error {
                    notes.push(
                        "with --overlap later-wins the later bytes win, as in zmac".to_string(),
                    );
                }
                self.report(ctx, span, severity, message, notes);
            }
            if self.writers.last() != Some(&(ctx.file.clone(), ctx.line)) {
                self.writers.push((ctx.file.clone(), ctx.line));
            }
            self.writer[a] = (self.writers.len() - 1) as u32;
            self.memory[a] = b;
            self.written[a] = true;
            self.lowest = self.lowest.min(self.pc);
            self.highest = self.highest.max(self.pc);
            if self.line_len == 0 {
                self.line_first = self.pc;
            }
            self.line_len += 1;
            self.pc += 1;
        }
    }

    fn list(&mut self, ctx: &LineCtx, addr: Option<u32>, cycles: Option<Cycles>, skipped: bool) {
        self.listing.push(PendingLine {
            file: ctx.file.clone(),
            line: ctx.line,
            addr: addr.filter(|&a| a <= 0xFFFF).map(|a| a as u16),
            first: self.line_first,
            len: std::mem::take(&mut self.line_len),
            cycles,
            source: ctx.text.clone(),
            macro_depth: self.macro_depth,
            skipped,
        });
    }

    // -- symbols ------------------------------------------------------------------------------

    fn define(&mut self, ctx: &LineCtx, name: &str, span: Span, value: i64, kind: SymbolKind) {
        if !is_identifier(name) {
            let why = if name.starts_with('.') {
                format!("'{name}' is not a symbol name: local labels start with '@'")
            } else {
                format!("'{name}' is not a symbol name")
            };
            self.error(ctx, span, why);
            return;
        }
        if encode::reserved_name(self.cpu, self.syntax.dialect, name) {
            self.error(
                ctx,
                span,
                format!("'{name}' is a register or condition name and cannot be a symbol"),
            );
            return;
        }
        let full = self.full_name(name);
        if let Some(first) = self.symbols.get(full.as_ref()) {
            let mut notes = vec![format!(
                "first defined at {}:{}:{}",
                first.file, first.line, first.col
            )];
            let spelling = self.spelling(name);
            if first.spelling != spelling {
                notes.push(format!(
                    "with --ignore-case, '{}' and '{spelling}' are one symbol",
                    first.spelling
                ));
            }
            self.report(
                ctx,
                span,
                Severity::Error,
                format!("duplicate symbol '{spelling}'"),
                notes,
            );
            return;
        }
        let full: Rc<str> = Rc::from(full.as_ref());
        let (col, _) = columns(&ctx.text, span);
        let def = SymDef {
            spelling: self.spelling(name),
            value,
            kind,
            file: ctx.file.clone(),
            line: ctx.line,
            col,
        };
        self.symbols.insert(full.clone(), def);
        self.order.push(full);
        if kind == SymbolKind::Label && !name.starts_with('@') {
            self.scope.clear();
            self.scope.push_str(name);
        }
    }

    // -- lines --------------------------------------------------------------------------------

    fn run_unit(&mut self, unit: &Unit, notes: &[String]) {
        let notes = Rc::new(notes.to_vec());
        let mut conds: Vec<Cond> = Vec::new();
        let mut recording: Option<Recording> = None;
        for line in &unit.lines {
            if self.ended {
                break;
            }
            let ctx = LineCtx {
                file: unit.file.clone(),
                line: line.number,
                text: line.text.clone(),
                notes: notes.clone(),
            };
            self.syntax.radix = line.radix;
            let stmt = &line.stmt;
            let dir = stmt.directive();
            if let Some(rec) = recording.as_mut() {
                match dir {
                    Some(Dir::EndMacro) => {
                        let rec = recording.take().expect("recording");
                        self.end_macro(rec);
                    }
                    Some(Dir::Macro) => {
                        let span = stmt_span(stmt);
                        self.error(
                            &ctx,
                            span,
                            "MACRO inside a macro definition: nested definitions are not supported",
                        );
                    }
                    _ => rec.def.body.push((line.number, line.text.clone())),
                }
                self.list(&ctx, None, None, false);
                continue;
            }
            let active = conds.last().is_none_or(|c| c.taking);
            if let Some(d @ (Dir::If | Dir::IfDef | Dir::IfNDef | Dir::Else | Dir::EndIf)) = dir {
                if active && let Some((_, span)) = &stmt.label {
                    self.error(
                        &ctx,
                        *span,
                        "a label cannot go on a conditional line; put it on its own line",
                    );
                }
                self.conditional(&ctx, stmt, d, active, &mut conds);
                self.list(&ctx, None, None, !active);
                continue;
            }
            if !active {
                self.list(&ctx, None, None, true);
                continue;
            }
            match dir {
                Some(Dir::Macro) => {
                    recording = self.begin_macro(&ctx, stmt, unit);
                    self.list(&ctx, None, None, false);
                }
                Some(Dir::EndMacro) => {
                    self.error(&ctx, stmt_span(stmt), "ENDM without MACRO");
                    self.list(&ctx, None, None, false);
                }
                _ => self.statement(&ctx, stmt, unit),
            }
        }
        if self.ended {
            return;
        }
        for c in conds {
            self.error(
                &c.ctx,
                c.span,
                "IF without ENDIF: the file ends inside this conditional",
            );
        }
        if let Some(rec) = recording {
            self.error(
                &rec.ctx,
                rec.span,
                format!(
                    "MACRO '{}' without ENDM: the file ends inside this definition",
                    rec.def.name
                ),
            );
        }
    }

    fn conditional(
        &mut self,
        ctx: &LineCtx,
        stmt: &Stmt,
        dir: Dir,
        active: bool,
        conds: &mut Vec<Cond>,
    ) {
        let Body::Dir {
            span,
            args,
            operands_span,
            ..
        } = &stmt.body
        else {
            return;
        };
        match dir {
            Dir::If | Dir::IfDef | Dir::IfNDef => {
                let value = if active {
                    self.condition(ctx, dir, *span, args, *operands_span)
                } else {
                    false
                };
                conds.push(Cond {
                    taking: active && value,
                    taken: !active || value,
                    parent_active: active,
                    else_seen: false,
                    ctx: ctx.clone(),
                    span: *span,
                });
            }
            Dir::Else => match conds.last_mut() {
                None => self.error(ctx, *span, "ELSE without IF"),
                Some(c) => {
                    if c.else_seen {
                        let line = c.ctx.line;
                        self.error(ctx, *span, format!("second ELSE for the IF on line {line}"));
                    }
                    c.else_seen = true;
                    c.taking = c.parent_active && !c.taken;
                    c.taken = true;
                }
            },
            _ => {
                if conds.pop().is_none() {
                    self.error(ctx, *span, "ENDIF without IF");
                }
            }
        }
    }

    fn condition(
        &mut self,
        ctx: &LineCtx,
        dir: Dir,
        span: Span,
        args: &[DirArg],
        operands_span: Span,
    ) -> bool {
        let [arg] = args else {
            let name = if dir == Dir::If { "IF" } else { "IFDEF/IFNDEF" };
            self.error(
                ctx,
                if args.is_empty() { span } else { operands_span },
                format!("{name} takes exactly one operand"),
            );
            return false;
        };
        match dir {
            Dir::If => self
                .number_or(ctx, arg, "IF needs a number, not a string")
                .is_some_and(|v| v != 0),
            _ => {
                if !is_identifier(&arg.raw) {
                    self.error(
                        ctx,
                        arg.span,
                        format!("expected a symbol name, found '{}'", arg.raw),
                    );
                    return false;
                }
                let defined = self.is_defined(&arg.raw);
                if dir == Dir::IfDef { defined } else { !defined }
            }
        }
    }

    fn begin_macro(&mut self, ctx: &LineCtx, stmt: &Stmt, unit: &Unit) -> Option<Recording> {
        let Body::Dir { span, args, .. } = &stmt.body else {
            return None;
        };
        // `name MACRO p1,p2` or `MACRO name p1,p2`.
        let (name, name_span, params): (String, Span, Vec<(String, Span)>) = match &stmt.label {
            Some((name, s)) => (
                name.clone(),
                *s,
                args.iter().map(|a| (a.raw.clone(), a.span)).collect(),
            ),
            None => {
                let Some(first) = args.first() else {
                    self.error(
                        ctx,
                        *span,
                        "MACRO needs a name: 'name MACRO params' or 'MACRO name params'",
                    );
                    return Some(Recording {
                        def: self.empty_macro(unit),
                        ctx: ctx.clone(),
                        span: *span,
                    });
                };
                let mut words = first.raw.splitn(2, char::is_whitespace);
                let name = words.next().unwrap_or_default().to_string();
                let mut params = Vec::new();
                if let Some(p) = words.next() {
                    let p = p.trim();
                    let offset = first.raw.len() - p.len();
                    params.push((
                        p.to_string(),
                        Span::new(first.span.start as usize + offset, first.span.end as usize),
                    ));
                }
                params.extend(args[1..].iter().map(|a| (a.raw.clone(), a.span)));
                (name, first.span, params)
            }
        };
        let mut ok = true;
        if !is_identifier(&name) || name.starts_with('@') {
            self.error(
                ctx,
                name_span,
                format!("'{name}' is not a valid macro name"),
            );
            ok = false;
        } else if stmt::is_operation(&self.syntax, &name) {
            self.error(
                ctx,
                name_span,
                format!("'{name}' is a mnemonic or directive and cannot name a macro"),
            );
            ok = false;
        } else if self.macros.contains_key(&name.to_ascii_uppercase()) {
            self.error(ctx, name_span, format!("macro '{name}' is already defined"));
            ok = false;
        }
        for (p, s) in &params {
            if !is_identifier(p) {
                self.error(ctx, *s, format!("'{p}' is not a valid parameter name"));
            }
        }
        let mut def = self.empty_macro(unit);
        if ok {
            def.name = name;
        }
        def.params = params.into_iter().map(|(p, _)| p).collect();
        Some(Recording {
            def,
            ctx: ctx.clone(),
            span: *span,
        })
    }

    fn empty_macro(&self, unit: &Unit) -> MacroDef {
        MacroDef {
            name: String::new(),
            params: Vec::new(),
            body: Vec::new(),
            file: unit.file.clone(),
            key: unit.key.clone(),
        }
    }

    fn end_macro(&mut self, rec: Recording) {
        if !rec.def.name.is_empty() {
            self.macros
                .insert(rec.def.name.to_ascii_uppercase(), Rc::new(rec.def));
        }
    }

    /// TDL's `.DEFINE`: the macro its lines define (errors of its definition line reported
    /// here, where the pass meets it).
    fn define_macro(&mut self, ctx: &LineCtx, def: &stmt::tdl::Define, unit: &Unit) {
        for e in &def.errors {
            self.syntax_error(ctx, e);
        }
        if self.macro_depth > 0 {
            self.error(
                ctx,
                def.name_span,
                ".DEFINE inside a macro body: nested definitions are not supported",
            );
            return;
        }
        let name = &def.name;
        let why = if !is_identifier(name) || name.starts_with('@') {
            format!("'{name}' is not a valid macro name")
        } else if stmt::is_operation(&self.syntax, name) {
            format!("'{name}' is a mnemonic or directive and cannot name a macro")
        } else if self.macros.contains_key(&name.to_ascii_uppercase()) {
            format!("macro '{name}' is already defined")
        } else {
            String::new()
        };
        if !why.is_empty() {
            self.error(ctx, def.name_span, why);
            return;
        }
        for (p, span) in &def.params {
            if !is_identifier(p) {
                self.error(ctx, *span, format!("'{p}' is not a valid parameter name"));
            }
        }
        let mut made = self.empty_macro(unit);
        made.name = name.clone();
        made.params = def.params.iter().map(|(p, _)| p.clone()).collect();
        made.body = def.body.clone();
        self.macros.insert(name.to_ascii_uppercase(), Rc::new(made));
    }

    fn statement(&mut self, ctx: &LineCtx, stmt: &Stmt, unit: &Unit) {
        self.stmt_pc = self.pc;
        self.line_len = 0;
        self.overlap_reported = false;
        let mut start = self.pc;
        let mut show_addr = false;
        let mut cycles = None;
        if let Some((name, span)) = &stmt.label {
            match &stmt.body {
                Body::Dir { dir: Dir::Equ, .. } => {}
                _ => {
                    self.define(ctx, name, *span, self.pc as i64, SymbolKind::Label);
                    show_addr = true;
                }
            }
        }
        match &stmt.body {
            Body::Empty => {}
            Body::Error(e) => self.syntax_error(ctx, e),
            Body::Define(def) => self.define_macro(ctx, def, unit),
            Body::Instr {
                mnemonic,
                span,
                operands,
                operands_span,
            } => {
                show_addr = true;
                match operands {
                    Err(e) => self.syntax_error(ctx, e),
                    Ok(ops) => {
                        let (encoded, problems) = encode::encode(
                            self.cpu,
                            self.syntax.dialect,
                            mnemonic,
                            ops,
                            *operands_span,
                            &*self,
                            self.pc,
                        );
                        for p in problems {
                            self.problem(ctx, p);
                        }
                        if let Some(enc) = encoded {
                            cycles = Some(enc.instr.cycles);
                            self.emit(ctx, *span, &enc.bytes);
                        }
                    }
                }
            }
            Body::Dir {
                dir,
                span,
                args,
                operands_span,
            } => {
                let name = ctx
                    .text
                    .get(span.start as usize..span.end as usize)
                    .unwrap_or("directive")
                    .to_ascii_uppercase();
                let line = DirLine {
                    ctx,
                    stmt,
                    dir: *dir,
                    name,
                    span: *span,
                    args,
                    operands_span: *operands_span,
                    unit,
                };
                show_addr |= self.directive(&line);
                if *dir == Dir::Org {
                    start = self.pc;
                }
            }
            Body::Call { name, span, args } => {
                self.list(ctx, show_addr.then_some(start), None, false);
                self.call(ctx, name, *span, args);
                return;
            }
        }
        self.list(ctx, show_addr.then_some(start), cycles, false);
    }

    fn unknown_operation(&mut self, ctx: &LineCtx, name: &str, span: Span) {
        if name.starts_with('.') {
            let notes = self.unknown_directive_notes(name);
            let message = format!("unknown directive '{name}'");
            self.report(ctx, span, Severity::Error, message, notes);
            return;
        }
        let mut notes = self.foreign_mnemonic_notes(name);
        let mnemonics = if self.syntax.tdl() {
            isa::tdl::mnemonics()
        } else {
            isa::mnemonics(self.cpu)
        };
        let macro_names: Vec<String> = self.macros.values().map(|m| m.name.clone()).collect();
        let tdl_directives = stmt::TDL_DIRECTIVES
            .iter()
            .map(|(n, _)| *n)
            .filter(|_| self.syntax.tdl());
        let candidates = mnemonics
            .iter()
            .copied()
            .chain(
                stmt::DIRECTIVES
                    .iter()
                    .map(|(n, _)| *n)
                    .filter(|n| *n != "*=" && *n != "="),
            )
            .chain(tdl_directives)
            .chain(macro_names.iter().map(String::as_str));
        if let Some(close) = forms::closest(name, candidates) {
            notes.push(format!("did you mean '{close}'?"));
        }
        self.report(
            ctx,
            span,
            Severity::Error,
            format!("unknown mnemonic '{name}'"),
            notes,
        );
    }

    /// The notes of an unknown directive: whose it is and what to write.
    fn unknown_directive_notes(&self, name: &str) -> Vec<String> {
        let upper = name.to_ascii_uppercase();
        let mut notes = Vec::new();
        if self.syntax.tdl() {
            if foreign::is_tdl_pseudo_op(name) {
                notes.push(format!(
                    "{upper} is a TDL pseudo-operation that Kempelen's TDL dialect does not take; it takes {}",
                    foreign::TDL_TAKEN
                ));
            }
        } else if let Some(hint) = foreign::other_directive(name) {
            notes.push(format!("{upper} is another assembler's directive: {hint}"));
        }
        notes.push("Kempelen's directives are listed in docs/ASSEMBLER.md".to_string());
        notes
    }

    /// The notes of an unknown mnemonic that is another syntax's or CPU's: what to write.
    fn foreign_mnemonic_notes(&self, name: &str) -> Vec<String> {
        let upper = name.to_ascii_uppercase();
        let mut notes = Vec::new();
        match self.cpu {
            Cpu::Z80 if self.syntax.tdl() => {
                let tdl = isa::tdl::spellings_of(&upper);
                if !tdl.is_empty() {
                    notes.push(format!(
                        "'{upper}' is a Zilog mnemonic; TDL's syntax (--dialect tdl) writes {}",
                        tdl.join(", ")
                    ));
                }
            }
            Cpu::Z80 => {
                if let Some(zilog) = foreign::intel_8080(name) {
                    notes.push(format!(
                        "'{upper}' is an Intel 8080 (or TDL) mnemonic; Kempelen takes Zilog mnemonics: write {zilog}"
                    ));
                    notes.push(
                        "a source in TDL's syntax (the 1978 Sargon book's) assembles with --dialect tdl"
                            .to_string(),
                    );
                } else if isa::is_mnemonic(Cpu::Mos6502, name) {
                    notes.push(format!(
                        "'{upper}' is a 6502 mnemonic, but this source is assembled for the Z80 (--cpu)"
                    ));
                } else if let Some(hint) = foreign::other_directive(name) {
                    notes.push(format!("{upper} is another assembler's directive: {hint}"));
                }
            }
            Cpu::Mos6502 if isa::is_mnemonic(Cpu::Cmos65c02, name) => notes.push(format!(
                "'{upper}' is a 65C02 instruction; the NMOS 6502 does not have it (assemble with --cpu 65c02)"
            )),
            Cpu::Mos6502 | Cpu::Cmos65c02 => {
                if isa::is_mnemonic(Cpu::Z80, name) {
                    notes.push(format!(
                        "'{upper}' is a Z80 mnemonic, but this source is assembled for the {} (--cpu)",
                        self.cpu.title()
                    ));
                }
            }
        }
        notes
    }

    fn call(&mut self, ctx: &LineCtx, name: &str, span: Span, args: &[(String, Span)]) {
        let Some(def) = self.macros.get(&name.to_ascii_uppercase()).cloned() else {
            self.unknown_operation(ctx, name, span);
            return;
        };
        if args.len() != def.params.len() {
            let params = if def.params.is_empty() {
                String::new()
            } else {
                format!(" ({})", def.params.join(", "))
            };
            self.error(
                ctx,
                span,
                format!(
                    "macro '{}' takes {} argument{}{params}, {} given",
                    def.name,
                    def.params.len(),
                    if def.params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
            );
            return;
        }
        if self.macro_depth >= MAX_MACRO_DEPTH {
            self.error(
                ctx,
                span,
                format!(
                    "macro calls nested more than {MAX_MACRO_DEPTH} deep (does '{}' call itself?)",
                    def.name
                ),
            );
            return;
        }
        if self.expansions >= MAX_EXPANSIONS {
            self.error(
                ctx,
                span,
                format!("more than {MAX_EXPANSIONS} macro calls in one pass (runaway macro?)"),
            );
            self.ended = true;
            return;
        }
        self.expansions += 1;
        let mut texts = Vec::with_capacity(def.body.len());
        for (number, text) in &def.body {
            let room = MAX_EXPANDED_BYTES.saturating_sub(self.expanded_bytes);
            let Some(expanded) = substitute(text, &def.params, args, room) else {
                self.error(
                    ctx,
                    span,
                    format!(
                        "macro expansion exceeds {} MiB of text in one pass (runaway macro?)",
                        MAX_EXPANDED_BYTES >> 20
                    ),
                );
                self.ended = true;
                return;
            };
            self.expanded_bytes += expanded.len() + 1;
            texts.push((*number, Some(Arc::<str>::from(expanded))));
        }
        let parsed = stmt::parse_lines(self.syntax, &texts);
        let lines = texts
            .into_iter()
            .zip(parsed)
            .map(|((number, text), parsed)| UnitLine {
                number,
                text: text.expect("expansions are UTF-8"),
                stmt: parsed.stmt,
                radix: parsed.radix,
            })
            .collect();
        let unit = Unit {
            key: def.key.clone(),
            file: def.file.clone(),
            lines,
        };
        let (col, _) = columns(&ctx.text, span);
        let mut notes = vec![format!(
            "in macro '{}' called at {}:{}:{}",
            def.name, ctx.file, ctx.line, col
        )];
        notes.extend(ctx.notes.iter().cloned());
        let saved_scope =
            std::mem::replace(&mut self.scope, format!("{}#{}", def.name, self.expansions));
        self.macro_depth += 1;
        self.run_unit(&unit, &notes);
        self.macro_depth -= 1;
        self.scope = saved_scope;
    }
}

fn stmt_span(stmt: &Stmt) -> Span {
    match &stmt.body {
        Body::Define(def) => def.name_span,
        Body::Dir { span, .. } | Body::Instr { span, .. } | Body::Call { span, .. } => *span,
        Body::Error(e) => e.span,
        Body::Empty => Span::default(),
    }
}
