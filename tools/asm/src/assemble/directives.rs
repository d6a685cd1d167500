//! The directives, one function each: what a `DB`, `ORG`, `INCLUDE` ... line does in a pass.
//!
//! [`Pass::directive`] reads the line's directive and hands it to its function; each returns
//! whether the listing shows the line's address. Conditionals and macro definitions are not
//! here: they change which lines are assembled, so `run_unit` handles them.

use super::stmt::{Dir, DirArg, DirValue, Stmt};
use super::{LineCtx, Pass, Unit};
use crate::Cpu;
use crate::diag::Severity;
use crate::expr::Span;
use crate::source::SourceError;
use crate::symbols::SymbolKind;

/// One directive line, as its function sees it.
pub(super) struct DirLine<'l> {
    pub ctx: &'l LineCtx,
    pub stmt: &'l Stmt,
    pub dir: Dir,
    /// The directive as written, in capitals (`DB`, `.BYTE`), for messages.
    pub name: String,
    /// The directive word.
    pub span: Span,
    pub args: &'l [DirArg],
    /// Everything after the directive.
    pub operands_span: Span,
    pub unit: &'l Unit,
}

impl DirLine<'_> {
    /// The place of a "takes N operands" error: the operands, or the directive when there are
    /// none.
    fn count_span(&self) -> Span {
        if self.args.is_empty() {
            self.span
        } else {
            self.operands_span
        }
    }
}

/// The file name of an `INCLUDE`/`INCBIN` operand: quoted or bare.
pub(super) fn file_name(arg: &DirArg) -> &str {
    let raw = arg.raw.as_str();
    for q in ['"', '\''] {
        if raw.len() >= 2 && raw.starts_with(q) && raw.ends_with(q) {
            return &raw[1..raw.len() - 1];
        }
    }
    raw
}

impl Pass<'_> {
    /// Handles a directive; returns whether the listing should show the address.
    pub(super) fn directive(&mut self, d: &DirLine) -> bool {
        match d.dir {
            Dir::Org => self.dir_org(d),
            Dir::Equ => self.dir_equ(d),
            Dir::Byte | Dir::Word => self.dir_data(d),
            Dir::Space | Dir::Align => self.dir_space(d),
            Dir::Include => self.dir_include(d),
            Dir::Incbin => self.dir_incbin(d),
            Dir::End => {
                self.ended = true;
                if self.macro_depth == 0 {
                    self.end_at = Some((d.ctx.clone(), d.span, d.unit.key.clone()));
                }
                false
            }
            Dir::Error => self.dir_error(d),
            Dir::Page => true,
            Dir::CpuCheck => self.dir_cpu(d),
            Dir::Export => false,
            Dir::Import => self.dir_import(d),
            Dir::Feature => self.dir_feature(d),
            Dir::Segment => self.dir_segment(d),
            Dir::ReserveBytes | Dir::ReserveWords => self.dir_reserve(d),
            Dir::Ascii | Dir::AsciiZ | Dir::AsciiS => self.dir_ascii(d),
            // Read when the file was parsed.
            Dir::Radix | Dir::Define => false,
            // Handled by run_unit.
            Dir::If
            | Dir::IfDef
            | Dir::IfNDef
            | Dir::Else
            | Dir::EndIf
            | Dir::Macro
            | Dir::EndMacro => false,
        }
    }

    /// `NAME takes what` at the operands (or the directive when there are none).
    fn count_error(&mut self, d: &DirLine, what: &str) {
        let message = format!("{} takes {what}", d.name);
        self.error(d.ctx, d.count_span(), message);
    }

    /// The one operand of a directive that takes exactly one, or the count error.
    fn one_arg<'l>(&mut self, d: &DirLine<'l>, what: &str) -> Option<&'l DirArg> {
        match d.args {
            [arg] => Some(arg),
            _ => {
                self.count_error(d, what);
                None
            }
        }
    }

    /// `ORG addr`.
    fn dir_org(&mut self, d: &DirLine) -> bool {
        let Some(arg) = self.one_arg(d, "one operand, the address") else {
            return false;
        };
        if let Some(v) = self.number(d.ctx, arg) {
            if (0..=0xFFFF).contains(&v) {
                self.pc = v as u32;
            } else {
                let message = format!("address {v} out of range (0..$FFFF)");
                self.error(d.ctx, arg.span, message);
            }
        }
        true
    }

    /// `NAME EQU value`, `NAME = value`.
    fn dir_equ(&mut self, d: &DirLine) -> bool {
        let Some((label, label_span)) = &d.stmt.label else {
            let name = &d.name;
            let message = format!("{name} needs a label: 'NAME {name} value'");
            self.error(d.ctx, d.span, message);
            return false;
        };
        let Some(arg) = self.one_arg(d, "one operand, the value") else {
            return false;
        };
        if let Some(v) = self.number(d.ctx, arg) {
            self.define(d.ctx, label, *label_span, v, SymbolKind::Constant);
        }
        false
    }

    /// `DB`/`DW` and their spellings: bytes and strings, or words.
    fn dir_data(&mut self, d: &DirLine) -> bool {
        if d.args.is_empty() {
            self.count_error(d, "at least one value");
        }
        let byte = d.dir == Dir::Byte;
        for arg in d.args {
            match &arg.value {
                Ok(DirValue::Str(bytes)) if byte => self.data_string(d.ctx, arg, bytes),
                Ok(DirValue::Str(_)) => {
                    let message = format!("{} takes numbers; strings go in DB", d.name);
                    self.error(d.ctx, arg.span, message);
                }
                Ok(DirValue::Expr(e)) => {
                    let v = self.eval(d.ctx, e);
                    let (range, what) = if byte {
                        (-128..=255, "a byte (-128..255)")
                    } else {
                        (-32768..=65535, "a word (-32768..65535)")
                    };
                    let v = match v {
                        Some(v) if range.contains(&v) => v,
                        Some(v) => {
                            let message = format!("value {v} does not fit in {what}");
                            self.error(d.ctx, arg.span, message);
                            0
                        }
                        None => 0,
                    };
                    if byte {
                        self.emit(d.ctx, arg.span, &[v as u8]);
                    } else {
                        self.emit(d.ctx, arg.span, &(v as u16).to_le_bytes());
                    }
                }
                Err(e) => {
                    self.error(d.ctx, e.span, e.message.clone());
                    let size = if byte { 1 } else { 2 };
                    self.emit(d.ctx, arg.span, &vec![0; size]);
                }
            }
        }
        true
    }

    /// A string of a `DB`: its bytes, or an error at its first character that is not ASCII
    /// (and as many zeros, so that addresses stay).
    fn data_string(&mut self, ctx: &LineCtx, arg: &DirArg, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        match text.char_indices().find(|(_, c)| !c.is_ascii()) {
            Some((at, c)) => {
                // The string's first byte follows its quote.
                let start = arg.span.start as usize + 1 + at;
                let span = Span::new(start, start + c.len_utf8());
                self.error(ctx, span, crate::parse::not_ascii(c));
                self.emit(ctx, arg.span, &vec![0; bytes.len()]);
            }
            None => self.emit(ctx, arg.span, bytes),
        }
    }

    /// `DS count[, fill]` and `ALIGN boundary[, fill]`.
    fn dir_space(&mut self, d: &DirLine) -> bool {
        let space = d.dir == Dir::Space;
        let (count_arg, fill_arg) = match d.args {
            [c] => (c, None),
            [c, f] => (c, Some(f)),
            _ => {
                let what = if space {
                    "a count and an optional fill byte"
                } else {
                    "a boundary and an optional fill byte"
                };
                self.count_error(d, what);
                return false;
            }
        };
        let fill = match fill_arg {
            None => 0,
            Some(f) => self.fill_byte(d.ctx, f),
        };
        let Some(n) = self.number(d.ctx, count_arg) else {
            return true;
        };
        // A count of bytes (0 to 64 KB), or the boundary to align to (1 to 64 KB).
        let (what, least) = if space { ("count", 0) } else { ("boundary", 1) };
        if !(least..=0x10000).contains(&n) {
            let message = format!("{what} {n} out of range ({least}..65536)");
            self.error(d.ctx, count_arg.span, message);
            return true;
        }
        let count = if space {
            n as u32
        } else {
            (n as u32 - self.pc % n as u32) % n as u32
        };
        self.emit(d.ctx, count_arg.span, &vec![fill; count as usize]);
        true
    }

    /// The fill byte of `DS` or `ALIGN` (0 when it is not a byte, after the error).
    fn fill_byte(&mut self, ctx: &LineCtx, f: &DirArg) -> u8 {
        match self.number(ctx, f) {
            Some(v) if (-128..=255).contains(&v) => v as u8,
            Some(v) => {
                let message = format!("fill value {v} does not fit in a byte (-128..255)");
                self.error(ctx, f.span, message);
                0
            }
            None => 0,
        }
    }

    /// `INCLUDE "file"`.
    fn dir_include(&mut self, d: &DirLine) -> bool {
        if let Some(arg) = self.one_arg(d, "one operand, the file name") {
            self.include(d.ctx, arg, d.unit);
        }
        false
    }

    /// `INCBIN "file"`.
    fn dir_incbin(&mut self, d: &DirLine) -> bool {
        let Some(arg) = self.one_arg(d, "one operand, the file name") else {
            return false;
        };
        let key = self.provider.resolve(Some(&d.unit.key), file_name(arg));
        match self.cache.binary(self.provider, &key) {
            Ok(bytes) => self.emit(d.ctx, arg.span, &bytes),
            Err(e) => self.file_error(d.ctx, arg, &key, e),
        }
        true
    }

    /// `ERROR "text"`: the text as an error.
    fn dir_error(&mut self, d: &DirLine) -> bool {
        let text: Vec<String> = d
            .args
            .iter()
            .map(|a| match &a.value {
                Ok(DirValue::Str(s)) => String::from_utf8_lossy(s).into_owned(),
                _ => a.raw.clone(),
            })
            .collect();
        let message = if text.is_empty() {
            "ERROR directive".to_string()
        } else {
            text.join(", ")
        };
        self.error(d.ctx, d.span, message);
        false
    }

    /// `CPU name`, `.SETCPU "name"`: must name the CPU assembled for.
    fn dir_cpu(&mut self, d: &DirLine) -> bool {
        let Some(arg) = self.one_arg(d, "one operand, the CPU name") else {
            return false;
        };
        let wanted = arg.raw.trim().trim_matches('"');
        match wanted.parse::<Cpu>() {
            Ok(cpu) if cpu == self.cpu => {}
            Ok(cpu) => self.report(
                d.ctx,
                arg.span,
                Severity::Error,
                format!(
                    "this source is written for the {} ({} {wanted}), but it is assembled for the {}",
                    cpu.title(),
                    d.name,
                    self.cpu.title()
                ),
                vec![format!("assemble it with --cpu {}", cpu.name())],
            ),
            Err(_) => self.error(
                d.ctx,
                arg.span,
                format!("unknown CPU '{wanted}' (Kempelen assembles z80, 6502 and 65c02)"),
            ),
        }
        true
    }

    /// TDL's `.BLKB n` and `.BLKW n`: `n` bytes or words reserved; nothing is written, so
    /// they are not in the image unless other lines fill them.
    fn dir_reserve(&mut self, d: &DirLine) -> bool {
        let Some(arg) = self.one_arg(d, "one operand, the count") else {
            return false;
        };
        let Some(n) = self.number(d.ctx, arg) else {
            return true;
        };
        let width = if d.dir == Dir::ReserveWords { 2 } else { 1 };
        if !(0..=0x10000 / width).contains(&n) {
            let message = format!("count {n} out of range (0..{})", 0x10000 / width);
            self.error(d.ctx, arg.span, message);
            return true;
        }
        let end = self.pc + (n * width) as u32;
        if end > 0x10000 && !self.overflow_reported {
            self.overflow_reported = true;
            self.error(d.ctx, arg.span, "reserves past the end of memory ($FFFF)");
        }
        self.pc = end.min(0x10000);
        true
    }

    /// TDL's `.ASCII`, `.ASCIZ` (a zero byte after) and `.ASCIS` (bit 7 set in the last
    /// byte): the characters of strings, and byte values.
    fn dir_ascii(&mut self, d: &DirLine) -> bool {
        if d.args.is_empty() {
            self.count_error(d, "at least one string or value");
            return false;
        }
        let mut bytes = Vec::new();
        for arg in d.args {
            match &arg.value {
                Ok(DirValue::Str(text)) => match std::str::from_utf8(text)
                    .ok()
                    .and_then(|t| t.char_indices().find(|(_, c)| !c.is_ascii()))
                {
                    Some((at, c)) => {
                        let start = arg.span.start as usize + 1 + at;
                        let span = Span::new(start, start + c.len_utf8());
                        self.error(d.ctx, span, crate::parse::not_ascii(c));
                        bytes.extend(std::iter::repeat_n(0, text.len()));
                    }
                    None => bytes.extend_from_slice(text),
                },
                Ok(DirValue::Expr(e)) => {
                    let v = match self.eval(d.ctx, e) {
                        Some(v) if (-128..=255).contains(&v) => v,
                        Some(v) => {
                            let message = format!("value {v} does not fit in a byte (-128..255)");
                            self.error(d.ctx, arg.span, message);
                            0
                        }
                        None => 0,
                    };
                    bytes.push(v as u8);
                }
                Err(e) => {
                    self.syntax_error(d.ctx, e);
                    bytes.push(0);
                }
            }
        }
        match d.dir {
            Dir::AsciiZ => bytes.push(0),
            Dir::AsciiS => {
                if let Some(last) = bytes.last_mut() {
                    *last |= 0x80;
                }
            }
            _ => {}
        }
        self.emit(d.ctx, d.operands_span, &bytes);
        true
    }

    /// `.IMPORT names`: each must be defined by the end of the pass.
    fn dir_import(&mut self, d: &DirLine) -> bool {
        for arg in d.args {
            let name = arg.raw.trim();
            let name = name.split(':').next().unwrap_or(name).trim();
            self.imports
                .push((d.ctx.clone(), arg.span, name.to_string()));
        }
        false
    }

    /// `.FEATURE name`: the ca65 switches Kempelen always has are accepted.
    fn dir_feature(&mut self, d: &DirLine) -> bool {
        for arg in d.args {
            let feature = arg.raw.split_whitespace().next().unwrap_or("");
            let on = !arg.raw.trim_end().ends_with('-');
            let built_in = matches!(
                feature.to_ascii_lowercase().as_str(),
                "labels_without_colons" | "pc_assignment" | "dollar_is_pc"
            );
            if !(built_in && on) {
                self.report(
                    d.ctx,
                    arg.span,
                    Severity::Error,
                    format!("ca65 feature '{}' is not supported", arg.raw.trim()),
                    vec![
                        "Kempelen always accepts labels without colons (in column 1), '*=' and '$' as the current address; it has no other ca65 features".to_string(),
                    ],
                );
            }
        }
        false
    }

    /// `.SEGMENT "name"`: refused.
    fn dir_segment(&mut self, d: &DirLine) -> bool {
        self.report(
            d.ctx,
            d.span,
            Severity::Error,
            format!("{} is a ca65 linker segment, which Kempelen does not have", d.name),
            vec![
                "ld65 places segments from its linker configuration; Kempelen assembles one program to absolute addresses: replace the segments by ORG, or assemble with ca65 and ld65".to_string(),
            ],
        );
        false
    }

    /// An `END` before the end of its file whose lines after it define labels: those lines
    /// are not assembled. An error at the `END` when the program uses (and misses) some of
    /// them, else a warning (the undefined symbols alone would not point at the `END`, and a
    /// program cut short by it assembles without a word).
    pub(super) fn report_early_end(&mut self) {
        let Some((ctx, span, key)) = self.end_at.take() else {
            return;
        };
        let Some(Ok(unit)) = self.cache.units.get(&key).cloned() else {
            return;
        };
        let fold = |n: &str| {
            if self.ignore_case {
                n.to_ascii_lowercase()
            } else {
                n.to_string()
            }
        };
        let after: Vec<&str> = unit
            .lines
            .iter()
            .filter(|l| l.number > ctx.line)
            .filter_map(|l| l.stmt.label.as_ref().map(|(n, _)| n.as_str()))
            .collect();
        if after.is_empty() {
            return;
        }
        let folded: std::collections::HashSet<String> = after.iter().map(|n| fold(n)).collect();
        let mut missed: Vec<&str> = Vec::new();
        for (_, name) in &self.suggestions {
            if folded.contains(&fold(name)) && !missed.contains(&name.as_str()) {
                missed.push(name);
            }
        }
        let list = |names: &[&str]| {
            let shown: Vec<String> = names.iter().take(3).map(|n| format!("'{n}'")).collect();
            match names.len() {
                n if n > 3 => format!("{} and {} more", shown.join(", "), n - 3),
                _ => shown.join(", "),
            }
        };
        let end = ctx
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("END")
            .to_ascii_uppercase();
        let lines = unit.lines.iter().filter(|l| l.number > ctx.line).count();
        let (severity, message) = if missed.is_empty() {
            (
                Severity::Warning,
                format!(
                    "{end} stops the program here: the {lines} lines after it, which define {}, are not assembled",
                    list(&after)
                ),
            )
        } else {
            (
                Severity::Error,
                format!(
                    "{end} stops the program here, but lines after it define {}, which the program uses",
                    list(&missed)
                ),
            )
        };
        let note = format!(
            "nothing after {end} is assembled: move it to the end of the program, or delete it"
        );
        self.report(&ctx, span, severity, message, vec![note]);
    }

    /// The value of a directive operand that must be a number.
    pub(super) fn number(&mut self, ctx: &LineCtx, arg: &DirArg) -> Option<i64> {
        self.number_or(ctx, arg, "expected a number, found a string")
    }

    /// [`Self::number`] with `for_string` as the error for a string.
    pub(super) fn number_or(
        &mut self,
        ctx: &LineCtx,
        arg: &DirArg,
        for_string: &str,
    ) -> Option<i64> {
        match &arg.value {
            Ok(DirValue::Expr(e)) => self.eval(ctx, e),
            Ok(DirValue::Str(_)) => {
                self.error(ctx, arg.span, for_string);
                None
            }
            Err(e) => {
                self.error(ctx, e.span, e.message.clone());
                None
            }
        }
    }

    fn file_error(&mut self, ctx: &LineCtx, arg: &DirArg, key: &str, e: SourceError) {
        let message = match e {
            SourceError::NotFound(_) => {
                format!("file '{}' not found (looked for '{key}')", file_name(arg))
            }
            other => other.to_string(),
        };
        self.error(ctx, arg.span, message);
    }

    fn include(&mut self, ctx: &LineCtx, arg: &DirArg, unit: &Unit) {
        let key = self.provider.resolve(Some(&unit.key), file_name(arg));
        if let Some(pos) = self.include_stack.iter().position(|k| *k == key) {
            let mut chain: Vec<&str> = self.include_stack[pos..]
                .iter()
                .map(String::as_str)
                .collect();
            chain.push(&key);
            let message = format!("include cycle: {}", chain.join(" -> "));
            self.error(ctx, arg.span, message);
            return;
        }
        if self.include_stack.len() >= super::MAX_INCLUDE_DEPTH {
            let message = format!(
                "includes nested more than {} deep",
                super::MAX_INCLUDE_DEPTH
            );
            self.error(ctx, arg.span, message);
            return;
        }
        // Every file starts in radix 10.
        let syntax = super::Syntax {
            radix: 10,
            ..self.syntax
        };
        match self.cache.unit(syntax, self.provider, &key) {
            Ok(included) => {
                self.include_stack.push(key);
                let notes: Vec<String> = ctx.notes.to_vec();
                self.run_unit(&included, &notes);
                self.include_stack.pop();
            }
            Err(e) => self.file_error(ctx, arg, &key, e),
        }
    }
}
