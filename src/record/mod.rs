//! Finding records in any text, and their grammars (see grammar.md).
//!
//! [`read`] makes one pass over a text and hands on every record it finds, of either notation, in
//! file order, one at a time. A line that opens with a well-formed tag (`[Game "Quarod"]`) opens a
//! record of the common format ([`common`]), which runs to its result token. Every other line is
//! classified for the published notation of Quadraphages and Hexaphages (title, column header,
//! diagram row, numbered move line, prose) and records are assembled around their movetext, so
//! that records inside other text are found and the prose around them is ignored. Every token
//! keeps its byte span in the file, all the way to the diagnostic. Parsing only checks syntax;
//! what a token means in a position is decided by the game's notation module.

pub mod common;
mod cursor;
mod lines;
pub mod notes;

use std::ops::Range;

use std::fmt;

use crate::game::{About, Format};
use crate::geometry::{CellLabel, Geometry};

pub use cursor::{without_bom, Lines};
pub use lines::{classify, token_kind, LineKind, Row};

/// Byte offsets into the file.
pub type Span = Range<usize>;

/// The two sides of the published notation, as the letters of its diagrams, column headers and
/// claims name them (the engine's own `Side` is its game's; `format::published` maps this to it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// X: the side that moves first in the default starts.
    X,
    /// O.
    O,
}

impl Side {
    /// `X` or `O`, as diagrams and claims write the side.
    pub fn letter(self) -> char {
        match self {
            Side::X => 'X',
            Side::O => 'O',
        }
    }

    /// The side a letter names, in either case (`x` and `X` are X).
    pub fn from_letter(c: char) -> Option<Side> {
        match c.to_ascii_lowercase() {
            'x' => Some(Side::X),
            'o' => Some(Side::O),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One token of movetext.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Token<'a> {
    /// The token as written.
    pub text: &'a str,
    /// Where it is in the text.
    pub span: Span,
    /// What the notation reads it as.
    pub kind: TokenKind,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// What a movetext token is, read on its own (a game's engine resolves moves later).
pub enum TokenKind {
    /// `a7a8`: the stone on the first cell moves to the second.
    Step(CellLabel, CellLabel),
    /// `----`: a stone that stays because it cannot move.
    Stay,
    /// `....`: fills a phase that does not exist (the first turn's phase (a)).
    Filler,
    /// An announced number.
    Number(u8),
    /// `resign`: the side to move gives up.
    Resign,
    /// `and wins 40-39`, `X wins`: a claimed result. `side` is given when the claim names it;
    /// `and wins` means the side that wrote the last move.
    Wins {
        /// The side that wins, when the claim names it.
        side: Option<Side>,
        /// The claimed score, winner's first (`40-39`), when given.
        score: Option<(u16, u16)>,
    },
    /// A move in the common record format; its game reads it.
    Written,
    /// The result token of the common format: `1-0`, `0-1`, `0-0-1` (the winner's place holds
    /// 1), all zeros for a game nobody won, or `*` (no result claimed: `players` is 0);
    /// `players` is how many places it has.
    Result {
        /// The winner's place in turn order; `None` when nobody won or no result is claimed.
        winner: Option<u8>,
        /// How many places the token has: the number of players, 0 for `*`.
        players: u8,
    },
}

impl TokenKind {
    /// Whether the token claims a result (`resign`, `X wins`, `1-0`): replay stops there.
    pub fn is_claim(self) -> bool {
        matches!(self, TokenKind::Resign | TokenKind::Wins { .. } | TokenKind::Result { .. })
    }
}

/// A numbered line of movetext: one turn of each column's side. Its tokens are
/// `record.tokens[line.tokens]`: a record keeps all of its tokens in one vector.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveLine {
    /// The line's move number as written.
    pub number: u32,
    /// Where the line is in the text.
    pub span: Span,
    /// The line's tokens, as indices into [`Record::tokens`].
    pub tokens: Range<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// How a diagram of the published notation is labelled.
pub enum DiagramLabel {
    /// `Startup:`, the position the game starts from.
    Startup,
    /// `Final Position:`, the position the record claims at the end.
    FinalPosition,
    /// No label: a diagram before the moves is the start, after them the final position.
    None,
}

/// A board diagram: rows of `.`, `o`, `x` (marks) and `O`, `X` (stones).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagram {
    /// Where the diagram is in the text.
    pub span: Span,
    /// How it is labelled.
    pub label: DiagramLabel,
    /// The board it draws, from its column letters and rows.
    pub geometry: Geometry,
    /// Every cell of the board in reading order, with the glyph written and where.
    pub cells: Vec<(CellLabel, char, Span)>,
}

impl Diagram {
    /// Whether it shows marked cells (`x`, `o`): a start diagram shows only stones.
    pub fn has_marks(&self) -> bool {
        self.cells.iter().any(|c| matches!(c.1, 'o' | 'x'))
    }
}

/// The header that names the side of each column, like `_xx_ _oo_` or `_Jx_ _Bo_`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ColumnHeader {
    /// Where the header is in the text.
    pub span: Span,
    /// The side of each column, left then right: the left column's side moves first.
    pub sides: [Side; 2],
    /// The first letter of each column's tag: a player's initial, or the side's letter again.
    pub initials: [char; 2],
}

/// A syntax error: the text at `span` is not what the notation allows there.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// Where the error is in the text.
    pub span: Span,
    /// What the notation expected there.
    pub message: String,
}

/// One game record found in a file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record<'a> {
    /// 1-based position among the file's records.
    pub index: usize,
    /// Where the record is in the text, from its first line to its last.
    pub span: Span,
    /// The game the title that opens the record names (`QUADRAPHAGES`: `quadraphages`), and where
    /// the title is.
    pub title: Option<(&'static str, Span)>,
    /// The header naming each column's side.
    pub header: Option<ColumnHeader>,
    /// The `Startup:` diagram, when the game does not start from the default position.
    pub startup: Option<Diagram>,
    /// A start given as a position code (`Startup: quadraphages_...`) instead of a diagram: the
    /// code and where it is.
    pub startup_code: Option<(Span, &'a str)>,
    /// The final diagram the record claims.
    pub final_position: Option<Diagram>,
    /// The numbered lines of movetext.
    pub lines: Vec<MoveLine>,
    /// Every token of the movetext's main line, in order.
    pub tokens: Vec<Token<'a>>,
    /// The comments, glyphs and variations written on the move lines, if any ([`Record::notes`]).
    pub annotations: Option<Box<notes::Notes<'a>>>,
    /// Every syntax error of the record, in text order.
    pub syntax_errors: Vec<SyntaxError>,
}

impl<'a> Record<'a> {
    /// The comments, glyphs and variations written on the move lines.
    pub fn notes(&self) -> &notes::Notes<'a> {
        notes::Notes::of(&self.annotations)
    }

    /// The tokens of one of the record's lines.
    pub fn line_tokens(&self, line: &MoveLine) -> &[Token<'a>] {
        &self.tokens[line.tokens.clone()]
    }
}

/// Most tokens (moves, numbers, claims, results) read of one record. Real records have at most a
/// few thousand (a random Quarod game on the largest board, 26x26, about 1,500; a Splinter Quad
/// game ends after 100 moves without a capture), so this is far above any game, yet the tokens of
/// a record at the limit take a few megabytes: without it, one line of 200 MB of `----` made 40
/// million tokens and a failed allocation of 1.9 GB.
pub const MAX_TOKENS: usize = 100_000;

/// Most tags of one record. Real records have a dozen or two; without a limit, a line of 59 MB
/// of tags took 970 MB and nearly two minutes.
pub const MAX_TAGS: usize = 1000;

/// What a record holds as it is read (its tokens, its tags), at most so many. The first item past
/// them is a syntax error; the record's further items are still read, to find where it ends, but
/// not kept, so that a record costs what its text costs and no more.
pub(crate) struct Capped<T> {
    list: Vec<T>,
    max: usize,
    /// What the items are, one and many (`token`, `tokens`).
    what: (&'static str, &'static str),
    /// Whether an item past the limit was met (and its error given).
    full: bool,
}

impl<T> Capped<T> {
    /// Tokens, at most [`MAX_TOKENS`], gathered in `scratch` (emptied first): one vector of a
    /// reader that the tokens of all its records pass through, grown to the longest record once
    /// rather than a doubling at a time in every record. The record keeps an exact copy (see
    /// [`Capped::into_exact`]).
    pub(crate) fn tokens_in(mut scratch: Vec<T>) -> Capped<T> {
        scratch.clear();
        Capped { list: scratch, max: MAX_TOKENS, what: ("token", "tokens"), full: false }
    }

    /// Tags, at most [`MAX_TAGS`].
    pub(crate) fn tags() -> Capped<T> {
        Capped { list: Vec::new(), max: MAX_TAGS, what: ("tag", "tags"), full: false }
    }

    /// Keeps `item`, or, at the first item past the limit, adds its error (at `span`) to `errors`.
    #[inline]
    pub(crate) fn push(&mut self, item: T, span: &Span, errors: &mut Vec<SyntaxError>) {
        if self.list.len() < self.max {
            self.list.push(item);
        } else {
            self.past_limit(span, errors);
        }
    }

    /// At the first item past the limit, adds its error (at `span`) to `errors`.
    #[cold]
    fn past_limit(&mut self, span: &Span, errors: &mut Vec<SyntaxError>) {
        if !self.full {
            self.full = true;
            let (one, many) = self.what;
            let message = format!(
                "this is {one} {} of the record: referee reads at most {} {many} of one record, far more than any \
                 real record has, so this record is not verified",
                self.max + 1,
                self.max
            );
            push_capped(errors, SyntaxError { span: span.clone(), message });
        }
    }

    /// Whether an item past the limit was met.
    pub(crate) fn is_full(&self) -> bool {
        self.full
    }

    /// Forgets the items after the first `len`.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    /// The items kept.
    pub(crate) fn into_vec(self) -> Vec<T> {
        self.list
    }

    /// The items kept, in a vector just as long (one allocation, one copy), and the scratch
    /// vector they were gathered in, emptied, for the next record (see [`Capped::tokens_in`]).
    /// A scratch vector grown past [`SCRATCH_MOST`] items by a long record is let go of, so that
    /// a reader does not hold it for the short ones after it.
    pub(crate) fn into_exact(mut self) -> (Vec<T>, Vec<T>) {
        // `append` moves the items with one copy of their bytes (collecting a drain moved them
        // one at a time).
        let mut kept = Vec::with_capacity(self.list.len());
        kept.append(&mut self.list);
        if self.list.capacity() > SCRATCH_MOST {
            self.list = Vec::new();
        }
        (kept, self.list)
    }
}

impl<T> std::ops::Deref for Capped<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.list
    }
}

/// Most items a reader's scratch vector keeps room for between records (see
/// [`Capped::tokens_in`]): ten times the tokens of the longest real records (a Quarod game on the
/// largest board has about 1,500), 768 KiB at 48 bytes a token.
const SCRATCH_MOST: usize = 1 << 14;

/// The tokens of one record as they are read.
pub(crate) type Tokens<'a> = Capped<Token<'a>>;

/// How many move lines to make room for in the next record before reading it: as many as the
/// last record had. Records of one file are much alike, so a record's list of lines is allocated
/// once instead of grown a doubling at a time. Capped, so that a long record followed by short
/// ones does not make each of them hold its room: a record holds at most its own list and the
/// last one's. (Tokens pass through a scratch vector instead: see [`Capped::tokens_in`].)
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Room {
    pub(crate) lines: usize,
}

impl Room {
    /// Most of the room of a record: more lines than most real records have (a Quadraphages
    /// record has about 15), and at 40 bytes a line a bound on what is held for nothing (40 KiB).
    const MOST: usize = 1024;

    /// The room for the record after one with `lines`.
    pub(crate) fn after(lines: usize) -> Room {
        Room { lines: lines.min(Room::MOST) }
    }
}

impl<'a> Tokens<'a> {
    /// Keeps a token, or says where the limit is passed (see [`Capped::push`]).
    #[inline]
    pub(crate) fn push_token(&mut self, token: Token<'a>, errors: &mut Vec<SyntaxError>) {
        if self.list.len() < self.max {
            self.list.push(token);
        } else {
            self.past_limit(&token.span, errors);
        }
    }
}

/// The error of a diagram row with more cells than any board's rows: `row` is its 1-based number,
/// `count` its cells, `span` where its first cells are.
fn row_past_any_board(row: usize, count: usize, span: Span) -> SyntaxError {
    let message = format!(
        "row {row} of this diagram has {count} cells: no board has more than {} in a row",
        crate::geometry::MAX_ROW_CELLS
    );
    SyntaxError { span, message }
}

/// The error of a diagram of `rows` rows, more than any board has, at its first row too many.
fn rows_past_any_board(rows: usize, span: Span) -> SyntaxError {
    let message = format!("this diagram has {rows} rows: no board has more than {}", crate::geometry::MAX_ROW_CELLS);
    SyntaxError { span, message }
}

/// The next word of `text` from byte `*at` on, as `str::split_ascii_whitespace` splits words
/// (at ASCII white space), as its start and end; `*at` moves past it. Read byte by byte, without
/// the general splitter's search and pointer arithmetic: every word of every move line that is
/// no common token (`lines::quick_token`) passes through it. `tests::words_split_as_split_ascii_whitespace` holds it to the
/// standard splitter. Both ends are at ASCII bytes or the ends of the text, so at character
/// boundaries.
#[inline]
pub(crate) fn next_word(text: &[u8], at: &mut usize) -> Option<(usize, usize)> {
    let mut i = *at;
    while i < text.len() && text[i].is_ascii_whitespace() {
        i += 1;
    }
    let start = i;
    while i < text.len() && !text[i].is_ascii_whitespace() {
        i += 1;
    }
    *at = i;
    (i > start).then_some((start, i))
}

/// Most syntax errors kept for one record, so that memory stays bounded on any input; past it
/// the record says that more follow.
pub const MAX_SYNTAX_ERRORS: usize = 100;

/// Adds a syntax error unless the list already holds more than [`MAX_SYNTAX_ERRORS`].
fn push_capped(errors: &mut Vec<SyntaxError>, e: SyntaxError) {
    if errors.len() <= MAX_SYNTAX_ERRORS {
        errors.push(e);
    }
}

/// Keeps the first [`MAX_SYNTAX_ERRORS`] of a record's syntax errors (in file order) and, if there
/// were more, says so where the next one was.
fn cap_syntax_errors(errors: &mut Vec<SyntaxError>) {
    if errors.len() > MAX_SYNTAX_ERRORS {
        errors.truncate(MAX_SYNTAX_ERRORS + 1);
        errors[MAX_SYNTAX_ERRORS].message =
            format!("more syntax errors follow: referee lists the first {MAX_SYNTAX_ERRORS} of a record");
    }
}

/// A record found in a text, in the notation it is written in.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Found<'a> {
    /// The published notation of Quadraphages and Hexaphages.
    Published(Record<'a>),
    /// The common record format.
    Common(common::CommonRecord<'a>),
}

impl Found<'_> {
    /// 1-based position among the text's records.
    pub fn index(&self) -> usize {
        match self {
            Found::Published(r) => r.index,
            Found::Common(r) => r.index,
        }
    }

    /// Where the record is in the text.
    pub fn span(&self) -> Span {
        match self {
            Found::Published(r) => r.span.clone(),
            Found::Common(r) => r.span.clone(),
        }
    }

    /// The record's tags in its order, as written in `src` (the text it was found in): the common
    /// format's tag pairs; the published notation's title line and column header (`Title`,
    /// `Header`), which stand where tags would.
    pub fn tags(&self, src: &str) -> Vec<(String, String)> {
        match self {
            Found::Common(r) => r.tags.iter().map(|t| (t.name.to_string(), t.value.to_string())).collect(),
            Found::Published(r) => {
                let written = |span: &Span| src.get(span.clone()).unwrap_or_default().trim().to_string();
                let title = r.title.as_ref().map(|(_, span)| ("Title".to_string(), written(span)));
                // The two column tags, however far apart they are written.
                let tags = |span: &Span| written(span).split_ascii_whitespace().collect::<Vec<_>>().join(" ");
                let header = r.header.as_ref().map(|h| ("Header".to_string(), tags(&h.span)));
                title.into_iter().chain(header).collect()
            }
        }
    }

    /// Gives the record its position among the text's records.
    pub fn set_index(&mut self, index: usize) {
        match self {
            Found::Published(r) => r.index = index,
            Found::Common(r) => r.index = index,
        }
    }
}

/// Every record of a text, of either notation, in file order, one at a time.
///
/// `game` is the game `--game` names: when it is a game of the common format, a numbered move line
/// outside any record opens a record of that game without tags.
pub fn read<'a>(src: &'a str, game: Option<&About>) -> Reader<'a> {
    read_format(src, game.map(|g| g.format))
}

/// Every record of a text, as [`read`] finds them; `untagged` is the format of the records a
/// numbered move line outside any record opens, if any (the common format: a record of the game
/// read, without tags).
pub fn read_format(src: &str, untagged: Option<Format>) -> Reader<'_> {
    read_window(src, untagged, Resume::default(), None)
}

/// The records of a window of a longer text that is read in chunks, from `from.offset` on, a line
/// start where the reader of the text before could [`Resume`] (`from.found` records were found
/// before it). `open_end` is `Some` when more text may follow: then no record that depends on
/// text beyond the window is handed on, and the reader stops there; the caller starts a new window
/// at [`Reader::resume`] with more text.
pub fn read_window<'a>(
    src: &'a str,
    untagged: Option<Format>,
    from: Resume,
    open_end: Option<&'a std::sync::atomic::AtomicBool>,
) -> Reader<'a> {
    let untagged = untagged == Some(Format::Common);
    let mut lines = Lines::window(src, open_end);
    if from.offset > 0 {
        lines.seek(from.offset);
    }
    Reader {
        lines,
        published: lines::Assembler::default(),
        untagged,
        found: from.found,
        ready: None,
        resume: from,
        quiet: 0,
        open_end,
        pause: None,
        paused: false,
        room: Room::default(),
        scratch: Vec::new(),
    }
}

/// Where reading can start again: a line start where nothing was waiting for more lines, and how
/// many records had been found before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// The byte offset of the line start.
    pub offset: usize,
    /// How many records were found before it.
    pub found: usize,
}

/// Most lines of prose a title, header or diagram waits for its moves, and a record for its final
/// diagram (a record of the common format: blank lines, for its diagram or its movetext to go on):
/// past them they belong to no record, and the record is handed on. This bounds how much text a
/// reader of a stream must hold, and how much an edit's reading goes back ([`crate::judged`]).
pub const MAX_WAIT_LINES: usize = 1000;

/// The iterator [`read`] returns.
pub struct Reader<'a> {
    lines: Lines<'a>,
    published: lines::Assembler<'a>,
    /// Whether move lines outside records open common-format records without tags.
    untagged: bool,
    found: usize,
    /// A record of the common format read while a published one was still open: it comes next.
    ready: Option<Found<'a>>,
    resume: Resume,
    /// Lines of prose since the last element of the published notation.
    quiet: usize,
    open_end: Option<&'a std::sync::atomic::AtomicBool>,
    /// The offset from which on the reader pauses at the first line where it is between records:
    /// see [`Reader::pause_at`].
    pause: Option<usize>,
    /// Whether the last `None` was a pause.
    paused: bool,
    /// The room to make in the next record's lists: see [`Room`].
    room: Room,
    /// Where the tokens of each record are gathered: see [`Capped::tokens_in`].
    scratch: Vec<Token<'a>>,
}

impl<'a> Reader<'a> {
    /// The last point where this reader could start again: see [`read_window`].
    pub fn resume(&self) -> Resume {
        self.resume
    }

    /// Makes [`Iterator::next`] pause (return `None`) at the first line start at or past `offset`
    /// where the reader is between records, with [`Reader::resume`] there; the next call goes on
    /// reading from there. A reader that paused is not at its end: see [`Reader::paused`].
    pub fn pause_at(&mut self, offset: usize) {
        self.pause = Some(offset);
    }

    /// Whether the last `None` of [`Iterator::next`] was a pause ([`Reader::pause_at`]), not the
    /// end of the text.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the reader stopped at the open end of its window, needing more text.
    pub fn needs_more(&self) -> bool {
        self.open_end.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Hands a record on, numbered, unless it was read past the open end of the window.
    fn emit(&mut self, mut f: Found<'a>) -> Option<Found<'a>> {
        if self.needs_more() {
            return None;
        }
        if let Found::Published(r) = &f {
            self.room = Room::after(r.lines.len());
        }
        self.found += 1;
        f.set_index(self.found);
        Some(f)
    }

    /// Whether the line opens a record of the common format.
    fn opens_common(&self, line: &str) -> bool {
        common::opens_record(line)
            || (self.untagged
                && line.split_ascii_whitespace().next().is_some_and(|w| common::strip_move_number(w).is_some()))
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Found<'a>;

    fn next(&mut self) -> Option<Found<'a>> {
        self.paused = false;
        if let Some(f) = self.ready.take() {
            return self.emit(f);
        }
        loop {
            if self.needs_more() {
                return None;
            }
            if self.published.is_idle() {
                self.resume = Resume { offset: self.lines.offset(), found: self.found };
                // At the text's end there is nothing to pause for: the reader ends.
                if self.pause.is_some_and(|p| self.resume.offset >= p) && self.resume.offset < self.lines.end() {
                    (self.pause, self.paused) = (None, true);
                    return None;
                }
            }
            let before = self.lines;
            let Some((at, line)) = self.lines.next() else {
                if self.needs_more() {
                    return None;
                }
                let last = self.published.finish()?;
                return self.emit(Found::Published(last));
            };
            if self.opens_common(line) {
                self.lines = before;
                self.quiet = 0;
                let r = Found::Common(common::read_record_in(&mut self.lines, &mut self.scratch));
                match self.published.finish() {
                    Some(open) => {
                        self.ready = Some(r);
                        return self.emit(Found::Published(open));
                    }
                    None => return self.emit(r),
                }
            }
            match lines::element(at, line, &mut self.lines, self.room, &mut self.scratch) {
                Some(element) => {
                    self.quiet = 0;
                    if let Some(r) = self.published.push(element) {
                        return self.emit(Found::Published(r));
                    }
                }
                None if self.published.is_idle() => {}
                None => {
                    self.quiet += 1;
                    if self.quiet >= MAX_WAIT_LINES {
                        if let Some(r) = self.published.finish() {
                            return self.emit(Found::Published(r));
                        }
                    }
                }
            }
        }
    }
}

/// Every record of the published notation in a text, as [`read`] finds them.
pub fn parse(src: &str) -> Vec<Record<'_>> {
    read(src, None)
        .filter_map(|f| match f {
            Found::Published(r) => Some(r),
            Found::Common(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_as_split_ascii_whitespace() {
        let mut rng = fastrand::Rng::with_seed(26);
        let alphabet = ['a', '1', '.', ' ', ' ', '\t', '\n', '\x0b', '\x0c', '\r', '\u{3000}', '\u{85}', 'é'];
        for _ in 0..200_000 {
            let n = rng.usize(0..10);
            let text: String = (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect();
            let mut at = 0;
            let words: Vec<&str> =
                std::iter::from_fn(|| next_word(text.as_bytes(), &mut at).map(|(s, e)| &text[s..e])).collect();
            let expected: Vec<&str> = text.split_ascii_whitespace().collect();
            assert_eq!(words, expected, "{text:?}");
        }
    }
}
