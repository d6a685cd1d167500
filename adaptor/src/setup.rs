//! How a game is brought into a freshly started program: the keys for a move (in the
//! program's notation, castling as one or two moves), the placeholders of keys and pokes
//! (`{board}`, `{fen}`, `{depth}`, ...), and the plan that sets up a position the program's
//! own keys cannot reach (from the game's last move, the double step an en-passant square
//! names, or a board typed square by square).

use kempelen_engine::{EngineError, Game, Move};

use crate::description::{Adaptor, SetupPoke, symbol_or_addr};
use crate::machine::Action;

/// The set-up of games in the program an [`Adaptor`] describes: the keys for a move, the
/// placeholders filled, the plan that brings a game into a freshly started program.
#[derive(Clone, Copy)]
pub(crate) struct Setup<'a> {
    pub(crate) adaptor: &'a Adaptor,
}

impl Setup<'_> {
    /// The keys for the opponent's move `mv` in `game` (before the move).
    pub(crate) fn keys_for(&self, game_before: &kempelen_engine::Position, mv: &Move) -> String {
        let uci = mv.to_uci();
        // The move is the opponent's: the program plays the other colour.
        let program_black = FenParts::of(game_before).side == 'w';
        let mut keys = self.move_keys(&uci, program_black);
        if self.adaptor.keys.castle_rook.unwrap_or(false) {
            let b = uci.as_bytes();
            let piece =
                FenParts::of(game_before).board[usize::from(b[1] - b'1')][usize::from(b[0] - b'a')];
            let r = &uci[1..2];
            let rook = match (piece.to_ascii_lowercase(), &uci[0..1], &uci[2..3]) {
                ('k', "e", "g") => Some(format!("h{r}f{r}")),
                ('k', "e", "c") => Some(format!("a{r}d{r}")),
                _ => None,
            };
            if let Some(rook) = rook {
                keys.push_str(&self.move_keys(&rook, program_black));
            }
        }
        keys
    }

    /// Whether the opponent's move `mv` (in `before`) can be typed so that the program ends
    /// in the same position: a promotion to a piece its keys make, a capture en passant it
    /// takes as one. Any other move is given to it by setting up the position after it.
    pub(crate) fn typeable(&self, before: &kempelen_engine::Position, mv: Move) -> bool {
        if mv.promotion() != 0 {
            let piece = mv.to_uci().chars().nth(4).unwrap_or('q');
            return self.promotions().contains(piece);
        }
        if before.is_en_passant(mv) {
            return self.adaptor.keys.en_passant.unwrap_or(true);
        }
        true
    }

    /// The pieces an opponent's promotion typed as a move makes (see [`Keys::promotions`]).
    fn promotions(&self) -> String {
        match &self.adaptor.keys.promotions {
            Some(p) => p.to_ascii_lowercase(),
            None if self.adaptor.keys.move_.contains("{promotion}")
                || self.adaptor.keys.move_.contains("{move}") =>
            {
                "qrbn".into()
            }
            None => String::new(),
        }
    }

    /// The bytes of `[pieces]` for `p` with the program playing White (`program_white`) or
    /// Black: its pieces in the first slots, its opponent's in the next, each piece in a slot
    /// of its kind (by squares from a1 to h8), unused slots holding the captured byte. A
    /// position with more pieces of a kind than the program has slots for is refused.
    fn pieces_bytes(
        &self,
        p: &FenParts,
        program_white: bool,
    ) -> Result<Vec<(u16, u8)>, EngineError> {
        let Some(spec) = &self.adaptor.ram.pieces else {
            return Ok(Vec::new());
        };
        let mut bytes = Vec::new();
        for side_white in [program_white, !program_white] {
            let mut left: Vec<(char, u8, u8)> = Vec::new();
            for rank in 0..8u8 {
                for file in 0..8u8 {
                    let c = p.board[usize::from(rank)][usize::from(file)];
                    if c != ' ' && c.is_ascii_uppercase() == side_white {
                        left.push((c.to_ascii_lowercase(), file, rank));
                    }
                }
            }
            for &kind in &spec.order {
                let sq = match left.iter().position(|(k, _, _)| *k == kind) {
                    Some(i) => {
                        let (_, file, rank) = left.remove(i);
                        spec.squares.encode(file, rank, !program_white)
                    }
                    None => spec.captured,
                };
                bytes.push(sq);
            }
            if let Some((kind, _, _)) = left.first() {
                let colour = if side_white { "White" } else { "Black" };
                let have = left.iter().filter(|(k, _, _)| k == kind).count()
                    + spec.order.iter().filter(|k| *k == kind).count();
                let slots = spec.order.iter().filter(|k| *k == kind).count();
                return Err(EngineError::Unsupported(format!(
                    "{} cannot take this position: it keeps {slots} {} for each side, and {colour} has {have}",
                    self.adaptor.name,
                    piece_name(*kind, slots),
                )));
            }
        }
        Ok(bytes
            .into_iter()
            .enumerate()
            .map(|(i, b)| (spec.at.wrapping_add(i as u16), b))
            .collect())
    }

    /// `{board}`: the squares of `p` typed in the order of `[board]`.
    fn board_keys(&self, p: &FenParts) -> String {
        let Some(spec) = &self.adaptor.board else {
            return String::new();
        };
        let letters: Vec<char> = spec.pieces.as_deref().unwrap_or("PNBRQK").chars().collect();
        let moved = spec
            .moved
            .clone()
            .unwrap_or_else(|| ["0".to_string(), "1".to_string()]);
        let ranks: Vec<usize> = if spec.first == "a8" {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        let mut out = String::new();
        for rank in ranks {
            for file in 0..8 {
                let c = p.board[rank][file];
                if c == ' ' {
                    out.push_str(&spec.empty);
                    continue;
                }
                let kind = "pnbrqk"
                    .find(c.to_ascii_lowercase())
                    .expect("a FEN piece letter");
                out.push_str(
                    &spec
                        .piece
                        .replace("{piece}", &letters[kind].to_string())
                        .replace("{colour}", self.adaptor.colour(c.is_ascii_uppercase()))
                        .replace("{moved}", &moved[usize::from(!p.unmoved(rank, file, c))]),
                );
            }
        }
        out
    }

    /// Fills the placeholders of keys and pokes: the program plays the side to move of the
    /// game (`{program}`; its opponent `{player}`), set up in `base` (`{to_move}`, `{fen}`,
    /// `{fullmove}`, `{board}`), at `depth` (`{depth}`, and `{depth}` unlimited in pokes).
    fn fill(&self, text: &str, program_white: bool, base: &FenParts, depth: u32) -> String {
        let mut out = text
            .replace("{player}", self.adaptor.colour(!program_white))
            .replace("{program}", self.adaptor.colour(program_white))
            .replace("{to_move}", self.adaptor.colour(base.side == 'w'))
            .replace("{depth}", &depth.to_string())
            .replace("{fullmove}", &base.fullmove.to_string())
            .replace("{fen}", &base.fen());
        if out.contains("{board}") {
            out = out.replace("{board}", &self.board_keys(base));
        }
        out
    }

    /// How to bring `game` into a freshly started program (see [`base_of`]).
    pub(crate) fn plan(&self, game: &Game, limit: Option<u32>) -> Result<Plan, EngineError> {
        let depth = self.adaptor.depth_for(limit);
        let target = FenParts::of(game.position());
        let program_white = target.side == 'w';
        let (base, last) = base_of(game, |before, m| self.typeable(before, m));
        let base = FenParts::of(&base);
        let at_start = base.same(&FenParts::of(&kempelen_engine::Position::startpos()));
        let go = self.adaptor.keys.go.as_deref().unwrap_or("");
        let start = match (&self.adaptor.keys.start_black, program_white) {
            (Some(k), false) => Some(k),
            _ => self.adaptor.keys.start.as_ref(),
        }
        .map_or(String::new(), |k| self.fill(k, program_white, &base, depth));
        // The opponent's last move, then the keys that make the program move: those keys
        // are the search's turn.
        let then = |m: &Move| self.move_then_go(&base_position(&base), m);
        // The new-game keys start a game with the program as White.
        let fresh_keys = program_white || self.adaptor.keys.start_black.is_none();
        let keys = |actions: Vec<Action>| Plan {
            start: start.clone(),
            actions,
            fresh_keys,
        };
        match (at_start, last, &self.adaptor.keys.position) {
            (true, None, _) => Ok(keys(vec![Action::Search(go.to_string())])),
            (_, _, Some(p)) => {
                let fen = FenParts::of(game.position());
                Ok(keys(vec![
                    Action::Keys(self.fill(p, program_white, &fen, depth)),
                    Action::Search(go.to_string()),
                ]))
            }
            (true, Some(m), _) => Ok(keys(then(&m))),
            _ if !self.adaptor.setup.is_empty() => {
                let mut actions = Vec::new();
                for step in &self.adaptor.setup {
                    if let Some(k) = &step.keys {
                        actions.push(Action::Keys(self.fill(k, program_white, &base, depth)));
                    }
                    if step.restart {
                        actions.push(Action::Restart);
                    }
                    if step.pieces {
                        actions.push(Action::Poke(self.pieces_bytes(&base, program_white)?));
                    }
                    if !step.poke.is_empty() {
                        let mut bytes = Vec::new();
                        for p in &step.poke {
                            bytes.push(self.poke_value(p, program_white, &base, limit)?);
                        }
                        actions.push(Action::Poke(bytes));
                    }
                }
                // The reply is read from what the program prints after the last keys only.
                actions.push(Action::Flush);
                match last {
                    Some(m) => actions.extend(then(&m)),
                    None => actions.push(Action::Search(go.to_string())),
                }
                Ok(Plan {
                    start: String::new(),
                    actions,
                    fresh_keys: false,
                })
            }
            _ => Err(EngineError::Unsupported(format!(
                "{} cannot be set up in this position (its adaptor has no `position` keys or [[setup]])",
                self.adaptor.name
            ))),
        }
    }

    /// The opponent's move `m` (in `before`) and then the keys that make the program move:
    /// the move itself when the program answers a move by itself, else its `go` keys.
    pub(crate) fn move_then_go(&self, before: &kempelen_engine::Position, m: &Move) -> Vec<Action> {
        let keys = self.keys_for(before, m);
        if self.adaptor.keys.replies_to_moves.unwrap_or(true) {
            vec![Action::Search(keys)]
        } else {
            vec![
                Action::Keys(keys),
                Action::Flush,
                Action::Search(self.adaptor.keys.go.clone().unwrap_or_default()),
            ]
        }
    }

    /// A `[[setup]]` poke's address and byte.
    fn poke_value(
        &self,
        p: &SetupPoke,
        program_white: bool,
        base: &FenParts,
        limit: Option<u32>,
    ) -> Result<(u16, u8), EngineError> {
        let be =
            |e: String| EngineError::Backend(format!("{}: [[setup]] poke: {e}", self.adaptor.name));
        let at = symbol_or_addr(&self.adaptor.symbols, &p.at).map_err(|e| be(e.to_string()))?;
        let depth = limit.unwrap_or(self.adaptor.depth.default.unwrap_or(1));
        let text = self.fill(&p.value, program_white, base, depth);
        let n: u32 = text
            .trim()
            .parse()
            .map_err(|_| be(format!("value `{text}` is not a number")))?;
        let n = n.max(u32::from(p.min.unwrap_or(0)));
        let b = u8::try_from(n).map_err(|_| be(format!("value {n} does not fit in a byte")))?;
        Ok((at, b))
    }

    fn move_keys(&self, uci: &str, program_black: bool) -> String {
        let from = self.adaptor.squares.encode(&uci[0..2], program_black);
        let to = self.adaptor.squares.encode(&uci[2..4], program_black);
        self.adaptor
            .keys
            .move_
            .replace("{from}", &from)
            .replace("{to}", &to)
            .replace("{FROM}", &from.to_ascii_uppercase())
            .replace("{TO}", &to.to_ascii_uppercase())
            .replace("{promotion}", uci.get(4..).unwrap_or(""))
            .replace("{move}", uci)
    }
}

impl Adaptor {
    /// Whether the opponent's move `m` (in `before`) is typed into the program as a move;
    /// else the program is set up in the position after it (a promotion its keys cannot make,
    /// a capture en passant it does not take as one).
    pub fn types_move(&self, before: &kempelen_engine::Position, m: Move) -> bool {
        Setup { adaptor: self }.typeable(before, m)
    }

    /// The bytes `[pieces]` writes (address, byte) to set the program up in `pos`, playing the
    /// side to move; empty without `[pieces]`, an error for a position with more pieces of a
    /// kind than the program has places for.
    pub fn pieces_for(
        &self,
        pos: &kempelen_engine::Position,
    ) -> Result<Vec<(u16, u8)>, EngineError> {
        let parts = FenParts::of(pos);
        let program_white = parts.side == 'w';
        Setup { adaptor: self }.pieces_bytes(&parts, program_white)
    }
}

/// How a game is brought into the program: the keys typed on a freshly booted program, the
/// actions after them, and whether the program's new-game keys may stand for the fresh boot
/// and its start keys.
pub(crate) struct Plan {
    pub(crate) start: String,
    pub(crate) actions: Vec<Action>,
    pub(crate) fresh_keys: bool,
}

/// A position's FEN fields, the board as `[rank][file]` characters (`' '` empty, rank 0 =
/// the first rank).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FenParts {
    board: [[char; 8]; 8],
    side: char,
    castling: String,
    ep: String,
    halfmove: u32,
    fullmove: u32,
}

impl FenParts {
    fn of(p: &kempelen_engine::Position) -> FenParts {
        let fen = p.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let mut board = [[' '; 8]; 8];
        for (i, row) in f[0].split('/').enumerate() {
            let mut file = 0;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(d) => file += d as usize,
                    None => {
                        board[7 - i][file] = c;
                        file += 1;
                    }
                }
            }
        }
        FenParts {
            board,
            side: f[1].chars().next().unwrap_or('w'),
            castling: f[2].to_string(),
            ep: f[3].to_string(),
            halfmove: f.get(4).and_then(|n| n.parse().ok()).unwrap_or(0),
            fullmove: f.get(5).and_then(|n| n.parse().ok()).unwrap_or(1),
        }
    }

    fn fen(&self) -> String {
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut gap = 0;
                for c in self.board[r] {
                    if c == ' ' {
                        gap += 1;
                    } else {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        row.push(c);
                    }
                }
                if gap > 0 {
                    row.push_str(&gap.to_string());
                }
                row
            })
            .collect();
        format!(
            "{} {} {} {} {} {}",
            rows.join("/"),
            self.side,
            self.castling,
            self.ep,
            self.halfmove,
            self.fullmove
        )
    }

    /// Board, side and castling rights: what makes two positions the same here.
    fn same(&self, other: &FenParts) -> bool {
        self.board == other.board && self.side == other.side && self.castling == other.castling
    }

    /// Whether the piece `c` on (`rank`, `file`) counts as never moved: a pawn on its second
    /// rank, a knight, bishop or queen on its original square, a king at home with a castling
    /// right, a rook in its corner with its castling right (or with its king away from home,
    /// when castling is impossible anyway).
    fn unmoved(&self, rank: usize, file: usize, c: char) -> bool {
        let white = c.is_ascii_uppercase();
        let home = if white { 0 } else { 7 };
        let (short, long, king) = if white {
            ('K', 'Q', 'K')
        } else {
            ('k', 'q', 'k')
        };
        let right = |r: char| self.castling.contains(r);
        let king_home = self.board[home][4] == king;
        match c.to_ascii_lowercase() {
            'p' => rank == if white { 1 } else { 6 },
            'n' => rank == home && (file == 1 || file == 6),
            'b' => rank == home && (file == 2 || file == 5),
            'q' => rank == home && file == 3,
            'k' => rank == home && file == 4 && (right(short) || right(long)),
            'r' => {
                rank == home
                    && ((file == 7 && (right(short) || !king_home))
                        || (file == 0 && (right(long) || !king_home)))
            }
            _ => false,
        }
    }
}

/// The position of `p` (parsed from its own FEN).
fn base_position(p: &FenParts) -> kempelen_engine::Position {
    kempelen_engine::Position::from_fen(&p.fen()).expect("a FEN written from a position")
}

/// The position before a pawn's double step that the FEN's en-passant square names, and
/// that step.
fn undo_double_step(t: &FenParts) -> Option<(kempelen_engine::Position, Move)> {
    let b = t.ep.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = usize::from(b[0].checked_sub(b'a')?);
    if file > 7 {
        return None;
    }
    let (pawn, from, to, passed, side, fullmove) = match (b[1], t.side) {
        (b'3', 'b') => ('P', 1, 3, 2, 'w', t.fullmove),
        (b'6', 'w') => ('p', 6, 4, 5, 'b', t.fullmove.saturating_sub(1).max(1)),
        _ => return None,
    };
    if t.board[to][file] != pawn || t.board[passed][file] != ' ' || t.board[from][file] != ' ' {
        return None;
    }
    let mut base = t.clone();
    base.board[to][file] = ' ';
    base.board[from][file] = pawn;
    base.side = side;
    base.ep = "-".into();
    base.halfmove = 0;
    base.fullmove = fullmove;
    let pos = kempelen_engine::Position::from_fen(&base.fen()).ok()?;
    let f = (b'a' + file as u8) as char;
    let uci = format!("{f}{}{f}{}", from + 1, to + 1);
    let mut g = Game::new(pos.clone());
    let m = g.push_uci(&uci).ok()?;
    FenParts::of(g.position()).same(t).then_some((pos, m))
}

/// The move from the start position that leads to `target`, if one does.
fn one_move_from_start(target: &FenParts) -> Option<Move> {
    let start = kempelen_engine::Position::startpos();
    start.legal_moves().iter().copied().find(|&m| {
        let mut p = start.clone();
        p.play(m);
        FenParts::of(&p).same(target)
    })
}

/// The position to set the program up in and the move to type after it, if any: the game's
/// last move, the double step the FEN's en-passant square names (the program then knows it),
/// or the first move of a game from the start; else the position itself. A last move that
/// cannot be typed (`typeable` says no: an underpromotion, say) is not typed: the program is
/// set up in the position after it.
fn base_of(
    game: &Game,
    typeable: impl Fn(&kempelen_engine::Position, Move) -> bool,
) -> (kempelen_engine::Position, Option<Move>) {
    if let Some(&last) = game.moves().last() {
        let before = before_last(game).position().clone();
        if typeable(&before, last) {
            return (before, Some(last));
        }
        return (game.position().clone(), None);
    }
    let target = FenParts::of(game.position());
    if let Some((pos, m)) = undo_double_step(&target) {
        return (pos, Some(m));
    }
    if let Some(m) = one_move_from_start(&target) {
        return (kempelen_engine::Position::startpos(), Some(m));
    }
    (game.position().clone(), None)
}

/// `kind`'s name, in the plural when `n` is not 1.
fn piece_name(kind: char, n: usize) -> &'static str {
    let (one, many) = match kind {
        'k' => ("king", "kings"),
        'q' => ("queen", "queens"),
        'r' => ("rook", "rooks"),
        'b' => ("bishop", "bishops"),
        'n' => ("knight", "knights"),
        _ => ("pawn", "pawns"),
    };
    if n == 1 { one } else { many }
}

/// `game` without its last move.
pub(crate) fn before_last(game: &Game) -> Game {
    let mut g = Game::new(game.start().clone());
    let n = game.moves().len().saturating_sub(1);
    for m in &game.moves()[..n] {
        g.push(*m).expect("a move of the game");
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use kempelen_engine::Position;

    fn parts(fen: &str) -> FenParts {
        FenParts::of(&Position::from_fen(fen).unwrap())
    }

    /// The set-up toy (tests/data/adaptor) with `extra` added to its `[keys]`, read from a
    /// copy in a scratch folder.
    fn toy(name: &str, extra: &str) -> Adaptor {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/adaptor");
        let dir =
            std::env::temp_dir().join(format!("kempelen-setup-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["setup-toy.asm", "toy-console.inc"] {
            std::fs::copy(data.join(file), dir.join(file)).unwrap();
        }
        let toml = std::fs::read_to_string(data.join("setup-toy.toml"))
            .unwrap()
            .replace("[keys]\n", &format!("[keys]\n{extra}\n"));
        std::fs::write(dir.join("toy.toml"), toml).unwrap();
        Adaptor::from_file(&dir.join("toy.toml")).unwrap()
    }

    fn typed(plan: &Plan) -> String {
        plan.actions
            .iter()
            .filter_map(|a| match a {
                Action::Keys(k) | Action::Search(k) => Some(k.as_str()),
                _ => None,
            })
            .collect()
    }

    /// An opponent's promotion the program's keys cannot make is given to it as the position
    /// after it, set up square by square (the knight on a8); one they can make is typed.
    #[test]
    fn an_underpromotion_is_set_up_and_a_promotion_the_keys_make_is_typed() {
        let a = toy("promotions", "promotions = \"q\"");
        let mut g = Game::from_fen("8/P7/1k6/8/8/8/8/K7 w - - 0 1").unwrap();
        g.push_uci("a7a8n").unwrap();
        let keys = typed(&Setup { adaptor: &a }.plan(&g, Some(2)).unwrap());
        assert!(!keys.contains("a7a8"), "{keys}");
        // The knight on a8, White's, moved (the only piece typed as a knight).
        assert!(keys.contains("N,W,1"), "{keys}");
        assert!(keys.ends_with('B'), "Black to move: {keys}");
        let mut g = Game::from_fen("8/P7/1k6/8/8/8/8/K7 w - - 0 1").unwrap();
        g.push_uci("a7a8q").unwrap();
        let plan = Setup { adaptor: &a }.plan(&g, Some(2)).unwrap();
        assert_eq!(
            plan.actions.last(),
            Some(&Action::Search("a7a8".into())),
            "the queen's promotion typed as the move"
        );
        // Without `promotions`, the move keys (no `{promotion}`) make none: set up.
        let plain = toy("plain", "");
        assert!(!typed(&Setup { adaptor: &plain }.plan(&g, Some(2)).unwrap()).contains("a7a8"));
    }

    /// A capture en passant is typed unless the adaptor says the program does not take one
    /// typed so.
    #[test]
    fn an_en_passant_capture_is_set_up_when_the_program_does_not_take_it_typed() {
        let mut g = Game::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
        g.push_uci("e5d6").unwrap();
        let typing = toy("ep-typed", "");
        assert_eq!(
            Setup { adaptor: &typing }
                .plan(&g, Some(2))
                .unwrap()
                .actions
                .last(),
            Some(&Action::Search("e5d6".into()))
        );
        let not = toy("ep-setup", "en_passant = false");
        assert!(!typed(&Setup { adaptor: &not }.plan(&g, Some(2)).unwrap()).contains("e5d6"));
    }

    #[test]
    fn unmoved_pieces_follow_their_squares_and_castling_rights() {
        let p = parts("r3k2r/1p4p1/8/8/8/8/P6P/R3K1NR w Kq - 0 20");
        // White: the h-rook keeps its right, the a-rook lost its right with the king at home.
        assert!(p.unmoved(0, 7, 'R'));
        assert!(!p.unmoved(0, 0, 'R'));
        assert!(p.unmoved(0, 4, 'K'));
        assert!(p.unmoved(0, 6, 'N'));
        assert!(p.unmoved(1, 0, 'P'));
        // Black: only the long right; the b- and g-pawns are at home.
        assert!(p.unmoved(7, 0, 'r'));
        assert!(!p.unmoved(7, 7, 'r'));
        assert!(p.unmoved(7, 4, 'k'));
        assert!(p.unmoved(6, 1, 'p'));
        // A king without rights counts as moved; a rook in its corner with its king away
        // from home as never moved.
        let p = parts("4k2r/8/8/8/8/8/8/R5K1 w - - 0 40");
        assert!(!p.unmoved(7, 4, 'k'));
        assert!(p.unmoved(0, 0, 'R'));
        assert!(!p.unmoved(7, 7, 'r'));
    }

    #[test]
    fn an_en_passant_square_is_set_up_as_the_double_step_before_it() {
        let t = parts("7k/8/8/8/Pp6/4K3/8/8 b - a3 0 7");
        let (base, m) = undo_double_step(&t).unwrap();
        assert_eq!(base.to_fen(), "7k/8/8/8/1p6/4K3/P7/8 w - - 0 7");
        assert_eq!(m.to_uci(), "a2a4");
        let t = parts("8/8/3k4/6Pp/8/8/8/K7 w - h6 0 30");
        let (base, m) = undo_double_step(&t).unwrap();
        assert_eq!(base.to_fen(), "8/7p/3k4/6P1/8/8/8/K7 b - - 0 29");
        assert_eq!(m.to_uci(), "h7h5");
        // No pawn where the square says: no double step.
        assert!(undo_double_step(&parts("7k/8/8/8/8/4K3/8/8 b - - 0 1")).is_none());
    }

    #[test]
    fn the_base_position_is_the_one_before_a_known_last_move() {
        let g =
            Game::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1").unwrap();
        let (base, m) = base_of(&g, |_, _| true);
        assert_eq!(base.to_fen(), Position::startpos().to_fen());
        assert_eq!(m.unwrap().to_uci(), "g1f3");
        let mut g = Game::new(Position::startpos());
        g.push_uci("e2e4").unwrap();
        g.push_uci("c7c5").unwrap();
        let (base, m) = base_of(&g, |_, _| true);
        assert_eq!(m.unwrap().to_uci(), "c7c5");
        assert!(
            base.to_fen()
                .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
        );
        let g = Game::from_fen("B6k/8/8/8/8/8/8/7K w - - 0 1").unwrap();
        let (base, m) = base_of(&g, |_, _| true);
        assert!(m.is_none());
        assert_eq!(base.to_fen(), g.position().to_fen());
    }
}
