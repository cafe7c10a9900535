//! Reading Quadraphages / Hexaphages records: the start position a record implies, and what each
//! movetext token means in the position where it stands.

use crate::game::code::Coded;
use crate::game::{BoardView, Game, Notation};
pub use crate::games::phages::rules::board_name;
use crate::games::phages::rules::{Content, Phages, PhagesMove, Phase, Side};
use crate::games::GameKind;
use crate::geometry::{Cell, CellLabel, Geometry};
use crate::record::{Record, Token, TokenKind};
use crate::replay::{Reader, Reading, Repairable};

/// Why a record cannot even start: no board or no start position can be had for it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SetupProblem {
    /// Where the problem is: the `Startup:` diagram, or the record's board.
    pub span: crate::record::Span,
    /// What is wrong.
    pub message: String,
    /// Whether the record's own `Startup:` diagram is at fault (a syntax error), rather than
    /// referee lacking a start for the board (undecided).
    pub in_diagram: bool,
}

/// The game a record's own text names or draws, if any: its title, else its start code, else its
/// diagrams.
pub fn game_hint(record: &Record) -> Option<(GameKind, Option<Geometry>)> {
    let coded = record.startup_code.as_ref().and_then(|(_, code)| crate::games::game_of(code).ok());
    // Only a code of this notation's games names the record's game; any other is an error of
    // the code, reported with the record's own game.
    let coded = coded.filter(|k| k.about().format == crate::game::Format::Published);
    let title = title_game(record);
    if let (None, Some(kind)) = (title, coded) {
        return Some((kind, None));
    }
    let drawn = record.startup.as_ref().or(record.final_position.as_ref()).map(|d| d.geometry);
    let from_geometry = |g: Geometry| match g {
        Geometry::Square { .. } => GameKind::Quadraphages,
        Geometry::Hex { .. } => GameKind::Hexaphages,
    };
    match (title, drawn) {
        (Some(kind), Some(g)) if from_geometry(g) == kind => Some((kind, Some(g))),
        (Some(kind), _) => Some((kind, None)),
        (None, Some(g)) => Some((from_geometry(g), Some(g))),
        (None, None) => None,
    }
}

/// The game a record's title names.
fn title_game(record: &Record) -> Option<GameKind> {
    record.title.as_ref().and_then(|t| GameKind::from_name(t.0))
}

/// The start position of a record: its `Startup:` diagram, or the default for its board; the side
/// that moves first from its column header (RULINGS 7 for a first column of `....`).
pub fn setup(record: &Record, forced: Option<GameKind>) -> Result<Phages, SetupProblem> {
    if let Some((span, code)) = &record.startup_code {
        return coded_setup(record, span, code, forced);
    }
    let hint = game_hint(record);
    let kind = forced.or(hint.map(|h| h.0)).unwrap_or(GameKind::Quadraphages);
    let geometry = match (kind, hint.and_then(|h| h.1)) {
        (GameKind::Quadraphages, Some(g @ Geometry::Square { .. }))
        | (GameKind::Hexaphages, Some(g @ Geometry::Hex { .. })) => g,
        (GameKind::Quadraphages, _) => Geometry::Square { size: 9 },
        (GameKind::Hexaphages, _) => Geometry::Hex { side: 4 },
        (other, _) => {
            return Err(SetupProblem {
                span: record.span.clone(),
                message: format!(
                    "{other} records are written in the common record format, not in the Quadraphages notation"
                ),
                in_diagram: false,
            })
        }
    };
    let whole = record.span.clone();
    let mut position = if let Some(d) = &record.startup {
        let fault = |span: &crate::record::Span, message: String| SetupProblem {
            span: span.clone(),
            message,
            in_diagram: true,
        };
        if d.geometry != geometry {
            return Err(fault(&d.span, format!("this diagram draws a different board from the record's {kind}")));
        }
        if let Some((_, _, span)) = d.cells.iter().find(|c| matches!(c.1, 'x' | 'o')) {
            return Err(fault(span, "a start position has no marked cells".into()));
        }
        let stones = |side: char| {
            d.cells.iter().filter(|c| c.1 == side).filter_map(|c| geometry.parse_label(c.0)).collect::<Vec<_>>()
        };
        Phages::new(geometry, &stones('X'), &stones('O'), Side::X).map_err(|e| fault(&d.span, e.to_string()))?
    } else {
        default_start(geometry).ok_or_else(|| SetupProblem {
            span: record.final_position.as_ref().map_or(whole, |d| d.span.clone()),
            message: format!("no start position is known for {kind} on this board: give one in a `Startup:` diagram"),
            in_diagram: false,
        })?
    };
    position.set_first_mover(first_mover(record, position.stones_per_side()));
    Ok(position)
}

/// The start a `Startup:` position code gives. The code says whose turn it is, and in which phase:
/// the column header does not override it.
fn coded_setup(
    record: &Record,
    span: &crate::record::Span,
    code: &str,
    forced: Option<GameKind>,
) -> Result<Phages, SetupProblem> {
    let fault = |span: crate::record::Span, message: String| SetupProblem { span, message, in_diagram: true };
    let position = Phages::from_code(code).map_err(|e| {
        let at = e.at.min(code.len());
        let len = code[at..].chars().next().map_or(0, char::len_utf8);
        fault(span.start + at..span.start + at + len, e.message)
    })?;
    let named = forced.or(title_game(record));
    if let Some(kind) = named.filter(|k| k.about() != position.about()) {
        return Err(fault(
            span.clone(),
            format!("this position code is of {}, but the record is of {kind}", position.about().name),
        ));
    }
    Ok(position)
}

/// How a record gives its start so that reading the record gives that very position back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StartForm {
    /// The board's default start (with the same side to move first): nothing to write.
    Default,
    /// A `Startup:` diagram draws it: stones only, the first turn not begun.
    Diagram,
    /// Only a `Startup:` position code gives it: marks on the board, a turn under way, stones in
    /// another order than a diagram reads them (the order decides the order of the legal moves).
    Code,
}

/// How a record written by referee gives the start `start` (see [`StartForm`]).
pub fn start_form(start: &Phages) -> StartForm {
    let first = start.to_move();
    let code = start.code();
    let with_first = |mut p: Phages| {
        p.set_first_mover(first);
        p.code()
    };
    if default_start(start.geometry()).map(with_first).as_ref() == Some(&code) {
        return StartForm::Default;
    }
    // A diagram is read in reading order, X's stones and O's, as `setup` reads it.
    let g = start.geometry();
    let cells: Vec<Cell> = (0..g.height()).flat_map(|r| g.row_cells(r)).collect();
    let stones = |glyph: &str| cells.iter().copied().filter(|&c| start.glyph(c) == glyph).collect::<Vec<_>>();
    match Phages::new(g, &stones("X"), &stones("O"), Side::X).map(with_first) {
        Ok(drawn) if drawn == code => StartForm::Diagram,
        _ => StartForm::Code,
    }
}

/// The default start of a board, where one is known (RULINGS 10 and 11).
pub fn default_start(geometry: Geometry) -> Option<Phages> {
    match geometry {
        Geometry::Square { size: 9 } => Some(Phages::quadraphages()),
        Geometry::Hex { side } => Phages::hexaphages(side),
        Geometry::Square { .. } => None,
    }
}

/// The side that plays the first turn: the first column's, unless line 1 opens with the first
/// column's whole turn written as `....` (RULINGS 7). Without a header, X (as in the blog's game).
pub fn first_mover(record: &Record, stones_per_side: usize) -> Side {
    let sides = record.header.as_ref().map_or([Side::X, Side::O], |h| h.sides.map(super::side));
    let leading_fillers = record
        .lines
        .first()
        .map_or(0, |l| record.line_tokens(l).iter().take_while(|t| t.kind == TokenKind::Filler).count());
    // The first side fills only its missing phase (a); a first column left out also fills its (a)
    // and (c), before the other side's (a).
    if leading_fillers >= 2 * stones_per_side {
        sides[1]
    } else {
        sides[0]
    }
}

/// Reads `tokens[i]` in `position`; later tokens of the same phase tell which stone `----` is.
///
/// Every token of a record passes here, and most are steps of the mover's stones: those are read
/// in a few instructions, and the rest of the tokens by functions of their own, so that a step
/// does not pay for their registers and their messages.
#[inline]
pub fn read(position: &Phages, tokens: &[Token], i: usize) -> Reading<PhagesMove> {
    match tokens[i].kind {
        TokenKind::Number(n) => Reading::Move(PhagesMove::Announce(n)),
        TokenKind::Step(from, to) => {
            let steps = position.geometry().steps();
            let (Some(f), Some(t)) = (steps.parse_label(from), steps.parse_label(to)) else {
                return off_board(position, from, to);
            };
            if position.phase() != Phase::Announce
                && !position.is_over()
                && position.content(f) != Content::Stone(position.to_move())
            {
                return misplaced_step(position, tokens, i, f, t);
            }
            Reading::Move(PhagesMove::Step { from: f, to: t })
        }
        TokenKind::Stay if position.is_over() => Reading::Nothing,
        TokenKind::Stay => read_stay(position, tokens, i),
        TokenKind::Filler
            if position.is_first_turn() && position.phase() == Phase::Announce && position.number() == 0 =>
        {
            Reading::Nothing
        }
        TokenKind::Filler => Reading::Problem {
            message: "`....` stands only for the missing phase (a) of the game's first turn".into(),
            apply: None,
        },
        TokenKind::Resign | TokenKind::Wins { .. } | TokenKind::Result { .. } => Reading::Nothing,
        TokenKind::Written => {
            Reading::Problem { message: "not a token of the Quadraphages notation".into(), apply: None }
        }
    }
}

/// A step token with a label that names no cell of the board.
#[inline(never)]
fn off_board(position: &Phages, from: CellLabel, to: CellLabel) -> Reading<PhagesMove> {
    let g = position.geometry();
    let off = if g.steps().parse_label(from).is_none() { from } else { to };
    let message = format!("{off} is not a cell of the {}", board_name(g));
    Reading::Problem { message, apply: None }
}

/// A step from `f` to `t` at `tokens[i]`, in a phase where stones move, from a cell with no stone
/// of the mover's on it.
#[inline(never)]
fn misplaced_step(position: &Phages, tokens: &[Token], i: usize, f: Cell, t: Cell) -> Reading<PhagesMove> {
    // Lenient replay plays the written destination with the one stone no other token of
    // the phase accounts for, when there is exactly one; otherwise that stone's turn in
    // the phase is used up where it stands, so the phases stay in step with the columns.
    let others = phase_mentions(position, tokens, i);
    let mut candidates = position.stones_to_act().filter(|c| !others.contains(c));
    let (first, only) = (candidates.next(), candidates.next().is_none());
    let apply = first.map(|c| {
        let to = if only && position.content(t) == Content::Empty { t } else { c };
        PhagesMove::Step { from: c, to }
    });
    match position.check(PhagesMove::Step { from: f, to: t }) {
        Err(why) => Reading::Problem { message: why.to_string(), apply },
        Ok(()) => Reading::Move(PhagesMove::Step { from: f, to: t }),
    }
}

/// A `----` at `tokens[i]`, in a game not over.
#[inline(never)]
fn read_stay(position: &Phages, tokens: &[Token], i: usize) -> Reading<PhagesMove> {
    let side = position.to_move();
    if position.phase() == Phase::Announce {
        return Reading::Move(PhagesMove::Stay { stone: position.stones(side)[0] });
    }
    // The first stone that may stay, in the engine's order; the others are the token's
    // other readings (`other_stays`). When none may, the stay is illegal, and is read
    // for the first stone it could name, to say why. A stone alone is named either way, so
    // whether it can move is not asked here (`check` asks it).
    let pool = stay_pool(position, tokens, i);
    let stone = match pool.cells() {
        [only] => Some(only),
        cells => cells.iter().find(|&&c| is_stuck(position, c)).or(cells.first()),
    };
    match stone {
        Some(&stone) => Reading::Move(PhagesMove::Stay { stone }),
        None => Reading::Problem {
            message: format!("all of {side}'s stones have already moved in this phase"),
            apply: None,
        },
    }
}

/// The stones a `----` at `tokens[i]` may name (RULINGS 5b): the mover's stones left to act that
/// no later token of the phase moves (all of them, when the later tokens name every one), in the
/// engine's order. Those of them that cannot move now ([`is_stuck`]) are the stones it may name
/// legally.
fn stay_pool(position: &Phages, tokens: &[Token], i: usize) -> Mentions {
    let stones = position.stones(position.to_move());
    let to_act = position.to_act_bits();
    // The mover's stones that a later token of the phase moves, as bits: none when the token's
    // stone is the last to act (the phase has no later stone token).
    let mut mentioned = 0u8;
    if to_act.count_ones() > 1 {
        let others = phase_mentions(position, tokens, i);
        for (k, s) in stones.iter().enumerate() {
            mentioned |= u8::from(others.contains(s)) << k;
        }
    }
    let unmentioned = to_act & !mentioned;
    let pool = if unmentioned != 0 { unmentioned } else { to_act };
    let mut cells = Mentions::default();
    for (k, &c) in stones.iter().enumerate() {
        if pool & (1 << k) != 0 {
            cells.push(c);
        }
    }
    cells
}

/// Whether `check` accepts a stay for the stone on `c`, one of [`stay_pool`]'s: asked only in a
/// game not over, in a phase where stones move, of a stone left to act, which is the mover's, on
/// the board, and has not acted, so only whether it can move is left to ask.
fn is_stuck(position: &Phages, c: Cell) -> bool {
    !position.can_move(c, position.number())
}

/// The other stones a `----` at `tokens[i]` may name legally, besides the one [`read`] reads it
/// for: with three stones a side, two stuck stones may be left to act, and the notation does not
/// say which stays first (RULINGS 5b). Empty for any other token.
///
/// Which stone stays is open when a step follows in the phase (`---- c3d3 ----`: the stay before
/// the step leaves the run of failed moves, the one after it joins it), or when the record stops
/// before the phase is over (the stay's stone may complete the run, or not). A phase whose rest
/// is all stays (`---- ----`, `c3d3 ---- ----`) is read one way: its stays stand for the stones
/// left, in any order, with no move in between, and the game ends at the first of them whichever
/// stone it names, since the end counts the stuck stones still to act at once.
pub fn other_stays(position: &Phages, tokens: &[Token], i: usize) -> Vec<PhagesMove> {
    if tokens[i].kind != TokenKind::Stay || position.is_over() || position.phase() == Phase::Announce {
        return Vec::new();
    }
    let rest = position.stones_to_act().count().saturating_sub(1);
    let stays_to_the_end = tokens[i + 1..].iter().take(rest).filter(|t| t.kind == TokenKind::Stay).count() == rest;
    if stays_to_the_end {
        return Vec::new();
    }
    let pool = stay_pool(position, tokens, i);
    let stuck = pool.cells().iter().filter(|&&c| is_stuck(position, c));
    stuck.skip(1).map(|&stone| PhagesMove::Stay { stone }).collect()
}

/// The cells the other stone tokens of the current phase start from, read ahead of `i` (at most
/// one fewer than a side's stones, so kept without allocating).
fn phase_mentions(position: &Phages, tokens: &[Token], i: usize) -> Mentions {
    let steps = position.geometry().steps();
    let remaining = position.to_act_bits().count_ones() as usize;
    let mut m = Mentions::default();
    for t in tokens[i + 1..].iter().take(remaining.saturating_sub(1)) {
        let from = match t.kind {
            TokenKind::Step(from, _) => from,
            TokenKind::Stay => continue,
            _ => break,
        };
        if let Some(c) = steps.parse_label(from).filter(|&c| position.content(c) == Content::Stone(position.to_move()))
        {
            m.push(c);
        }
    }
    m
}

/// A few cells, as many as a side has stones at most (kept without allocating).
#[derive(Clone, Copy)]
struct Mentions {
    cells: [crate::geometry::Cell; crate::games::phages::rules::MAX_STONES],
    len: usize,
}

impl Default for Mentions {
    fn default() -> Self {
        Mentions { cells: [crate::geometry::Cell(0); crate::games::phages::rules::MAX_STONES], len: 0 }
    }
}

impl Mentions {
    fn contains(&self, c: &crate::geometry::Cell) -> bool {
        self.cells().contains(c)
    }

    /// Adds a cell: never more than a side's stones.
    fn push(&mut self, c: Cell) {
        self.cells[self.len] = c;
        self.len += 1;
    }

    fn cells(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// Writes a game as a record in the published notation: title, column header, numbered lines
/// (one turn of each column's side), the result as a claim, and the final position.
pub fn write_record(start: &Phages, moves: &[PhagesMove]) -> String {
    use crate::game::Game;
    let mut position = start.clone();
    for &m in moves {
        position.play_unchecked(m);
    }
    let claim = position.is_over().then(|| position.score()).and_then(|s| {
        let w = s.winner()?;
        let (a, b) = if w == Side::X { (s.marks[0], s.marks[1]) } else { (s.marks[1], s.marks[0]) };
        Some(format!("{w} wins {a}-{b}"))
    });
    write_layout(start, moves, claim.as_deref(), &crate::render::ascii::diagram(&position))
}

/// The layout [`write_record`] writes, with a given claim (`and wins 40-39`, `resign`, or none)
/// and final diagram (as [`crate::render::ascii::diagram`] draws it): title, `Startup:` diagram
/// when the start is not the board's default, column header with the first mover's column first,
/// one numbered line per turn of each side with `....` for the first turn's missing phase, the
/// claim, and `Final Position:`. A resignation by the first column's side opens a line of its own.
pub fn write_layout(start: &Phages, moves: &[PhagesMove], claim: Option<&str>, final_diagram: &str) -> String {
    write_annotated(start, moves, &Annotations::default(), claim, final_diagram)
}

/// What a writer added to a published record's moves, as text to write back in place (see
/// [`notes_text`]): before the first move (after the first line's number), after each move (glued
/// to it: it opens with the move's glyph or a blank), and after the claim.
#[derive(Default)]
pub struct Annotations {
    /// After the first line's number.
    pub before: String,
    /// After each move, in order (missing: nothing).
    pub after: Vec<String>,
    /// After the claim.
    pub after_result: String,
}

/// The text of a move's glyphs and the comments and variations after it, as the published notation
/// writes them on the move's line: the first of the six glyphs glued, others `$N`, comments `{...}`,
/// variations `( ... )` with their moves as written. `Err` for what a move line cannot hold: a
/// comment with a line end (or a `}`), a `;` comment.
pub fn notes_text(glyphs: &[u8], notes: &[crate::document::NoteEntry]) -> Result<String, String> {
    use crate::document::NoteEntry;
    let mut out = String::new();
    for (k, &nag) in glyphs.iter().enumerate() {
        if k > 0 || !(1..=6).contains(&nag) {
            out.push(' ');
        }
        out.push_str(&crate::record::notes::glyph_text(nag));
    }
    for note in notes {
        match note {
            NoteEntry::Comment(text) => {
                if text.contains(['}', '\n', '\r']) {
                    return Err(format!(
                        "the comment `{text}` holds a line end or a `}}`: a comment of the published notation closes \
                         on its move line"
                    ));
                }
                out.push_str(&format!(" {{{text}}}"));
            }
            NoteEntry::LineComment(text) => {
                return Err(format!("the comment `;{text}` runs to the end of its line, which the published notation has not: write it {{...}}"));
            }
            NoteEntry::Variation(v) => {
                let mut inner = notes_text(&[], &v.before)?;
                for e in &v.moves {
                    inner.push(' ');
                    inner.push_str(&e.token);
                    inner.push_str(&notes_text(&e.glyphs, &e.after)?);
                }
                if v.moves.is_empty() {
                    return Err("a variation has no moves".into());
                }
                out.push_str(&format!(" ({})", inner.trim_start()));
            }
        }
    }
    Ok(out)
}

/// [`write_layout`], with what the writer added to the moves written back in place.
pub fn write_annotated(
    start: &Phages,
    moves: &[PhagesMove],
    written: &Annotations,
    claim: Option<&str>,
    final_diagram: &str,
) -> String {
    use crate::game::Game;
    let mut out = String::new();
    // The published title is the game's name in capitals.
    out.push_str(&start.about().title.to_uppercase());
    out.push('\n');
    let first = start.to_move();
    match start_form(start) {
        StartForm::Default => {}
        StartForm::Diagram => {
            out.push_str("Startup:");
            out.push_str(&crate::render::ascii::diagram(start));
        }
        StartForm::Code => out.push_str(&format!("Startup: {}\n", start.code())),
    }
    let tag = |s: Side| format!("_{0}{0}_", s.letter().to_ascii_lowercase());
    out.push_str(&format!("{} {}\n", tag(first), tag(first.opponent())));
    let mut position = start.clone();
    let mut line = 0;
    let mut current = String::new();
    let begins_line = |position: &Phages| begins_line(position, first);
    let mut new_line = |out: &mut String, current: &mut String| {
        if line > 0 {
            out.push_str(current.trim_end());
            out.push('\n');
        }
        line += 1;
        *current = format!("{line}.");
    };
    // The first turn has no phase (a): one `....` per stone fills it, before its number.
    for (i, &m) in moves.iter().enumerate() {
        // A start under way (a `Startup:` code) may be in the middle of a turn: its first move
        // opens line 1 all the same.
        if begins_line(&position) || current.is_empty() {
            new_line(&mut out, &mut current);
        }
        if i == 0 && !written.before.is_empty() {
            current.push(' ');
            current.push_str(written.before.trim_start());
        }
        current.push_str(&fillers(&position));
        current.push(' ');
        current.push_str(&position.write_move(m));
        current.push_str(written.after.get(i).map_or("", String::as_str));
        position.play_unchecked(m);
    }
    // A game of no moves still has its first line, the filled phase (a): without a line there is no
    // record (`1. .... ....`, valid, 0 moves).
    if current.is_empty() && !fillers(&position).is_empty() {
        new_line(&mut out, &mut current);
        current.push_str(&fillers(&position));
    }
    if let Some(claim) = claim {
        let resigns = claim.to_ascii_lowercase().starts_with("resign");
        // A resignation at the start of a turn opens a line, unless the line holds no move yet.
        if current.is_empty() || resigns && begins_line(&position) && !moves.is_empty() {
            new_line(&mut out, &mut current);
        }
        current.push(' ');
        current.push_str(claim);
        current.push_str(&written.after_result);
    }
    out.push_str(current.trim_end());
    out.push_str("\nFinal Position:");
    out.push_str(final_diagram);
    out
}

/// Whether a move in `position` opens a numbered line: a turn of `first`, the first column's side,
/// begins (a line holds one turn of each side).
fn begins_line(position: &Phages, first: Side) -> bool {
    let begins_turn = position.stones_to_act().count() == position.stones_per_side()
        && (position.phase() == Phase::Move || position.is_first_turn() && position.phase() == Phase::Announce);
    begins_turn && position.to_move() == first && !position.is_over()
}

/// The `....` that fill the first turn's missing phase (a), before its number, in `position` if
/// they are due there (one per stone), else nothing.
fn fillers(position: &Phages) -> String {
    let due = position.is_first_turn() && position.phase() == Phase::Announce;
    if due {
        " ....".repeat(position.stones_per_side())
    } else {
        String::new()
    }
}

/// `src` with the move `written`, legal in `position`, played in the published record `r`:
/// `replaced` is the token of the record's own move there, and the move is then written as a
/// variation after that move and what is said of it (`c1b1 (c1c4)`); `None` at the record's end,
/// where the move is written after the last token (and what is said of it), before the claim, on
/// a new numbered line when it opens a turn of the first column's side, with the first turn's
/// `....` when the record does not have them yet. Returns the new text and the span of the move's
/// token in it.
pub fn insert_move(
    src: &str,
    r: &Record,
    position: &Phages,
    replaced: Option<usize>,
    written: &str,
) -> (String, crate::record::Span) {
    let said_end = |k: usize| r.notes().said_end(&r.tokens, k);
    let (at, insert) = match replaced {
        Some(k) => (said_end(k), format!(" ({written})")),
        None => {
            let last = r.tokens.iter().rposition(|t| !t.kind.is_claim());
            let trimmed = |end: usize| src[..end].trim_end().len();
            let (at, opens) = match (last, r.lines.last()) {
                (Some(k), Some(line)) => {
                    let first = first_mover(r, position.stones_per_side());
                    let opens = begins_line(position, first) && r.tokens[k].kind != TokenKind::Filler;
                    (said_end(k), opens.then_some(line.number + 1))
                }
                (None, Some(line)) => (trimmed(line.span.end), None),
                // No line yet: the first opens after the header (or the title).
                (_, None) => {
                    let head = r.header.as_ref().map(|h| h.span.end).or(r.title.as_ref().map(|t| t.1.end));
                    (trimmed(head.unwrap_or(r.span.start)), Some(1))
                }
            };
            let has_fillers = r.tokens.iter().any(|t| t.kind == TokenKind::Filler);
            let fill = if has_fillers { String::new() } else { fillers(position) };
            let number = opens.map_or(String::new(), |n| format!("\n{n}."));
            (at, format!("{number}{fill} {written}"))
        }
    };
    let start = at + insert.len() - written.len() - usize::from(replaced.is_some());
    (crate::write::splice(src, at, &insert), start..start + written.len())
}

/// The published notation reads a token in its context: which stone a `----` names depends on the
/// other tokens of its phase (RULINGS 5b).
impl Reader for Phages {
    fn read(&self, tokens: &[Token], i: usize) -> Reading<Self::Move> {
        read(self, tokens, i)
    }

    fn writes_a_move(text: &str) -> bool {
        crate::games::phages::notation::Written::read(text).is_some()
    }

    fn mover(&self) -> usize {
        self.to_move().index()
    }

    fn other_readings(&self, tokens: &[Token], i: usize) -> Vec<Self::Move> {
        other_stays(self, tokens, i)
    }

    fn readings_may_differ(&self) -> bool {
        self.stones_per_side() > 2
    }

    fn same_position(&self, other: &Self) -> bool {
        self == other
    }
}

/// The published notation's slips, for the repair search.
impl Repairable for Phages {
    // `----` reads ahead over the other stone tokens of its phase: one fewer than a side's stones.
    const READ_AHEAD: usize = crate::games::phages::rules::MAX_STONES - 1;

    fn token_kind(text: &str) -> TokenKind {
        crate::record::token_kind(text).unwrap_or(TokenKind::Written)
    }

    /// A slip may show only in the writer's next turn (a phase that did not happen leaves the
    /// stones where the next turn's tokens do not expect them): up to a whole turn of both sides.
    fn window(&self) -> usize {
        4 * self.stones_per_side() + 2
    }

    fn stretches(&self) -> Vec<usize> {
        let k = self.stones_per_side();
        let fresh = self.stones_to_act().count() == k;
        match self.phase() {
            _ if self.is_over() => vec![],
            Phase::Move if fresh => vec![k, 2 * k + 1],
            Phase::MoveAgain if fresh => vec![k],
            Phase::Announce => vec![k + 1],
            _ => vec![],
        }
    }

    fn skipped(&self) -> Option<Vec<String>> {
        if self.is_over() || self.phase() == Phase::Announce {
            return None;
        }
        let left: Vec<_> = self.stones_to_act().collect();
        let could_move = left.iter().any(|&c| self.destinations(c, self.number()).next().is_some());
        could_move.then(|| vec!["----".to_string(); left.len()])
    }

    /// A stay the rules refuse is play that did not happen: the stone loses its turn, and does
    /// not count as failing to move, which could end the game.
    fn play_forced(&mut self, m: PhagesMove) {
        match m {
            PhagesMove::Stay { stone } => self.lose_turn(stone),
            m => self.play_unchecked(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`stay_pool`] as first written: the stones left to act asked of the engine twice, and the
    /// later tokens' cells read by [`Geometry::parse_label`].
    fn stay_pool_reference(position: &Phages, tokens: &[Token], i: usize) -> Vec<Cell> {
        let others = phase_mentions_reference(position, tokens, i);
        let unmentioned = position.stones_to_act().any(|c| !others.contains(&c));
        position.stones_to_act().filter(|c| !unmentioned || !others.contains(c)).collect()
    }

    /// [`phase_mentions`] as first written, with iterator adapters.
    fn phase_mentions_reference(position: &Phages, tokens: &[Token], i: usize) -> Vec<Cell> {
        let remaining = position.stones_to_act().count();
        tokens[i + 1..]
            .iter()
            .take(remaining.saturating_sub(1))
            .take_while(|t| matches!(t.kind, TokenKind::Step(..) | TokenKind::Stay))
            .filter_map(|t| match t.kind {
                TokenKind::Step(from, _) => position.geometry().parse_label(from),
                _ => None,
            })
            .filter(|&c| position.content(c) == Content::Stone(position.to_move()))
            .collect()
    }

    /// [`read`] as first written, one function for every token, with the first versions of the
    /// stay pool and the phase's mentions.
    fn read_reference(position: &Phages, tokens: &[Token], i: usize) -> Reading<PhagesMove> {
        let g = position.geometry();
        let side = position.to_move();
        match tokens[i].kind {
            TokenKind::Filler
                if position.is_first_turn() && position.phase() == Phase::Announce && position.number() == 0 =>
            {
                Reading::Nothing
            }
            TokenKind::Filler => Reading::Problem {
                message: "`....` stands only for the missing phase (a) of the game's first turn".into(),
                apply: None,
            },
            TokenKind::Stay if position.is_over() => Reading::Nothing,
            TokenKind::Number(n) => Reading::Move(PhagesMove::Announce(n)),
            TokenKind::Step(from, to) => {
                let steps = g.steps();
                let cell = |l: CellLabel| steps.parse_label(l);
                let (Some(f), Some(t)) = (cell(from), cell(to)) else {
                    let off = if cell(from).is_none() { from } else { to };
                    let message = format!("{off} is not a cell of the {}", board_name(g));
                    return Reading::Problem { message, apply: None };
                };
                if position.phase() != Phase::Announce
                    && !position.is_over()
                    && position.content(f) != Content::Stone(side)
                {
                    // Lenient replay plays the written destination with the one stone no other token of
                    // the phase accounts for, when there is exactly one; otherwise that stone's turn in
                    // the phase is used up where it stands, so the phases stay in step with the columns.
                    let others = phase_mentions_reference(position, tokens, i);
                    let mut candidates = position.stones_to_act().filter(|c| !others.contains(c));
                    let (first, only) = (candidates.next(), candidates.next().is_none());
                    let apply = first.map(|c| {
                        let to = if only && position.content(t) == Content::Empty { t } else { c };
                        PhagesMove::Step { from: c, to }
                    });
                    return match position.check(PhagesMove::Step { from: f, to: t }) {
                        Err(why) => Reading::Problem { message: why.to_string(), apply },
                        Ok(()) => Reading::Move(PhagesMove::Step { from: f, to: t }),
                    };
                }
                Reading::Move(PhagesMove::Step { from: f, to: t })
            }
            TokenKind::Stay => {
                if position.phase() == Phase::Announce {
                    return Reading::Move(PhagesMove::Stay { stone: position.stones(side)[0] });
                }
                // The first stone that may stay, in the engine's order; the others are the token's
                // other readings (`other_stays`). When none may, the stay is illegal, and is read
                // for the first stone it could name, to say why. A stone alone is named either way, so
                // whether it can move is not asked here (`check` asks it).
                let pool = stay_pool_reference(position, tokens, i);
                let stone = match pool.as_slice() {
                    [only] => Some(only),
                    cells => cells.iter().find(|&&c| is_stuck(position, c)).or(cells.first()),
                };
                match stone {
                    Some(&stone) => Reading::Move(PhagesMove::Stay { stone }),
                    None => Reading::Problem {
                        message: format!("all of {side}'s stones have already moved in this phase"),
                        apply: None,
                    },
                }
            }
            TokenKind::Resign | TokenKind::Wins { .. } | TokenKind::Result { .. } => Reading::Nothing,
            TokenKind::Written => {
                Reading::Problem { message: "not a token of the Quadraphages notation".into(), apply: None }
            }
        }
    }

    /// Random games on square and hex boards of a few sizes with one to three stones a side,
    /// written token by token with some tokens replaced by `----`, by a step from a random cell (on
    /// the board or not), by a number, or by a filler, a claim or a word: at every token, the
    /// reading, the stones a `----` may name and the cells the later tokens of the phase name are
    /// those of the first versions.
    #[test]
    fn stay_pool_and_mentions_agree_with_the_reference() {
        let boards = [3, 5, 9, 12].map(|size| Geometry::Square { size });
        let boards = boards.into_iter().chain((2..=6).map(|side| Geometry::Hex { side }));
        let mut compared = 0;
        for (k, g) in boards.enumerate() {
            let cells: Vec<Cell> = g.cells().collect();
            for seed in 0..30u64 {
                let mut rng = fastrand::Rng::with_seed(seed * 17 + k as u64);
                let mut picks = cells.clone();
                rng.shuffle(&mut picks);
                let per_side = rng.usize(1..=crate::games::phages::rules::MAX_STONES);
                let (x, o) = (&picks[..per_side], &picks[per_side..2 * per_side]);
                let start = Phages::new(g, x, o, Side::X).unwrap();
                // A game, and its positions before each move.
                let (mut position, mut positions, mut texts) = (start.clone(), Vec::new(), Vec::new());
                for _ in 0..200 {
                    let legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[rng.usize(..legal.len())];
                    let text = match rng.u8(..10) {
                        0 => "----".to_string(),
                        1 => {
                            let label = |rng: &mut fastrand::Rng| {
                                let (col, row) = (rng.u8(..g.width() as u8 + 2), rng.u16(1..g.height() + 3));
                                crate::geometry::CellLabel { col, row }.to_string()
                            };
                            format!("{}{}", label(&mut rng), label(&mut rng))
                        }
                        2 => "3".to_string(),
                        3 if rng.u8(..4) == 0 => ["....", "resign", "x9y", "1-0"][rng.usize(..4)].to_string(),
                        _ => position.write_move(m),
                    };
                    positions.push(position.clone());
                    texts.push(text);
                    position.play_unchecked(m);
                }
                let tokens: Vec<Token> = texts
                    .iter()
                    .map(|t| Token {
                        text: t,
                        span: 0..0,
                        kind: crate::record::token_kind(t).unwrap_or(TokenKind::Written),
                    })
                    .collect();
                for (i, position) in positions.iter().enumerate() {
                    let code = position.code();
                    assert_eq!(
                        phase_mentions(position, &tokens, i).cells(),
                        phase_mentions_reference(position, &tokens, i),
                        "{i} in {code}"
                    );
                    assert_eq!(
                        stay_pool(position, &tokens, i).cells(),
                        stay_pool_reference(position, &tokens, i),
                        "{i} in {code}"
                    );
                    assert_eq!(read(position, &tokens, i), read_reference(position, &tokens, i), "{i} in {code}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 10_000, "{compared} tokens compared");
    }

    /// The engine's notation reads a word as the move the record's reader classifies it as
    /// (`Written::read` and `record::token_kind` each read the notation's words, in their layers).
    #[test]
    fn the_engine_reads_the_words_the_reader_classifies_as_moves() {
        use crate::games::phages::notation::Written;
        let known = ["----", "a7a8", "i3i2", "a10b10", "8", "255", "256", "007", "a0b1", "....", "resign", "a1b"];
        let alphabet = ['a', 'b', 'i', 'k', 'z', '0', '1', '2', '5', '9', '-', '.', 'é'];
        let mut rng = fastrand::Rng::with_seed(33);
        let random = (0..100_000).map(|_| {
            let n = rng.usize(0..8);
            (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect::<String>()
        });
        for word in known.map(String::from).into_iter().chain(random) {
            let classified = match crate::record::token_kind(&word) {
                Some(TokenKind::Step(from, to)) => Some(Written::Step(from, to)),
                Some(TokenKind::Stay) => Some(Written::Stay),
                Some(TokenKind::Number(n)) => Some(Written::Number(n)),
                _ => None,
            };
            assert_eq!(Written::read(&word), classified, "{word:?}");
        }
    }
}
