//! The program's own state, named as its listing names it: the variables and tables an
//! adaptor file declares (`[[variable]]`), decoded from the machine at every stop of a
//! debugger ([`crate::session`]). A new variable is a line of the adaptor file:
//!
//! ```toml
//! [[variable]]
//! name = "NPLY"               # the listing's name (shown)
//! type = "byte"               # byte, sbyte (signed), word, square, board, move, moves, table
//! at = "NPLY"                 # a symbol or an address, with an offset (`SCORE+1`)
//! note = "the ply being searched"
//! ```
//!
//! - `byte`, `sbyte`, `word`: a number `at` an address; declared, the name can be used in the
//!   expressions of the variables after it and of `[tree]` ([`crate::expr`]).
//! - `square`: a byte `at` an address read as a square (`squares = "10x12"` or
//!   `"microchess"`; `turned`: an expression, non-zero while the program sees its board from
//!   the other side).
//! - `board`: the program's board as `[ram_board]` or `[pieces]` describe it (`turned` as for
//!   a square).
//! - `move`: one move: `from`, `to` and optionally `flags` and `value`, each an expression, or
//!   with `entry` (an expression: the address of a move-list entry, 0 for none) a byte offset
//!   in the entry; `squares`, `turned`.
//! - `moves`: a move list: entries from `first` (an expression) either `size` bytes apart up
//!   to `end`, or linked through the word at offset `link` (0 ends the list); at most `max`
//!   (default 256); `current` (an expression) marks one entry; the fields as for `move`.
//! - `table`: `count` entries (an expression) of type `of` (byte, sbyte, word) from `at`,
//!   `stride` bytes apart (default: the entry's size), numbered from `index` (default 0),
//!   each a word pointing at a move entry when `points_to` names a `move` variable with
//!   `entry` (its fields decode the entry).

use kempelen_emulator::Machine;
use serde::{Deserialize, Serialize};

use crate::description::{Adaptor, ByteSquares};
use crate::expr::{Expr, Machineish, Names, WithCounters};

/// `[[count]]` as the file gives it: how often the instruction at a point of the program ran
/// in its turn (from 0 as the turn begins; the machine counts it exactly, whatever runs or
/// steps the program); `modulo` makes it wrap (2: a flag that each pass turns over, such as
/// Microchess's board turned round by every REVERSE).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct CountSpec {
    name: String,
    at: String,
    modulo: Option<u32>,
    note: Option<String>,
}

/// A counter of passes through a point of the program (`[[count]]`).
#[derive(Clone, Debug)]
pub struct Counter {
    /// Its name in expressions.
    pub name: String,
    /// The point.
    pub at: u16,
    /// It wraps at this value.
    pub modulo: Option<u32>,
    /// What it means.
    pub note: Option<String>,
}

/// The counters' values on `m`, from the executions it counted since the turn began.
pub fn count_values(counters: &[Counter], m: &Machine) -> Vec<(String, i64)> {
    let counts = m.execution_counts();
    counters
        .iter()
        .map(|c| {
            let n = counts
                .iter()
                .find(|(a, _)| *a == c.at)
                .map_or(0, |(_, n)| *n as i64);
            let v = match c.modulo {
                Some(k) if k > 0 => n % i64::from(k),
                _ => n,
            };
            (c.name.clone(), v)
        })
        .collect()
}

/// The counters as decoded variables.
pub fn counters_decoded(counters: &[Counter], values: &[(String, i64)]) -> Vec<VariableValue> {
    counters
        .iter()
        .zip(values)
        .map(|(c, (_, v))| VariableValue {
            name: c.name.clone(),
            kind: "count",
            at: Some(c.at),
            note: c.note.clone(),
            text: v.to_string(),
            value: Decoded::Number(*v),
        })
        .collect()
}

/// Reads `[[count]]`, declaring each name for the expressions after it.
pub(crate) fn resolve_counts(
    specs: &[CountSpec],
    names: &mut Names,
    symbol: &dyn Fn(&str) -> Result<u16, String>,
) -> Result<Vec<Counter>, String> {
    specs
        .iter()
        .map(|c| {
            names.declare_counter(&c.name);
            Ok(Counter {
                name: c.name.clone(),
                at: symbol(&c.at).map_err(|e| format!("[[count]] `{}`: {e}", c.name))?,
                modulo: c.modulo,
                note: c.note.clone(),
            })
        })
        .collect()
}

/// A field of a move: a byte offset in the entry, or an expression.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub(crate) enum Field {
    Offset(u16),
    Expr(String),
}

/// `[[variable]]` as the file gives it.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct VariableSpec {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    at: Option<String>,
    note: Option<String>,
    entry: Option<String>,
    first: Option<String>,
    end: Option<String>,
    link: Option<u16>,
    size: Option<u16>,
    max: Option<u16>,
    from: Option<Field>,
    to: Option<Field>,
    flags: Option<Field>,
    value: Option<Field>,
    squares: Option<String>,
    turned: Option<String>,
    current: Option<String>,
    of: Option<String>,
    count: Option<String>,
    stride: Option<u16>,
    index: Option<i64>,
    points_to: Option<String>,
}

/// How a move is read: from an entry of a move list, or from expressions.
#[derive(Clone, Debug)]
pub(crate) struct MoveLayout {
    /// The entry's address (`None`: the fields are plain expressions).
    pub(crate) entry: Option<Expr>,
    pub(crate) from: Expr,
    pub(crate) to: Expr,
    pub(crate) flags: Option<Expr>,
    pub(crate) value: Option<Expr>,
    pub(crate) squares: ByteSquares,
    pub(crate) turned: Option<Expr>,
}

#[derive(Clone, Debug)]
enum Kind {
    /// `b` byte, `s` signed byte, `w` word.
    Scalar(u16, char),
    Square(u16, ByteSquares, Option<Expr>),
    Board(Option<Expr>),
    Move(MoveLayout),
    Moves {
        first: Expr,
        end: Option<Expr>,
        link: Option<u16>,
        size: u16,
        max: u16,
        current: Option<Expr>,
        layout: MoveLayout,
    },
    Table {
        at: u16,
        of: char,
        stride: u16,
        count: Expr,
        index: i64,
        points_to: Option<MoveLayout>,
    },
}

/// A declared variable, resolved.
#[derive(Clone, Debug)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// What it is, in words.
    pub note: Option<String>,
    kind: Kind,
}

/// A variable decoded at a stop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VariableValue {
    /// Its name.
    pub name: String,
    /// `byte`, `sbyte`, `word`, `square`, `board`, `move`, `moves`, `table`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Its address, where it has one.
    pub at: Option<u16>,
    /// What it is, in words.
    pub note: Option<String>,
    /// The value in one or more lines of text.
    pub text: String,
    /// The value as data.
    pub value: Decoded,
}

/// A decoded value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decoded {
    /// A number.
    Number(i64),
    /// A square (`None`: the byte is no square, such as a captured piece's).
    Square {
        /// The byte.
        byte: u8,
        /// The square.
        square: Option<String>,
    },
    /// A board: FEN placement and the eight ranks, the eighth first.
    Board {
        /// The placement.
        placement: String,
        /// Ranks as text (`r n b q k b n r`).
        ranks: Vec<String>,
    },
    /// A move.
    Move(Option<MoveEntry>),
    /// A list of moves.
    Moves(Vec<MoveEntry>),
    /// Table rows.
    Table(Vec<TableRow>),
    /// The variable could not be read now (a register the core hides, no board yet, ...).
    Unreadable(String),
}

/// One move as the program holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// The entry's address, for a move-list entry.
    pub at: Option<u16>,
    /// The "from" byte.
    pub from: u8,
    /// The "to" byte.
    pub to: u8,
    /// The squares (`e2e4`), when both bytes are squares.
    pub squares: Option<String>,
    /// The flags byte.
    pub flags: Option<u8>,
    /// The value.
    pub value: Option<i64>,
    /// The entry `current` names.
    pub current: bool,
}

/// One row of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRow {
    /// Its number.
    pub index: i64,
    /// Its address.
    pub at: u16,
    /// The value.
    pub value: i64,
    /// The move it points at.
    pub points_to: Option<MoveEntry>,
}

/// What a decoder needs besides the machine: the adaptor (its board) and the program's
/// colour (Microchess turns its squares round when it plays Black).
pub struct Context<'a> {
    /// The adaptor.
    pub adaptor: &'a Adaptor,
    /// The program plays Black.
    pub program_black: bool,
    /// The counters' values now.
    pub counters: &'a [(String, i64)],
}

/// Reads the declarations in order, each resolved with the symbols and the variables before
/// it; `what(i)` names the `i`th declaration in errors.
pub(crate) fn resolve(
    specs: &[VariableSpec],
    names: &mut Names,
    symbol: &dyn Fn(&str) -> Result<u16, String>,
) -> Result<Vec<Variable>, String> {
    let mut out: Vec<Variable> = Vec::new();
    for s in specs {
        let v = resolve_one(s, names, symbol, &out)
            .map_err(|e| format!("[[variable]] `{}`: {e}", s.name))?;
        if out.iter().any(|o| o.name == v.name) {
            return Err(format!("[[variable]] `{}` is declared twice", v.name));
        }
        if let Kind::Scalar(at, k) = v.kind {
            names.declare(&v.name, at, k);
        }
        out.push(v);
    }
    Ok(out)
}

fn expr(text: &str, names: &Names) -> Result<Expr, String> {
    Expr::parse(text, names).map_err(|e| e.to_string())
}

fn squares(s: &VariableSpec) -> Result<ByteSquares, String> {
    let text = s
        .squares
        .as_deref()
        .ok_or("give `squares` (10x12, 0x88 or microchess)")?;
    ByteSquares::parse(text)
        .ok_or_else(|| format!("squares = `{text}` (10x12, 0x88 or microchess)"))
}

fn resolve_one(
    s: &VariableSpec,
    names: &Names,
    symbol: &dyn Fn(&str) -> Result<u16, String>,
    before: &[Variable],
) -> Result<Variable, String> {
    let at = || -> Result<u16, String> { symbol(s.at.as_deref().ok_or("give `at`")?) };
    let turned = s.turned.as_deref().map(|t| expr(t, names)).transpose()?;
    let kind = match s.kind.as_str() {
        "byte" => Kind::Scalar(at()?, 'b'),
        "sbyte" => Kind::Scalar(at()?, 's'),
        "word" => Kind::Scalar(at()?, 'w'),
        "square" => Kind::Square(at()?, squares(s)?, turned),
        "board" => Kind::Board(turned),
        "move" => Kind::Move(layout(s, names)?),
        "moves" => Kind::Moves {
            first: expr(s.first.as_deref().ok_or("give `first`")?, names)?,
            end: s.end.as_deref().map(|e| expr(e, names)).transpose()?,
            link: s.link,
            size: match (s.size, s.link, &s.end) {
                (Some(n), None, Some(_)) if n > 0 => n,
                (None, Some(_), None) => 0,
                _ => {
                    return Err("give `end` and `size` (an array) or `link` (a linked list)".into());
                }
            },
            max: s.max.unwrap_or(256),
            current: s.current.as_deref().map(|c| expr(c, names)).transpose()?,
            layout: layout(s, names)?,
        },
        "table" => {
            let of = match s.of.as_deref().unwrap_or("byte") {
                "byte" => 'b',
                "sbyte" => 's',
                "word" => 'w',
                o => return Err(format!("of = `{o}` (byte, sbyte, word)")),
            };
            let points_to = match &s.points_to {
                None => None,
                Some(n) => match before.iter().find(|v| &v.name == n).map(|v| &v.kind) {
                    Some(Kind::Move(l)) if l.entry.is_some() => Some(l.clone()),
                    _ => {
                        return Err(format!(
                            "points_to = `{n}`: name a `move` variable with `entry` declared before"
                        ));
                    }
                },
            };
            Kind::Table {
                at: at()?,
                of,
                stride: s.stride.unwrap_or(if of == 'w' { 2 } else { 1 }),
                count: expr(s.count.as_deref().ok_or("give `count`")?, names)?,
                index: s.index.unwrap_or(0),
                points_to,
            }
        }
        k => {
            return Err(format!(
                "type = `{k}` (byte, sbyte, word, square, board, move, moves, table)"
            ));
        }
    };
    Ok(Variable {
        name: s.name.clone(),
        note: s.note.clone(),
        kind,
    })
}

/// A move's fields: byte offsets in the entry (with `entry`, or `first` for a list) or
/// expressions.
fn layout(s: &VariableSpec, names: &Names) -> Result<MoveLayout, String> {
    let in_entry = s.entry.is_some() || s.kind == "moves";
    let field = |f: &Option<Field>, what: &str| -> Result<Option<Expr>, String> {
        match f {
            None => Ok(None),
            Some(Field::Offset(n)) if in_entry => {
                expr(&format!("byte(entry + {n})"), names).map(Some)
            }
            Some(Field::Offset(_)) => Err(format!(
                "{what}: a byte offset needs `entry`; give an expression"
            )),
            Some(Field::Expr(e)) => expr(e, names).map(Some),
        }
    };
    Ok(MoveLayout {
        entry: s.entry.as_deref().map(|e| expr(e, names)).transpose()?,
        from: field(&s.from, "from")?.ok_or("give `from`")?,
        to: field(&s.to, "to")?.ok_or("give `to`")?,
        flags: field(&s.flags, "flags")?,
        value: field(&s.value, "value")?,
        squares: squares(s)?,
        turned: s.turned.as_deref().map(|t| expr(t, names)).transpose()?,
    })
}

impl MoveLayout {
    /// The move in the entry at `entry` (or from the plain expressions when `None`).
    pub(crate) fn read(
        &self,
        m: &dyn Machineish,
        entry: Option<u16>,
        program_black: bool,
    ) -> Result<MoveEntry, String> {
        let bound = [("entry", i64::from(entry.unwrap_or(0)))];
        let ev = |e: &Expr| e.eval_with(m, &bound).map_err(|e| e.to_string());
        let from = ev(&self.from)? as u8;
        let to = ev(&self.to)? as u8;
        let black = self.black(m, program_black)?;
        let squares = self
            .squares
            .decode(from, black)
            .zip(self.squares.decode(to, black))
            .map(|(f, t)| format!("{f}{t}"));
        Ok(MoveEntry {
            at: entry,
            from,
            to,
            squares,
            flags: self.flags.as_ref().map(ev).transpose()?.map(|f| f as u8),
            value: self.value.as_ref().map(ev).transpose()?,
            current: false,
        })
    }

    /// Whether the squares read as the program playing Black would (its colour, turned round
    /// while `turned` holds).
    pub(crate) fn black(&self, m: &dyn Machineish, program_black: bool) -> Result<bool, String> {
        let turned = match &self.turned {
            Some(t) => t.eval(m).map_err(|e| e.to_string())? != 0,
            None => false,
        };
        Ok(program_black != turned)
    }

    /// The move `entry` names now: the entry's address (`None` for 0), or the plain fields.
    pub(crate) fn current(
        &self,
        m: &dyn Machineish,
        program_black: bool,
    ) -> Result<Option<MoveEntry>, String> {
        match &self.entry {
            None => self.read(m, None, program_black).map(Some),
            Some(e) => match e.eval(m).map_err(|e| e.to_string())? as u16 {
                0 => Ok(None),
                a => self.read(m, Some(a), program_black).map(Some),
            },
        }
    }
}

impl Variable {
    /// The move layout of a `move` variable.
    pub(crate) fn layout(&self) -> Option<&MoveLayout> {
        match &self.kind {
            Kind::Move(l) => Some(l),
            _ => None,
        }
    }

    /// Whether it is a `moves` variable.
    pub(crate) fn is_moves(&self) -> bool {
        matches!(self.kind, Kind::Moves { .. })
    }

    /// A `moves` variable's moves now, as squares (entries whose bytes are no squares left
    /// out).
    pub(crate) fn moves_now(
        &self,
        m: &dyn Machineish,
        program_black: bool,
    ) -> Result<Vec<(kempelen_engine::Square, kempelen_engine::Square)>, String> {
        let Kind::Moves { layout, .. } = &self.kind else {
            return Ok(Vec::new());
        };
        let black = layout.black(m, program_black)?;
        Ok(self
            .list(m, program_black)?
            .iter()
            .filter_map(|e| {
                let f = layout.squares.decode(e.from, black)?;
                let t = layout.squares.decode(e.to, black)?;
                Some((
                    kempelen_engine::square::parse(&f)?,
                    kempelen_engine::square::parse(&t)?,
                ))
            })
            .collect())
    }

    /// A `moves` variable's entries now.
    fn list(&self, m: &dyn Machineish, program_black: bool) -> Result<Vec<MoveEntry>, String> {
        let Kind::Moves {
            first,
            end,
            link,
            size,
            max,
            current,
            layout,
        } = &self.kind
        else {
            return Ok(Vec::new());
        };
        let ev = |e: &Expr| e.eval(m).map_err(|e| e.to_string());
        let current = current.as_ref().map(ev).transpose()?.map(|c| c as u16);
        let mut at = ev(first)? as u16;
        let end = end.as_ref().map(ev).transpose()?.map(|e| e as u16);
        let mut out = Vec::new();
        while out.len() < usize::from(*max) && at != 0 {
            if end.is_some_and(|e| at >= e) {
                break;
            }
            let mut e = layout.read(m, Some(at), program_black)?;
            e.current = current == Some(at);
            out.push(e);
            at = match link {
                Some(l) => {
                    let a = at.wrapping_add(*l);
                    u16::from_le_bytes([m.byte(a), m.byte(a.wrapping_add(1))])
                }
                None => at.wrapping_add(*size),
            };
        }
        Ok(out)
    }

    /// The variable's value on `m`.
    pub fn decode(&self, machine: &Machine, cx: &Context) -> VariableValue {
        let m = &WithCounters {
            machine,
            counters: cx.counters,
        };
        let (kind, at, value) = match &self.kind {
            Kind::Scalar(at, k) => {
                let b = machine.read_byte(*at);
                let v = match k {
                    'b' => i64::from(b),
                    's' => i64::from(b as i8),
                    _ => i64::from(machine.read_word(*at)),
                };
                let name = match k {
                    'b' => "byte",
                    's' => "sbyte",
                    _ => "word",
                };
                (name, Some(*at), Decoded::Number(v))
            }
            Kind::Square(at, sq, turned) => {
                let b = machine.read_byte(*at);
                let black = match turned {
                    Some(t) => t.eval(m).map(|t| (t != 0) != cx.program_black),
                    None => Ok(cx.program_black),
                };
                let v = match black {
                    Ok(black) => Decoded::Square {
                        byte: b,
                        square: sq.decode(b, black),
                    },
                    Err(e) => Decoded::Unreadable(e.to_string()),
                };
                ("square", Some(*at), v)
            }
            Kind::Board(turned) => (
                "board",
                cx.adaptor.board_memory().map(|(a, _)| a),
                board(machine, m, cx, turned.as_ref()),
            ),
            Kind::Move(l) => (
                "move",
                None,
                l.current(m, cx.program_black)
                    .map_or_else(Decoded::Unreadable, Decoded::Move),
            ),
            Kind::Moves { .. } => ("moves", None, self.moves(m, cx)),
            Kind::Table { at, .. } => ("table", Some(*at), self.table(m, cx)),
        };
        VariableValue {
            name: self.name.clone(),
            kind,
            at,
            note: self.note.clone(),
            text: text_of(kind, &value),
            value,
        }
    }

    fn moves(&self, m: &dyn Machineish, cx: &Context) -> Decoded {
        self.list(m, cx.program_black)
            .map_or_else(Decoded::Unreadable, Decoded::Moves)
    }

    fn table(&self, m: &dyn Machineish, cx: &Context) -> Decoded {
        let Kind::Table {
            at,
            of,
            stride,
            count,
            index,
            points_to,
        } = &self.kind
        else {
            return Decoded::Unreadable(String::new());
        };
        let n = match count.eval(m) {
            Ok(n) => n.clamp(0, 256),
            Err(e) => return Decoded::Unreadable(e.to_string()),
        };
        let rows = (0..n)
            .map(|i| {
                let a = at.wrapping_add((i as u16).wrapping_mul(*stride));
                let value = match of {
                    'b' => i64::from(m.byte(a)),
                    's' => i64::from(m.byte(a) as i8),
                    _ => i64::from(u16::from_le_bytes([m.byte(a), m.byte(a.wrapping_add(1))])),
                };
                let points_to = points_to.as_ref().and_then(|l| match value as u16 {
                    0 => None,
                    e => l.read(m, Some(e), cx.program_black).ok(),
                });
                TableRow {
                    index: index + i,
                    at: a,
                    value,
                    points_to,
                }
            })
            .collect();
        Decoded::Table(rows)
    }
}

/// The program's board, read as its adaptor file describes it.
fn board(machine: &Machine, m: &dyn Machineish, cx: &Context, turned: Option<&Expr>) -> Decoded {
    let black = match turned.map(|t| t.eval(m)) {
        Some(Ok(t)) => (t != 0) != cx.program_black,
        Some(Err(e)) => return Decoded::Unreadable(e.to_string()),
        None => cx.program_black,
    };
    match cx.adaptor.board_from_ram(machine, black) {
        Ok(b) => {
            let placement = b.placement();
            let ranks = placement
                .split('/')
                .map(|r| {
                    r.chars()
                        .flat_map(|c| match c.to_digit(10) {
                            Some(n) => vec!['.'; n as usize],
                            None => vec![c],
                        })
                        .map(String::from)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            Decoded::Board { placement, ranks }
        }
        Err(e) => Decoded::Unreadable(e.to_string()),
    }
}

fn move_text(e: &MoveEntry) -> String {
    let mut s = e
        .squares
        .clone()
        .unwrap_or_else(|| format!("${:02X}-${:02X}", e.from, e.to));
    if let Some(a) = e.at {
        s.push_str(&format!(" @${a:04X}"));
    }
    if let Some(f) = e.flags {
        s.push_str(&format!(" flags ${f:02X}"));
    }
    if let Some(v) = e.value {
        s.push_str(&format!(" value {v}"));
    }
    if e.current {
        s.push_str(" <");
    }
    s
}

/// The value as text: one line for numbers, squares and moves, one per entry or rank else.
fn text_of(kind: &str, d: &Decoded) -> String {
    match d {
        Decoded::Number(v) if kind == "word" => format!("${:04X} ({v})", *v as u16),
        Decoded::Number(v) => format!("{v} (${:02X})", *v as u8),
        Decoded::Square { byte, square } => format!(
            "{} (${byte:02X})",
            square.as_deref().unwrap_or("off the board")
        ),
        Decoded::Board { ranks, .. } => ranks.join("\n"),
        Decoded::Move(None) => "none".into(),
        Decoded::Move(Some(e)) => move_text(e),
        Decoded::Moves(list) if list.is_empty() => "none".into(),
        Decoded::Moves(list) => list.iter().map(move_text).collect::<Vec<_>>().join("\n"),
        Decoded::Table(rows) => rows
            .iter()
            .map(|r| {
                let p = r.points_to.as_ref().map(move_text).unwrap_or_default();
                format!(
                    "[{}] {}{}{}",
                    r.index,
                    r.value,
                    if p.is_empty() { "" } else { " -> " },
                    p
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Decoded::Unreadable(why) => format!("(unreadable: {why})"),
    }
}
