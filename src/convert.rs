//! Records rewritten: in their notation's canonical layout, or as a JSON document of the whole game,
//! and back from that JSON (`referee convert`; the schema is in docs/json.md).
//!
//! Everything goes through one [`GameDocument`]: a record is replayed into one, and the canonical
//! text is written from one, whether it came from a record or from JSON. Only a record that replays
//! to its end is converted: a record with a syntax error, an illegal move or a start that cannot be
//! had gets [`ConvertError::NotReplayed`] with its verdict, as `referee verify` would report it.

use serde::{Deserialize, Serialize};

use crate::code::Coded;
use crate::game::{BoardView, CommonFormat, Game, WithCommonFormat};
use crate::games::phages::{self, Phages, Side};
use crate::games::GameKind;
use crate::geometry::{Cell, Geometry};
use crate::record::common::CommonRecord;
use crate::record::{self, Found, Record, Token, TokenKind};
use crate::render::ascii;
use crate::replay::{replay_observed, Event, Reader, ReplayOptions};
use crate::verdict::{ProblemKind, Verdict};
use crate::verify::{self, VerifyOptions};
use crate::write;

/// A whole game as `referee convert --to json` writes it and `--from json` reads it back
/// (docs/json.md). Derived fields (each move's `ply`, `mover` and `canonical`, and the `outcome`)
/// are written for readers and recomputed on reading, so they may be left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameDocument {
    /// The game, as `--game` names it: `quadraphages`, `hexaphages`, `quarod`, `petrify`,
    /// `vadrantir` or `splinter`.
    pub game: String,
    /// The board's side: of the square, or of the hexagon.
    pub size: u8,
    /// The players' colours in turn order from the start, as records name them (`X`, `Black`,
    /// `Red`); as many as the game has players.
    pub players: Vec<String>,
    /// The colour that plays the first move (in the published notation, the column header and the
    /// `....` of the first line say it; in the common format the first colour always begins).
    pub first: String,
    /// The record's tags as `[name, value]` pairs in the canonical order (see
    /// [`canonical_tag_order`]), without `Game`, `Size` and `Players`, which the fields above hold.
    /// The published notation has none.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// The start position when it is not the board's default: one string per row, top row first,
    /// the glyphs of its cells separated by single spaces, as the record's diagrams draw them.
    pub setup: Option<Vec<String>>,
    /// The start position's code (grammar.md, Part V), always written. On reading, when given, it
    /// is the start (and `setup`, if given too, must draw its board); else `setup` is, else the
    /// board's default. A start in the middle of a game (a `[Position]` tag, a `Startup:` code)
    /// needs it: a diagram shows only the board.
    #[serde(default)]
    pub start_code: Option<String>,
    /// Every move played, in order.
    pub moves: Vec<MoveEntry>,
    /// The result the record claims, as written: the common format's result token (else its
    /// `[Result]` tag's value), the published notation's claim (`and wins 40-39`, `resign`); `null`
    /// when the record claims none. Not the computed result: that is [`GameDocument::outcome`].
    pub result: Option<String>,
    /// The final position the record draws, as [`GameDocument::setup`] writes rows; when it draws
    /// none, the position the replay reached.
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
    #[serde(default)]
    pub mover: String,
    /// The token as the record writes it: what `--from json` reads.
    pub token: String,
    /// The token as referee writes the move. Recomputed on reading.
    #[serde(default)]
    pub canonical: String,
    /// The position code after the move (grammar.md, Part V). Recomputed on reading.
    #[serde(default)]
    pub code: String,
}

/// How a game ended, in a [`GameDocument`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeEntry {
    /// The winner's colour; `null` if nobody won.
    pub winner: Option<String>,
    /// Each player's points, in the order of [`GameDocument::players`] (Quadraphages and
    /// Hexaphages: marked cells).
    pub points: Vec<f64>,
    /// How the winner was decided, in the game's words.
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
    /// The JSON is not a game document; serde_json's error says where (line and column).
    #[error("not a game document: {0}")]
    Json(#[from] serde_json::Error),
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
fn first_stop(v: &Verdict) -> String {
    v.problems
        .iter()
        .find(|p| stops(p.kind))
        .map_or_else(|| "the record cannot be replayed".into(), |p| p.message.clone())
}

/// Whether a problem stops the replay before the record's end: anything but a claim.
fn stops(kind: ProblemKind) -> bool {
    kind != ProblemKind::Claim
}

/// Record `index` (1-based) of `src`, replayed into a document. Refuses a record that does not
/// replay to its end ([`ConvertError::NotReplayed`]).
pub fn document(src: &str, index: usize, options: VerifyOptions) -> Result<GameDocument, ConvertError> {
    let Some(found) = record::read(src, options.game).nth(index.wrapping_sub(1)) else {
        return Err(ConvertError::NoRecord { index, count: record::read(src, options.game).count() });
    };
    document_of(src, &found, options)
}

/// Every record of `src`, in file order, each replayed into a document or refused as [`document`]
/// refuses it. The text is read once.
pub fn documents(src: &str, options: VerifyOptions) -> impl Iterator<Item = Result<GameDocument, ConvertError>> + '_ {
    record::read(src, options.game).map(move |found| document_of(src, &found, options))
}

/// A record found in `src`, replayed into a document.
fn document_of(src: &str, found: &Found, options: VerifyOptions) -> Result<GameDocument, ConvertError> {
    let options = VerifyOptions { lenient: false, ..options };
    // The verdict before its claims are judged (no search is made): what stops the replay.
    let verdict = verify::prepare(src, found, options).verdict();
    if verdict.problems.iter().any(|p| stops(p.kind)) {
        return Err(ConvertError::NotReplayed(Box::new(verdict)));
    }
    let unexpected = |message: String| ConvertError::Document { ply: None, message };
    match found {
        Found::Published(r) => {
            let start = crate::judge::phages_start(r, options).map_err(|p| unexpected(p.message))?;
            published_document(r, start)
        }
        Found::Common(r) => {
            struct Work<'s, 'r, 'a> {
                src: &'s str,
                record: &'r CommonRecord<'a>,
            }
            impl WithCommonFormat for Work<'_, '_, '_> {
                type Output = Result<GameDocument, ConvertError>;
                fn run<G: CommonFormat>(self) -> Self::Output {
                    let start = crate::judge::common_start::<G>(self.src, self.record)
                        .map_err(|p| ConvertError::Document { ply: None, message: p.message })?;
                    common_document(self.record, start)
                }
            }
            let kind = crate::judge::common_kind(src, r, options.game).map_err(|p| unexpected(p.message))?;
            kind.with_common_format(Work { src, record: r })
                .unwrap_or_else(|| Err(unexpected(format!("{kind} records are not written in the common format"))))
        }
    }
}

/// Record `index` (1-based) of `src` in its notation's canonical layout: see [`canonical_of`].
pub fn canonical(src: &str, index: usize, options: VerifyOptions) -> Result<String, ConvertError> {
    canonical_of(&document(src, index, options)?)
}

/// The game documents of a JSON text: one object, or several one after the other (JSON Lines).
pub fn read_json(text: &str) -> Result<Vec<GameDocument>, ConvertError> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<GameDocument>()
        .map(|d| d.map_err(ConvertError::from))
        .collect()
}

/// A document as JSON, laid out for people as well as programs: one field per line, one move per
/// line, one diagram row per line (what `serde_json::to_string_pretty` would spread over six lines
/// a move). Ends with a newline.
pub fn to_json(doc: &GameDocument) -> String {
    fn json<T: Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(value).expect("a document is plain data")
    }
    fn list<T: Serialize>(items: &[T]) -> String {
        if items.is_empty() {
            return "[]".into();
        }
        let lines: Vec<String> = items.iter().map(|i| format!("    {}", json(i))).collect();
        format!("[\n{}\n  ]", lines.join(",\n"))
    }
    let fields = [
        ("game", json(&doc.game)),
        ("size", json(&doc.size)),
        ("players", json(&doc.players)),
        ("first", json(&doc.first)),
        ("tags", json(&doc.tags)),
        ("setup", doc.setup.as_deref().map_or_else(|| "null".into(), list)),
        ("start_code", json(&doc.start_code)),
        ("moves", list(&doc.moves)),
        ("result", json(&doc.result)),
        ("final_position", list(&doc.final_position)),
        ("outcome", json(&doc.outcome)),
    ];
    let body: Vec<String> = fields.iter().map(|(name, value)| format!("  \"{name}\": {value}")).collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

/// The position code of the last position of a document's game: after its last move, else its
/// start. Empty for a document read from JSON and not yet [`reread`] without a `start_code`.
pub fn last_code(doc: &GameDocument) -> &str {
    doc.moves.last().map_or(doc.start_code.as_deref().unwrap_or(""), |m| m.code.as_str())
}

/// A document read from JSON, checked: its game written as a record and read again, so that it
/// is replayed as any record is, and its derived fields recomputed.
pub fn reread(doc: &GameDocument) -> Result<GameDocument, ConvertError> {
    let text = canonical_of(doc)?;
    let back = document(&text, 1, VerifyOptions::default()).map_err(|e| match e {
        // The text is ours: a fault in it is the document's, and its line numbers mean nothing.
        ConvertError::NotReplayed(v) => ConvertError::Document { ply: None, message: first_stop(&v) },
        ConvertError::NoRecord { .. } => {
            ConvertError::Document { ply: None, message: "the document has no moves and no result".into() }
        }
        other => other,
    })?;
    same_final_position(doc, &back)?;
    Ok(back)
}

/// Whether the record written from `doc` claims the final position `doc` claims (no rows: none, and
/// the record gains the replay's board, which holds). Rows that are no diagram the record can hold
/// would read back as none, and the record would gain the replay's board too: a claim of the
/// document's, right or wrong, silently replaced by a confirmed one.
fn same_final_position(doc: &GameDocument, back: &GameDocument) -> Result<(), ConvertError> {
    let written: Vec<String> =
        doc.final_position.iter().map(|r| r.split_ascii_whitespace().collect::<Vec<_>>().join(" ")).collect();
    if written.is_empty() || written == back.final_position {
        return Ok(());
    }
    let why = match written.iter().position(|r| r.is_empty()) {
        Some(k) => format!("row {} is empty", k + 1),
        None => {
            let k = written.iter().zip(&back.final_position).take_while(|(a, b)| a == b).count();
            let row = written.get(k).map_or(String::new(), |r| format!(" (`{r}`)"));
            format!("from row {}{row} on, its rows are no diagram a record can hold", k + 1)
        }
    };
    Err(invalid(format!(
        "final_position: {why}: write one string per row of the board, top row first, its glyphs separated by spaces"
    )))
}

/// The canonical layout of a document's game, in its notation.
///
/// Common format: the tags (`Game`, `Size`, `Players` when not the game's default, then the
/// others in [`canonical_tag_order`]), a blank line, `Setup:` and its diagram when the start is
/// not the default, one numbered line per round of moves (a pair of moves with two players, as in
/// PGN; with more, each player still in the game once), the result token at the end of the last
/// line (none when the record claims none), a blank line, and `Final Position:` with its diagram.
///
/// Published notation: what `referee random` writes (see [`phages::notation::write_layout`]), with
/// the record's own claim.
///
/// Comments are not kept. Either way the record claims what the document says: its result and
/// its final diagram as the record wrote them (refuted or not), so that it verifies as its record
/// did; a record without a final diagram gains the replay's, which holds.
pub fn canonical_of(doc: &GameDocument) -> Result<String, ConvertError> {
    let kind = GameKind::from_name(&doc.game).ok_or_else(|| invalid(format!("unknown game `{}`", doc.game)))?;
    struct Write<'d>(&'d GameDocument);
    impl WithCommonFormat for Write<'_> {
        type Output = Result<String, ConvertError>;
        fn run<G: CommonFormat>(self) -> Self::Output {
            write_common::<G>(self.0)
        }
    }
    match kind.with_common_format(Write(doc)) {
        Some(text) => text,
        None => write_published(kind, doc),
    }
}

fn invalid(message: String) -> ConvertError {
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

/// Tags in [`canonical_tag_order`] (a stable sort: tags of one rank keep their order).
fn ordered_tags<'t>(tags: impl Iterator<Item = (&'t str, &'t str)>, players: &[&str]) -> Vec<(String, String)> {
    let mut ranked: Vec<_> = tags
        .filter_map(|(n, v)| canonical_tag_order(n, players).map(|rank| (rank, n.to_string(), v.to_string())))
        .collect();
    ranked.sort_by_key(|t| t.0);
    ranked.into_iter().map(|(_, n, v)| (n, v)).collect()
}

/// A game replayed from its start: each move with the token that wrote it, and where it ended.
struct Replayed<G: Game> {
    moves: Vec<(G::Move, String)>,
    end: G,
}

/// Replays `tokens` from `start` to the end, or says at which move (1-based) and why it stops.
fn replay_all<G: Reader>(start: &G, tokens: &[Token]) -> Result<Replayed<G>, (usize, String)> {
    let mut moves = Vec::new();
    let mut stop = None;
    let rep = replay_observed(start.clone(), tokens, ReplayOptions::default(), |event| match event {
        Event::Playing { token, m, .. } => moves.push((m, tokens[token].text.to_string())),
        Event::Illegal { token, why, .. } => {
            stop = Some((moves.len() + 1, format!("`{}` is not a legal move here: {why}", tokens[token].text)))
        }
        Event::Played { .. } => {}
    });
    match stop {
        Some(s) => Err(s),
        None => Ok(Replayed { moves, end: rep.position }),
    }
}

/// The moves of a replay as a document writes them.
fn move_entries<G: Reader>(start: &G, game: &Replayed<G>) -> Vec<MoveEntry> {
    let mut position = start.clone();
    let names = start.player_names();
    game.moves
        .iter()
        .enumerate()
        .map(|(i, (m, token))| {
            let mover = names[position.mover()].to_string();
            let canonical = position.write_move(*m);
            position.play_unchecked(*m);
            MoveEntry { ply: i + 1, mover, token: token.clone(), canonical, code: position.code() }
        })
        .collect()
}

/// A position's rows as a document writes them: glyphs separated by spaces, top row first.
fn rows_of(view: &impl BoardView) -> Vec<String> {
    let g = view.geometry();
    (0..g.height()).map(|row| g.row_cells(row).map(|c| view.glyph(c)).collect::<Vec<_>>().join(" ")).collect()
}

/// Lays out a document's diagram rows as the records' diagrams are drawn: on `board` when they fit
/// it, else on the board they draw (a refuted diagram may draw another), else row by row as written.
///
/// A reader skips a byte-order mark at the start of a line (grammar.md), so a row whose first
/// glyph opens with one is indented by a blank: the glyph, wrong as it is, reads back whole.
fn layout(rows: &[String], board: Geometry) -> String {
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
fn plausible(g: Geometry) -> bool {
    match g {
        Geometry::Square { size } => (2..=26).contains(&size),
        Geometry::Hex { side } => (2..=7).contains(&side),
    }
}

/// The rows of a start or final diagram of a document, one glyph per cell of `g`, or why not.
fn glyphs_on<'d>(rows: &'d [String], g: Geometry, what: &str) -> Result<Vec<&'d str>, ConvertError> {
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
fn tokens_of(doc: &GameDocument, kind: impl Fn(&str) -> Option<TokenKind>) -> Result<Vec<Token<'_>>, ConvertError> {
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
fn check_players(doc: &GameDocument, names: &[&str]) -> Result<(), ConvertError> {
    if doc.players.iter().map(String::as_str).ne(names.iter().copied()) {
        return Err(invalid(format!("the players are {}, not {}", names.join(", "), doc.players.join(", "))));
    }
    Ok(())
}

/// Tag names and values a record can hold: `[Name "value"]` has no room for quotes or line ends,
/// and a record gives each tag once. `Game`, `Size`, `Players` and `Position` are the document's
/// own fields, not tags: a tag of theirs would be a second one.
fn check_tags(doc: &GameDocument) -> Result<(), ConvertError> {
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

// The common format.

fn common_document<G: CommonFormat>(r: &CommonRecord, start: G) -> Result<GameDocument, ConvertError> {
    let tokens: Vec<Token> = r.tokens.iter().filter(|t| !t.kind.is_claim()).cloned().collect();
    let game =
        replay_all(&start, &tokens).map_err(|(ply, message)| ConvertError::Document { ply: Some(ply), message })?;
    let names = start.player_names();
    let result = r.tokens.iter().find(|t| t.kind.is_claim()).map(|t| t.text).or(r.tag("Result").map(|t| t.value));
    Ok(GameDocument {
        game: start.about().name.to_string(),
        size: start.geometry().size(),
        players: names.iter().map(|n| n.to_string()).collect(),
        first: names[start.to_move()].to_string(),
        tags: ordered_tags(r.tags.iter().map(|t| (t.name, t.value)), names),
        setup: (write::start_form(&start) != write::StartForm::Empty).then(|| rows_of(&start)),
        start_code: Some(start.code()),
        moves: move_entries(&start, &game),
        result: result.map(str::to_string),
        final_position: match &r.final_position {
            Some(d) => d.rows.iter().map(|row| row.iter().map(|g| g.0).collect::<Vec<_>>().join(" ")).collect(),
            None => rows_of(&game.end),
        },
        outcome: game.end.outcome().map(|o| OutcomeEntry {
            winner: o.winner.map(|w| names[w].to_string()),
            points: o.points,
            detail: o.detail,
        }),
    })
}

fn write_common<G: CommonFormat>(doc: &GameDocument) -> Result<String, ConvertError> {
    let empty = G::start(Some(doc.size), Some(doc.players.len() as u8)).map_err(invalid)?;
    let names = empty.player_names();
    check_players(doc, names)?;
    check_tags(doc)?;
    let start = match (&doc.start_code, &doc.setup) {
        (Some(code), _) => coded_start::<G>(code, doc, &empty)?,
        (None, None) => empty.clone(),
        (None, Some(rows)) => empty.with_setup(&glyphs_on(rows, empty.geometry(), "setup")?).map_err(invalid)?,
    };
    if doc.first != names[start.to_move()] {
        return Err(invalid(format!("{} moves first here, not {}", names[start.to_move()], doc.first)));
    }
    // A claim that is no result token can only be a `[Result]` tag's value, which the tag keeps.
    if let Some(r) = doc.result.as_deref().filter(|r| record::common::result_kind(r).is_none()) {
        if !doc.tags.iter().any(|(n, v)| n.eq_ignore_ascii_case("Result") && v == r) {
            return Err(invalid(format!(
                "`{r}` is not a result: write 1-0, 0-1 (one place per player, 1 for the winner) or *"
            )));
        }
    }
    let tokens = tokens_of(doc, |_| Some(TokenKind::Written))?;
    let game =
        replay_all(&start, &tokens).map_err(|(ply, message)| ConvertError::Document { ply: Some(ply), message })?;

    let tags = ordered_tags(doc.tags.iter().map(|(n, v)| (n.as_str(), v.as_str())), names);
    let mut out = write::record_head(&start, tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    // One line per round: with two players a pair of moves, a pie swap and the move after it
    // included, as PGN numbers them; with more, a line ends where the turn order wraps around, so
    // that a player who is out leaves no gap.
    let mut position = start.clone();
    let mut lines: Vec<String> = Vec::new();
    let mut last_mover = None;
    for (i, (m, _)) in game.moves.iter().enumerate() {
        let mover = position.to_move();
        let new_round = match last_mover {
            None => true,
            Some(_) if names.len() == 2 => i % 2 == 0,
            Some(last) => mover <= last,
        };
        if new_round {
            lines.push(format!("{}.", lines.len() + 1));
        }
        let line = lines.last_mut().expect("a line was opened");
        line.push(' ');
        line.push_str(&position.write_move(*m));
        last_mover = Some(mover);
        position.play_unchecked(*m);
    }
    if let Some(result) = doc.result.as_deref().filter(|r| record::common::result_kind(r).is_some()) {
        match lines.last_mut() {
            Some(line) => line.push_str(&format!(" {}", result.trim())),
            None => lines.push(result.trim().to_string()),
        }
    }
    out.push_str(&lines.join("\n"));
    out.push_str("\n\nFinal Position:\n");
    out.push_str(&layout(&doc.final_position, game.end.geometry()));
    Ok(out)
}

/// The start a document's `start_code` gives, checked against the rest of the document: its game,
/// its board (`empty` is the document's empty board) and, if the document draws one, its setup.
fn coded_start<G: CommonFormat>(code: &str, doc: &GameDocument, empty: &G) -> Result<G, ConvertError> {
    let start = crate::games::game_of(code.trim())
        .and_then(|_| G::from_code(code.trim()))
        .map_err(|e| invalid(format!("start_code: {e}")))?;
    if start.about() != empty.about() {
        return Err(invalid(format!(
            "the start_code is of {}, but the document is of {}",
            start.about().name,
            doc.game
        )));
    }
    if start.geometry() != empty.geometry() || start.player_names() != empty.player_names() {
        return Err(invalid(format!(
            "the start_code is of another board or players than the document's size {} and {} players",
            doc.size,
            doc.players.len()
        )));
    }
    same_setup(&start, doc)?;
    Ok(start)
}

/// Whether a document that gives both a start code and a setup draws the code's board.
fn same_setup(start: &impl BoardView, doc: &GameDocument) -> Result<(), ConvertError> {
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

// The published notation.

fn published_document(r: &Record, start: Phages) -> Result<GameDocument, ConvertError> {
    let tokens: Vec<Token> = r.tokens.iter().take_while(|t| !t.kind.is_claim()).cloned().collect();
    let game =
        replay_all(&start, &tokens).map_err(|(ply, message)| ConvertError::Document { ply: Some(ply), message })?;
    let names = start.player_names();
    let end = &game.end;
    let outcome = end.is_over().then(|| {
        let score = end.score();
        OutcomeEntry {
            winner: score.winner().map(|s| s.to_string()),
            points: score.marks.iter().map(|&m| f64::from(m)).collect(),
            detail: format!("on marked cells: {score}"),
        }
    });
    Ok(GameDocument {
        game: start.about().name.to_string(),
        size: start.geometry().size(),
        players: names.iter().map(|n| n.to_string()).collect(),
        first: start.to_move().to_string(),
        tags: Vec::new(),
        setup: (phages::notation::start_form(&start) != phages::notation::StartForm::Default).then(|| rows_of(&start)),
        start_code: Some(start.code()),
        moves: move_entries(&start, &game),
        result: r.tokens.iter().find(|t| t.kind.is_claim()).map(|t| t.text.to_string()),
        final_position: match &r.final_position {
            Some(d) => {
                let g = d.geometry;
                let mut glyphs = d.cells.iter().map(|c| c.1.to_string());
                (0..g.height())
                    .map(|row| glyphs.by_ref().take(g.row_cells(row).count()).collect::<Vec<_>>().join(" "))
                    .collect()
            }
            None => rows_of(end),
        },
        outcome,
    })
}

fn write_published(kind: GameKind, doc: &GameDocument) -> Result<String, ConvertError> {
    let geometry = match kind {
        GameKind::Quadraphages => Geometry::Square { size: doc.size },
        _ => Geometry::Hex { side: doc.size },
    };
    check_players(doc, &["X", "O"])?;
    if !doc.tags.is_empty() {
        return Err(invalid(format!("{kind} records have no tags")));
    }
    let first = match doc.first.as_str() {
        "X" => Side::X,
        "O" => Side::O,
        other => return Err(invalid(format!("the first mover is X or O, not `{other}`"))),
    };
    if !plausible(geometry) {
        return Err(invalid(format!("no {kind} board has size {}", doc.size)));
    }
    let mut start = match (&doc.start_code, &doc.setup) {
        (Some(code), _) => {
            let start = crate::games::game_of(code.trim())
                .and_then(|_| Phages::from_code(code.trim()))
                .map_err(|e| invalid(format!("start_code: {e}")))?;
            if start.about() != kind.about() || start.geometry() != geometry {
                return Err(invalid(format!(
                    "the start_code is of {} on another board than the document's {kind} of size {}",
                    start.about().name,
                    doc.size
                )));
            }
            same_setup(&start, doc)?;
            start
        }
        (None, None) => phages::notation::default_start(geometry).ok_or_else(|| {
            invalid(format!("no start position is known for {kind} of size {}: give a setup", doc.size))
        })?,
        (None, Some(rows)) => {
            let glyphs = glyphs_on(rows, geometry, "setup")?;
            let cells: Vec<Cell> = (0..geometry.height()).flat_map(|r| geometry.row_cells(r)).collect();
            let stones = |side: &str| {
                cells.iter().zip(&glyphs).filter(|(_, g)| **g == side).map(|(c, _)| *c).collect::<Vec<_>>()
            };
            if let Some(g) = glyphs.iter().find(|g| !matches!(**g, "X" | "O" | ".")) {
                return Err(invalid(format!("a start position holds only X, O and `.`, not `{g}`")));
            }
            Phages::new(geometry, &stones("X"), &stones("O"), Side::X).map_err(|e| invalid(e.to_string()))?
        }
    };
    if doc.start_code.is_some() && start.to_move() != first {
        return Err(invalid(format!("the start_code has {} to move, not {first}", start.to_move())));
    }
    start.set_first_mover(first);
    let tokens = tokens_of(doc, |t| record::token_kind(t).filter(|k| !k.is_claim() && *k != TokenKind::Filler))?;
    let game =
        replay_all(&start, &tokens).map_err(|(ply, message)| ConvertError::Document { ply: Some(ply), message })?;
    let moves: Vec<_> = game.moves.iter().map(|(m, _)| *m).collect();
    let claim = doc.result.as_deref().map(str::trim);
    Ok(phages::notation::write_layout(&start, &moves, claim, &layout(&doc.final_position, geometry)))
}
