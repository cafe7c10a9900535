//! A whole game as one document: what `referee convert` writes as JSON and reads back, and what
//! each record format replays a record into and writes a record from (docs/json.md has the
//! schema). The checks and layouts here are shared by both formats.

pub mod json;
pub mod tree;

use serde::{Deserialize, Serialize};

use crate::game::{BoardView, Game};
use crate::geometry::{Cell, Geometry};
use crate::record::{self, Token, TokenKind};
use crate::render::ascii;
use crate::replay::{replay_observed, Event, Reader, ReplayOptions};
use crate::verdict::{ProblemKind, Verdict};

/// A whole game as `referee convert --to json` writes it and `--from json` reads it back
/// (docs/json.md). Derived fields (each move's `ply`, `mover` and `canonical`, and the `outcome`)
/// are written for readers and recomputed on reading, so they may be left out.
///
/// Each field is read within the bounds of [`json`] (a field read by a function of its own is no
/// longer optional by its type alone: `default` keeps an absent `null`able field `None`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameDocument {
    /// The game, as `--game` names it: `quadraphages`, `hexaphages`, `quarod`, `petrify`,
    /// `vadrantir` or `splinter`.
    #[serde(deserialize_with = "json::text")]
    pub game: String,
    /// The board's side: of the square, or of the hexagon.
    pub size: u8,
    /// The players' colours in turn order from the start, as records name them (`X`, `Black`,
    /// `Red`); as many as the game has players.
    #[serde(deserialize_with = "json::players")]
    pub players: Vec<String>,
    /// The colour that plays the first move (in the published notation, the column header and the
    /// `....` of the first line say it; in the common format the first colour always begins).
    #[serde(deserialize_with = "json::text")]
    pub first: String,
    /// The record's tags as `[name, value]` pairs in the canonical order (see
    /// [`canonical_tag_order`]), without `Game`, `Size` and `Players`, which the fields above hold.
    /// The published notation has none.
    #[serde(default, deserialize_with = "json::tags")]
    pub tags: Vec<(String, String)>,
    /// The start position when it is not the board's default: one string per row, top row first,
    /// the glyphs of its cells separated by single spaces, as the record's diagrams draw them.
    #[serde(default, deserialize_with = "json::optional_rows")]
    pub setup: Option<Vec<String>>,
    /// The start position's code (grammar.md, Part V), always written. On reading, when given, it
    /// is the start (and `setup`, if given too, must draw its board); else `setup` is, else the
    /// board's default. A start in the middle of a game (a `[Position]` tag, a `Startup:` code)
    /// needs it: a diagram shows only the board.
    #[serde(default, deserialize_with = "json::optional_text")]
    pub start_code: Option<String>,
    /// The comments written before the first move (grammar.md, "Comments, glyphs and
    /// variations"); left out of the JSON when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "json::notes")]
    pub before: Vec<NoteEntry>,
    /// Every move of the main line, in order: the moves the game was played with.
    #[serde(deserialize_with = "json::moves")]
    pub moves: Vec<MoveEntry>,
    /// The comments written after the result token; left out of the JSON when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "json::notes")]
    pub after_result: Vec<NoteEntry>,
    /// The result the record claims, as written: the common format's result token (else its
    /// `[Result]` tag's value), the published notation's claim (`and wins 40-39`, `resign`); `null`
    /// when the record claims none. Not the computed result: that is [`GameDocument::outcome`].
    #[serde(default, deserialize_with = "json::optional_text")]
    pub result: Option<String>,
    /// The final position the record draws, as [`GameDocument::setup`] writes rows; when it draws
    /// none, the position the replay reached.
    #[serde(deserialize_with = "json::rows")]
    pub final_position: Vec<String>,
    /// How the game ended, as the rules compute it; `null` while it is not over. Recomputed on
    /// reading.
    #[serde(default)]
    pub outcome: Option<OutcomeEntry>,
}

/// One move of a [`GameDocument`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveEntry {
    /// 1 for the first move: the position after it is `referee show --ply N`'s. Stone moves, stays
    /// and announced numbers count; `....` is no move. Recomputed on reading.
    #[serde(default)]
    pub ply: usize,
    /// The colour that played it. Recomputed on reading.
    #[serde(default, deserialize_with = "json::text")]
    pub mover: String,
    /// The token as the record writes it: what `--from json` reads.
    #[serde(deserialize_with = "json::text")]
    pub token: String,
    /// The token as referee writes the move. Recomputed on reading.
    #[serde(default, deserialize_with = "json::text")]
    pub canonical: String,
    /// The position code after the move (grammar.md, Part V). Recomputed on reading.
    #[serde(default, deserialize_with = "json::text")]
    pub code: String,
    /// The glyphs written after the move, as numbers (1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`,
    /// 6 `?!`, others `$N`); left out of the JSON when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "json::glyphs")]
    pub glyphs: Vec<u8>,
    /// The comments and variations written after the move, in the order written; left out of the
    /// JSON when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "json::notes")]
    pub after: Vec<NoteEntry>,
}

impl MoveEntry {
    /// A move as written, not yet replayed: its derived fields empty, nothing after it.
    pub fn written(token: &str) -> MoveEntry {
        MoveEntry {
            ply: 0,
            mover: String::new(),
            token: token.to_string(),
            canonical: String::new(),
            code: String::new(),
            glyphs: Vec::new(),
            after: Vec::new(),
        }
    }

    /// Whether the move was played: a variation's moves are played as far as they are legal, and
    /// from its first illegal move on they are kept as written, with no `mover` or `code`.
    pub fn played(&self) -> bool {
        !self.code.is_empty()
    }
}

/// What a writer put at a place among the moves: a comment, or a variation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteEntry {
    /// A comment written `{...}`: its text between the braces, exactly as written.
    Comment(#[serde(deserialize_with = "json::text")] String),
    /// A comment written `;...` to the end of its line: its text after the `;`.
    LineComment(#[serde(deserialize_with = "json::text")] String),
    /// A variation: moves that could have been played instead of the move it follows, from the
    /// position before that move.
    Variation(LineEntry),
}

/// A variation's moves, and the comments written before its first move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineEntry {
    /// The comments before its first move; left out of the JSON when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "json::notes")]
    pub before: Vec<NoteEntry>,
    /// Its moves, in order: played as far as they are legal (see [`MoveEntry::played`]).
    #[serde(deserialize_with = "json::variation_moves")]
    pub moves: Vec<MoveEntry>,
}

/// How a game ended, in a [`GameDocument`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeEntry {
    /// The winner's colour; `null` if nobody won.
    #[serde(default, deserialize_with = "json::optional_text")]
    pub winner: Option<String>,
    /// Each player's points, in the order of [`GameDocument::players`] (Quadraphages and
    /// Hexaphages: marked cells).
    #[serde(deserialize_with = "json::points")]
    pub points: Vec<f64>,
    /// How the winner was decided, in the game's words.
    #[serde(deserialize_with = "json::text")]
    pub detail: String,
}

/// Why a record or a document cannot be converted.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The file holds no record (or JSON document) with this 1-based index.
    #[error("there is no record {index} (the file has {count})")]
    NoRecord {
        /// The index asked for.
        index: usize,
        /// How many the file holds.
        count: usize,
    },
    /// The record does not replay to its end (a syntax error, an illegal move, a start that cannot
    /// be had): its verdict, with the problems that stop it.
    #[error("{}", first_stop(.0))]
    NotReplayed(Box<Verdict>),
    /// The JSON is not a game document, or holds a string or a list past its bounds
    /// ([`json::MAX_STRING`]): serde_json's message, and where in the text (1-based line, and
    /// column in bytes; none for a failure that has no place).
    #[error("not a game document: {message}{}", .line.zip(*.column).map(|(l, c)| format!(" at line {l} column {c}")).unwrap_or_default())]
    Json {
        /// What is wrong.
        message: String,
        /// Its line.
        line: Option<usize>,
        /// Its column, in bytes.
        column: Option<usize>,
    },
    /// The document is well formed but holds no game that can be replayed to its end: an unknown
    /// game, a setup that does not fit the board, an illegal move (at `ply`).
    #[error("{}{message}", .ply.map(|p| format!("move {p}: ")).unwrap_or_default())]
    Document {
        /// The move at fault, if one is.
        ply: Option<usize>,
        /// What is wrong.
        message: String,
    },
}

/// The problem that stops a record's replay, in words.
pub(crate) fn first_stop(v: &Verdict) -> String {
    v.problems
        .iter()
        .find(|p| stops(p.kind))
        .map_or_else(|| "the record cannot be replayed".into(), |p| p.message.clone())
}

/// Whether a problem stops the replay before the record's end: anything but a claim.
pub(crate) fn stops(kind: ProblemKind) -> bool {
    kind != ProblemKind::Claim
}

pub(crate) fn invalid(message: String) -> ConvertError {
    ConvertError::Document { ply: None, message }
}

/// The rank of a tag in the canonical order: `Event`, `Site`, `Date`, `Round`, the players' tags in
/// turn order (`Black`, `White`), any others as the record orders them, `Result` last. `None` for
/// `Game`, `Size`, `Players` and `Position`, which a document holds in fields of their own.
pub fn canonical_tag_order(name: &str, players: &[&str]) -> Option<usize> {
    const ROSTER: [&str; 4] = ["Event", "Site", "Date", "Round"];
    let is = |n: &str| name.eq_ignore_ascii_case(n);
    if ["Game", "Size", "Players", "Position"].into_iter().any(is) {
        return None;
    }
    Some(if let Some(i) = ROSTER.into_iter().position(is) {
        i
    } else if let Some(i) = players.iter().position(|p| is(p)) {
        ROSTER.len() + i
    } else if is("Result") {
        usize::MAX
    } else {
        ROSTER.len() + players.len()
    })
}

/// Tags in [`canonical_tag_order`] (a stable sort: tags of one rank keep their order), not copied:
/// a document's tags may hold megabytes.
pub(crate) fn ordered_tags<'t>(
    tags: impl Iterator<Item = (&'t str, &'t str)>,
    players: &[&str],
) -> Vec<(&'t str, &'t str)> {
    let mut ranked: Vec<_> =
        tags.filter_map(|(n, v)| canonical_tag_order(n, players).map(|rank| (rank, n, v))).collect();
    ranked.sort_by_key(|t| t.0);
    ranked.into_iter().map(|(_, n, v)| (n, v)).collect()
}

/// A game replayed from its start: each move with the token that wrote it, and where it ended.
pub(crate) struct Replayed<G: Game> {
    pub(crate) moves: Vec<(G::Move, String)>,
    /// The index of each move's token in the tokens replayed (a published record's `....` is no
    /// move).
    pub(crate) tokens: Vec<usize>,
    pub(crate) end: G,
}

/// Replays `tokens` from `start` to the end, or says at which move (1-based) and why it stops.
pub(crate) fn replay_all<G: Reader>(start: &G, tokens: &[Token]) -> Result<Replayed<G>, (usize, String)> {
    let (mut moves, mut indices) = (Vec::new(), Vec::new());
    let mut stop = None;
    let rep = replay_observed(start.clone(), tokens, ReplayOptions::default(), |event| match event {
        Event::Playing { token, m, .. } => {
            moves.push((m, tokens[token].text.to_string()));
            indices.push(token);
        }
        Event::Illegal { token, why, .. } => {
            stop = Some((moves.len() + 1, format!("`{}` is not a legal move here: {why}", tokens[token].text)))
        }
        Event::Played { .. } => {}
    });
    match stop {
        Some(s) => Err(s),
        None => Ok(Replayed { moves, tokens: indices, end: rep.position }),
    }
}

/// The moves of a replay as a document writes them.
pub(crate) fn move_entries<G: Reader>(start: &G, game: &Replayed<G>) -> Vec<MoveEntry> {
    let mut position = start.clone();
    let names = start.player_names();
    game.moves
        .iter()
        .enumerate()
        .map(|(i, (m, token))| {
            let mover = names[position.mover()].to_string();
            let canonical = position.write_move(*m);
            position.play_unchecked(*m);
            MoveEntry { ply: i + 1, mover, canonical, code: position.code(), ..MoveEntry::written(token) }
        })
        .collect()
}

/// A position's rows as a document writes them: glyphs separated by spaces, top row first.
pub(crate) fn rows_of(view: &impl BoardView) -> Vec<String> {
    let g = view.geometry();
    (0..g.height()).map(|row| g.row_cells(row).map(|c| view.glyph(c)).collect::<Vec<_>>().join(" ")).collect()
}

/// The final diagram a document's record claims: the document's rows, or, when it gives none, the
/// board its replay reaches (which holds), so that the record never claims an empty diagram.
pub(crate) fn final_rows(doc: &GameDocument, end: &impl BoardView) -> Vec<String> {
    if doc.final_position.is_empty() {
        rows_of(end)
    } else {
        doc.final_position.clone()
    }
}

/// Lays out a document's diagram rows as the records' diagrams are drawn: on `board` when they fit
/// it, else on the board they draw (a refuted diagram may draw another), else row by row as written.
///
/// A reader skips a byte-order mark at the start of a line (grammar.md), so a row whose first
/// glyph opens with one is indented by a blank: the glyph, wrong as it is, reads back whole.
pub(crate) fn layout(rows: &[String], board: Geometry) -> String {
    let text = laid_out(rows, board);
    if !text.contains("\n\u{feff}") {
        return text;
    }
    text.split_inclusive('\n').map(|l| if l.starts_with('\u{feff}') { format!(" {l}") } else { l.into() }).collect()
}

fn laid_out(rows: &[String], board: Geometry) -> String {
    let cells: Vec<Vec<&str>> = rows.iter().map(|r| r.split_ascii_whitespace().collect()).collect();
    let lengths: Vec<usize> = cells.iter().map(Vec::len).collect();
    let n = rows.len();
    let square = Geometry::Square { size: n as u8 };
    let side = n.div_ceil(2);
    let hex = Geometry::Hex { side: side as u8 };
    let fitting = [board, square, hex].into_iter().find(|&g| {
        plausible(g)
            && g.height() as usize == n
            && (0..g.height()).all(|r| g.row_cells(r).count() == lengths[r as usize])
    });
    match fitting {
        Some(g) => {
            let mut glyph = vec![""; g.slots()];
            for (row, glyphs) in cells.iter().enumerate() {
                for (c, s) in g.row_cells(row as u16).zip(glyphs) {
                    glyph[c.0 as usize] = s;
                }
            }
            ascii::diagram_of(g, |c: Cell| glyph[c.0 as usize])
        }
        None => {
            let width = lengths.iter().copied().max().unwrap_or(0);
            let letters: Vec<String> = (0..width).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
            let mut out = letters.join(" ");
            out.push('\n');
            for (k, glyphs) in cells.iter().enumerate() {
                out.push_str(&format!("{} {}.\n", glyphs.join(" "), k + 1));
            }
            out
        }
    }
}

/// Whether referee draws boards of this shape: squares of side 2 to 26, hexagons of side 2 to 7
/// (wider ones would run out of column letters).
pub(crate) fn plausible(g: Geometry) -> bool {
    match g {
        Geometry::Square { size } => (2..=26).contains(&size),
        Geometry::Hex { side } => (2..=7).contains(&side),
    }
}

/// The rows of a start or final diagram of a document, one glyph per cell of `g`, or why not.
pub(crate) fn glyphs_on<'d>(rows: &'d [String], g: Geometry, what: &str) -> Result<Vec<&'d str>, ConvertError> {
    // Counted before any cell is held: a row of millions of cells, or millions of rows, cost a pass
    // over them and an error of a few words.
    let want: Vec<usize> = (0..g.height()).map(|r| g.row_cells(r).count()).collect();
    let board = format!("{} rows of {want:?}", g.height());
    if rows.len() != want.len() {
        return Err(invalid(format!(
            "the {what} has {} rows, which do not draw the game's board ({board})",
            rows.len()
        )));
    }
    let counts: Vec<usize> = rows.iter().map(|r| r.split_ascii_whitespace().count()).collect();
    if counts != want {
        return Err(invalid(format!(
            "the {what} has {} rows of {counts:?} cells, which do not draw the game's board ({board})",
            rows.len()
        )));
    }
    Ok(rows.iter().flat_map(|r| r.split_ascii_whitespace()).collect())
}

/// The tokens of a document's moves, read by `kind` (a token's position in the file is its ply).
pub(crate) fn tokens_of(
    doc: &GameDocument,
    kind: impl Fn(&str) -> Option<TokenKind>,
) -> Result<Vec<Token<'_>>, ConvertError> {
    // The limit of a record's tokens in a text holds for a document's moves too.
    if doc.moves.len() > record::MAX_TOKENS {
        return Err(ConvertError::Document {
            ply: Some(record::MAX_TOKENS + 1),
            message: format!(
                "the document has {} moves: referee reads at most {} of one record, far more than any real game has",
                doc.moves.len(),
                record::MAX_TOKENS
            ),
        });
    }
    doc.moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let kind = kind(&m.token).ok_or_else(|| ConvertError::Document {
                ply: Some(i + 1),
                message: format!("`{}` is not a move of the notation", m.token),
            })?;
            Ok(Token { text: &m.token, span: i..i, kind })
        })
        .collect()
}

/// The players of a document, checked against the game's.
pub(crate) fn check_players(doc: &GameDocument, names: &[&str]) -> Result<(), ConvertError> {
    if doc.players.iter().map(String::as_str).ne(names.iter().copied()) {
        return Err(invalid(format!("the players are {}, not {}", names.join(", "), doc.players.join(", "))));
    }
    Ok(())
}

/// Tag names and values a record can hold: `[Name "value"]` has no room for quotes or line ends,
/// and a record gives each tag once. `Game`, `Size`, `Players` and `Position` are the document's
/// own fields, not tags: a tag of theirs would be a second one.
pub(crate) fn check_tags(doc: &GameDocument) -> Result<(), ConvertError> {
    for (name, value) in &doc.tags {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(invalid(format!("tags: `{name}` cannot be a tag name: letters, digits and `_` only")));
        }
        if value.contains(['"', '\n', '\r']) {
            return Err(invalid(format!("tags: the {name} tag's value cannot hold a quote or a line end")));
        }
        if canonical_tag_order(name, &[]).is_none() {
            return Err(invalid(format!(
                "tags: the document gives {name} in a field of its own (game, size, players, start_code), not as a tag"
            )));
        }
    }
    if let Some(&(first, _)) = record::common::repeated_tags(doc.tags.iter().map(|t| t.0.as_str())).first() {
        let message = record::common::repeated_tag_message(&doc.tags[first].0, &doc.tags[first].1, "a document");
        return Err(invalid(format!("tags: {message}")));
    }
    Ok(())
}

/// Whether a document that gives both a start code and a setup draws the code's board.
pub(crate) fn same_setup(start: &impl BoardView, doc: &GameDocument) -> Result<(), ConvertError> {
    let Some(rows) = &doc.setup else { return Ok(()) };
    // Compared word by word, so that a row of millions of cells is not copied.
    let want = rows_of(start);
    let same = rows.len() == want.len()
        && rows.iter().zip(&want).all(|(row, w)| row.split_ascii_whitespace().eq(w.split_ascii_whitespace()));
    if !same {
        return Err(invalid("the setup does not draw the start_code's board".into()));
    }
    Ok(())
}
