//! Records rewritten: in their notation's canonical layout, or as a JSON document of the whole game,
//! and back from that JSON (`referee convert`; the schema is in docs/json.md).
//!
//! Everything goes through one [`GameDocument`]: a record is replayed into one, and the canonical
//! text is written from one, whether it came from a record or from JSON. Only a record that replays
//! to its end is converted: a record with a syntax error, an illegal move or a start that cannot be
//! had gets [`ConvertError::NotReplayed`] with its verdict, as `referee verify` would report it.

pub use crate::document::json::{json_documents, JsonDocuments, MAX_STRING};
pub use crate::document::{canonical_tag_order, ConvertError, GameDocument, MoveEntry, OutcomeEntry};
use serde::Serialize;

use crate::document::{first_stop, invalid, stops};
use crate::format::{OpenRecord, Recorded, WithGame, WithOpenRecord};
use crate::game::About;
use crate::judge::with_found;
use crate::judge::{Games, Registry};
use crate::record::{self, Found};
use crate::verify::{self, VerifyOptions};

/// Record `index` (1-based) of `src`, replayed into a document. Refuses a record that does not
/// replay to its end ([`ConvertError::NotReplayed`]).
pub fn document<S: Games>(src: &str, index: usize, options: VerifyOptions<S>) -> Result<GameDocument, ConvertError> {
    let Some(found) = record::read(src, options.reading()).nth(index.wrapping_sub(1)) else {
        return Err(ConvertError::NoRecord { index, count: record::read(src, options.reading()).count() });
    };
    document_of(src, &found, options)
}

/// Every record of `src`, in file order, each replayed into a document or refused as [`document`]
/// refuses it. The text is read once.
pub fn documents<S: Games>(
    src: &str,
    options: VerifyOptions<S>,
) -> impl Iterator<Item = Result<GameDocument, ConvertError>> + '_ {
    record::read(src, options.reading()).map(move |found| document_of(src, &found, options))
}

/// A record found in `src`, replayed into a document.
fn document_of<S: Games>(src: &str, found: &Found, options: VerifyOptions<S>) -> Result<GameDocument, ConvertError> {
    let options = VerifyOptions { lenient: false, ..options };
    // The verdict before its claims are judged (no search is made): what stops the replay.
    let verdict = verify::prepare(src, found, options).verdict();
    // An illegal move in a variation stops no conversion: the variation is kept as written.
    if verdict.problems.iter().any(|p| stops(p.kind) && p.variation.is_none()) {
        return Err(ConvertError::NotReplayed(Box::new(verdict)));
    }
    struct Work;
    impl<'r> WithOpenRecord<'r> for Work {
        type Output = Result<GameDocument, ConvertError>;
        fn run<F: OpenRecord<'r>>(self, record: F) -> Self::Output {
            let start = record.start().map_err(|p| invalid(p.message))?;
            record.document(start)
        }
    }
    let doc = with_found(src, found, options, Work).unwrap_or_else(|u| Err(invalid(u.why.message)))?;
    // A document is only made to be written, and what it writes must read back.
    match crate::document::json::oversized(&doc) {
        Some((what, len)) => Err(invalid(format!(
            "{what} is {len} bytes: a document's strings hold at most {MAX_STRING} bytes (docs/json.md)"
        ))),
        None => Ok(doc),
    }
}

/// Record `index` (1-based) of `src` in its notation's canonical layout: see [`canonical_of`].
pub fn canonical<S: Games>(src: &str, index: usize, options: VerifyOptions<S>) -> Result<String, ConvertError> {
    canonical_in(&document(src, index, options)?, options.games)
}

/// The game documents of a JSON text: one object, or several one after the other (JSON Lines),
/// all at once; [`json_documents`] reads them one at a time, and says what bounds hold.
pub fn read_json(text: &str) -> Result<Vec<GameDocument>, ConvertError> {
    json_documents(text).collect()
}

/// A document as JSON, laid out for people as well as programs: one field per line, one move per
/// line, one diagram row per line (what `serde_json::to_string_pretty` would spread over six lines
/// a move). Ends with a newline.
pub fn to_json(doc: &GameDocument) -> String {
    // Written into one buffer, field after field: a document's tags may hold megabytes, which
    // pieces joined would copy twice more.
    fn json<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
        serde_json::to_writer(out, value).expect("a document is plain data");
    }
    fn list<T: Serialize>(out: &mut Vec<u8>, items: &[T]) {
        if items.is_empty() {
            return out.extend_from_slice(b"[]");
        }
        for (k, item) in items.iter().enumerate() {
            out.extend_from_slice(if k == 0 { b"[\n    " } else { b",\n    " });
            json(out, item);
        }
        out.extend_from_slice(b"\n  ]");
    }
    fn field(out: &mut Vec<u8>, name: &str) {
        out.extend_from_slice(if out.is_empty() { b"{\n" } else { b",\n" });
        out.extend_from_slice(format!("  \"{name}\": ").as_bytes());
    }
    let mut out = Vec::new();
    field(&mut out, "game");
    json(&mut out, &doc.game);
    field(&mut out, "size");
    json(&mut out, &doc.size);
    field(&mut out, "players");
    json(&mut out, &doc.players);
    field(&mut out, "first");
    json(&mut out, &doc.first);
    field(&mut out, "tags");
    json(&mut out, &doc.tags);
    field(&mut out, "setup");
    match &doc.setup {
        Some(rows) => list(&mut out, rows),
        None => json(&mut out, &None::<()>),
    }
    field(&mut out, "start_code");
    json(&mut out, &doc.start_code);
    if !doc.before.is_empty() {
        field(&mut out, "before");
        json(&mut out, &doc.before);
    }
    field(&mut out, "moves");
    list(&mut out, &doc.moves);
    if !doc.after_result.is_empty() {
        field(&mut out, "after_result");
        json(&mut out, &doc.after_result);
    }
    field(&mut out, "result");
    json(&mut out, &doc.result);
    field(&mut out, "final_position");
    list(&mut out, &doc.final_position);
    field(&mut out, "outcome");
    json(&mut out, &doc.outcome);
    out.extend_from_slice(b"\n}\n");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The position code of the last position of a document's game: after its last move, else its
/// start. Empty for a document read from JSON and not yet [`reread`] without a `start_code`.
pub fn last_code(doc: &GameDocument) -> &str {
    doc.moves.last().map_or(doc.start_code.as_deref().unwrap_or(""), |m| m.code.as_str())
}

/// A document read from JSON, checked: its game written as a record and read again, so that it
/// is replayed as any record is, and its derived fields recomputed.
pub fn reread(doc: &GameDocument) -> Result<GameDocument, ConvertError> {
    reread_in(doc, Registry)
}

/// [`reread`], the document's game one of `games`.
pub fn reread_in<S: Games>(doc: &GameDocument, games: S) -> Result<GameDocument, ConvertError> {
    let text = canonical_in(doc, games)?;
    let back = document(&text, 1, VerifyOptions::default().with_games(games)).map_err(|e| match e {
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
/// Published notation: what `referee random` writes (see
/// [`write_layout`](crate::format::published::notation::write_layout)), with the record's own claim.
///
/// Each format writes its own ([`Recorded::write_document`]).
///
/// Comments, glyphs, markup and variations are written back in their places. Either way the
/// record claims what the document says: its result and
/// its final diagram as the record wrote them (refuted or not), so that it verifies as its record
/// did; a record without a final diagram gains the replay's, which holds.
pub fn canonical_of(doc: &GameDocument) -> Result<String, ConvertError> {
    canonical_in(doc, Registry)
}

/// [`canonical_of`], the document's game one of `games` (a game defined outside the crate too).
pub fn canonical_in<S: Games>(doc: &GameDocument, games: S) -> Result<String, ConvertError> {
    struct Write<'d>(&'d GameDocument);
    impl WithGame for Write<'_> {
        type Output = Result<String, ConvertError>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::write_document(about, self.0)
        }
    }
    games.with_named(&doc.game, Write(doc)).ok_or_else(|| invalid(format!("unknown game `{}`", doc.game)))?
}
