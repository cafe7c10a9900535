//! Game documents read from JSON (`referee convert --from json`), one at a time and within bounds,
//! so that memory follows the text rather than what it claims to hold.
//!
//! - Each string holds at most [`MAX_STRING`] bytes, each list at most what a record holds (its
//!   moves [`MAX_TOKENS`], its tags [`MAX_TAGS`], a diagram's rows, players and points
//!   [`MAX_ROWS`]): one past is refused where it stands, before it is copied or the list grows on.
//!   Without bounds one tag value of 250 MB took 1.5 GB, and each tiny move of a long list some
//!   eight times its text.
//! - Documents come one after the other (JSON Lines, or objects side by side), each read when
//!   asked for, so that a file of many documents is never held as documents at once.
//! - A byte-order mark before a document is passed over, as white space is: at the start of the
//!   text, or of a document in files joined with `cat`. Lines and columns in errors are the whole
//!   text's.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};

use super::{ConvertError, GameDocument, MoveEntry, NoteEntry};
use crate::geometry::MAX_SQUARE;
use crate::record::common::MAX_NOTES;
use crate::record::{MAX_TAGS, MAX_TOKENS};

/// The longest string a document may hold, in bytes: a tag's value, a move's token or code, a
/// diagram's row. The longest that referee writes, a position code of a 26x26 board, is a few
/// kilobytes.
pub const MAX_STRING: usize = 64 << 10;

/// Most rows in a diagram (the tallest board's), and most players and points (far more than any
/// game has).
pub const MAX_ROWS: usize = MAX_SQUARE as usize;

/// The game documents of a JSON text, one at a time: see the module's documentation. After an
/// error in the JSON itself (not in the game it describes), nothing more is read: where the next
/// document starts is not known.
pub fn json_documents(text: &str) -> JsonDocuments<'_> {
    JsonDocuments { text, at: 0, failed: false }
}

/// The iterator of [`json_documents`].
pub struct JsonDocuments<'t> {
    text: &'t str,
    /// Where the next document may start.
    at: usize,
    failed: bool,
}

impl Iterator for JsonDocuments<'_> {
    type Item = Result<GameDocument, ConvertError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r', '\u{feff}']).len();
        NOTES_LEFT.set(MAX_NOTES);
        // A document is read from where it starts, so that a mark between two is never met.
        let mut documents = serde_json::Deserializer::from_str(&self.text[self.at..]).into_iter::<GameDocument>();
        let read = documents.next()?;
        self.at += documents.byte_offset();
        Some(read.map_err(|e| {
            self.failed = true;
            self.located(&e)
        }))
    }
}

impl JsonDocuments<'_> {
    /// serde_json's error, which counts from the document's start, at its place in the whole text.
    fn located(&self, e: &serde_json::Error) -> ConvertError {
        let whole = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = whole.strip_suffix(&place).unwrap_or(&whole).to_string();
        if e.line() == 0 {
            return ConvertError::Json { message, line: None, column: None };
        }
        let before = &self.text.as_bytes()[..self.at];
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let lines = memchr::memchr_iter(b'\n', before).count();
        // serde_json counts a column in bytes; a byte-order mark opening the line is no column, as
        // in a record.
        let mark = if self.text[line_start..].starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        let column = if e.line() == 1 { self.at - line_start - mark + e.column() } else { e.column() };
        ConvertError::Json { message, line: Some(lines + e.line()), column: Some(column) }
    }
}

thread_local! {
    /// How many more notes (comments, glyphs, variations and the variations' moves) the document
    /// being read may hold: as many as a record ([`MAX_NOTES`]), in all its lines together, so
    /// that variations nested in variations hold no more than one list would.
    static NOTES_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(MAX_NOTES) };
}

/// An item read by `S` that counts as one of the document's notes (see [`NOTES_LEFT`]).
#[derive(Clone, Copy)]
struct Noted<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Noted<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let left = NOTES_LEFT.get();
        if left == 0 {
            return Err(de::Error::custom(format!(
                "more than {MAX_NOTES} comments, glyphs, variations and moves of variations: a record holds at most \
                 as many, far more than real records have"
            )));
        }
        NOTES_LEFT.set(left - 1);
        self.0.deserialize(d)
    }
}

/// A string of at most [`MAX_STRING`] bytes, refused from its length before it is copied.
#[derive(Clone, Copy)]
struct Text;

impl<'de> Visitor<'de> for Text {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<String, E> {
        if s.len() > MAX_STRING {
            return Err(E::custom(format!(
                "a string of {} bytes: a document's strings hold at most {MAX_STRING} bytes",
                s.len()
            )));
        }
        Ok(s.to_owned())
    }
}

impl<'de> DeserializeSeed<'de> for Text {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_string(self)
    }
}

/// `null`, or what `S` reads.
#[derive(Clone, Copy)]
struct Optional<S>(S);

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Optional<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("null or a value")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(d).map(Some)
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Optional<S> {
    type Value = Option<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

/// A list of at most `max` items, each read by `item`; the one past `max` is refused, naming the
/// field (`what`) and why no record holds more.
#[derive(Clone, Copy)]
struct List<S> {
    item: S,
    max: usize,
    what: &'static str,
    why: &'static str,
}

impl<'de, S: DeserializeSeed<'de> + Copy> Visitor<'de> for List<S> {
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a list of {}", self.what)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.max.min(64)));
        while let Some(item) = seq.next_element_seed(self.item)? {
            if items.len() == self.max {
                return Err(de::Error::custom(format!("more than {} {}: {}", self.max, self.what, self.why)));
            }
            items.push(item);
        }
        Ok(items)
    }
}

impl<'de, S: DeserializeSeed<'de> + Copy> DeserializeSeed<'de> for List<S> {
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

/// A tag: `[name, value]`.
#[derive(Clone, Copy)]
struct Tag;

impl<'de> Visitor<'de> for Tag {
    type Value = (String, String);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tag: [name, value]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let name = seq.next_element_seed(Text)?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let value = seq.next_element_seed(Text)?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((name, value))
    }
}

impl<'de> DeserializeSeed<'de> for Tag {
    type Value = (String, String);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_tuple(2, self)
    }
}

/// What a field of a document is read by: `fn name(d) -> Result<T, _>` for serde's
/// `deserialize_with`.
macro_rules! read_by {
    ($($name:ident: $ty:ty = $seed:expr;)*) => {$(
        pub(super) fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
            $seed.deserialize(d)
        }
    )*};
}

const ROWS: List<Text> = List { item: Text, max: MAX_ROWS, what: "rows", why: "no board has more" };

read_by! {
    text: String = Text;
    optional_text: Option<String> = Optional(Text);
    rows: Vec<String> = ROWS;
    optional_rows: Option<Vec<String>> = Optional(ROWS);
    players: Vec<String> = List { item: Text, max: MAX_ROWS, what: "players", why: "no game has as many" };
    tags: Vec<(String, String)> =
        List { item: Tag, max: MAX_TAGS, what: "tags", why: "a record holds at most as many, far more than real records have" };
    moves: Vec<MoveEntry> = List {
        item: PhantomData::<MoveEntry>,
        max: MAX_TOKENS,
        what: "moves",
        why: "referee reads at most as many of one record, far more than any real game has",
    };
    points: Vec<f64> = List { item: PhantomData::<f64>, max: MAX_ROWS, what: "points", why: "no game has as many players" };
    notes: Vec<NoteEntry> = List { item: Noted(PhantomData::<NoteEntry>), max: MAX_NOTES, what: "notes", why: NOTES_WHY };
    glyphs: Vec<u8> = List { item: Noted(PhantomData::<u8>), max: MAX_NOTES, what: "glyphs", why: NOTES_WHY };
    variation_moves: Vec<MoveEntry> = List {
        item: Noted(PhantomData::<MoveEntry>),
        max: MAX_TOKENS,
        what: "moves",
        why: "referee reads at most as many of one record, far more than any real game has",
    };
}

const NOTES_WHY: &str = "a record holds at most as many, far more than real records have";

/// The first string of `doc` longer than [`MAX_STRING`], in words, and its length: a document
/// written with it would not read back.
pub(crate) fn oversized(doc: &GameDocument) -> Option<(String, usize)> {
    // Lengths first, with where each string is (a field, and an index in it); words for the one
    // found only.
    fn one<'d>(what: &'static str, s: &'d Option<String>) -> impl Iterator<Item = (&'static str, usize, &'d String)> {
        s.iter().map(move |s| (what, 0, s))
    }
    fn each<'d>(what: &'static str, list: &'d [String]) -> impl Iterator<Item = (&'static str, usize, &'d String)> {
        list.iter().enumerate().map(move |(k, s)| (what, k, s))
    }
    let found = [("game", 0, &doc.game), ("first", 0, &doc.first)]
        .into_iter()
        .chain(each("player", &doc.players))
        .chain(doc.tags.iter().enumerate().flat_map(|(k, (n, v))| [("tag name", k, n), ("tag value", k, v)]))
        .chain(each("setup row", doc.setup.as_deref().unwrap_or_default()))
        .chain(each("final row", &doc.final_position))
        .chain(
            doc.moves
                .iter()
                .enumerate()
                .flat_map(|(k, m)| [&m.mover, &m.token, &m.canonical, &m.code].map(|s| ("move", k, s))),
        )
        .chain(one("start_code", &doc.start_code))
        .chain(one("result", &doc.result))
        .chain(doc.outcome.iter().flat_map(|o| one("outcome", &o.winner).chain([("outcome", 0, &o.detail)])))
        .find(|(_, _, s)| s.len() > MAX_STRING);
    let Some((what, k, s)) = found else {
        return oversized_note(&doc.before)
            .or_else(|| doc.moves.iter().find_map(oversized_in_move))
            .or_else(|| oversized_note(&doc.after_result));
    };
    let words = match what {
        "player" => format!("player {}", k + 1),
        "tag name" => format!("the name of tag {}", k + 1),
        "tag value" => format!("the value of the {:.40} tag", doc.tags[k].0),
        "setup row" => format!("row {} of the setup", k + 1),
        "final row" => format!("row {} of the final position", k + 1),
        "move" => format!("move {}", k + 1),
        field => field.to_string(),
    };
    Some((words, s.len()))
}

/// The first string longer than [`MAX_STRING`] among notes (a comment, or a move of a variation),
/// in words, and its length.
fn oversized_note(notes: &[NoteEntry]) -> Option<(String, usize)> {
    notes.iter().find_map(|n| match n {
        NoteEntry::Comment(text) | NoteEntry::LineComment(text) => {
            (text.len() > MAX_STRING).then(|| (format!("the comment opening `{:.40}`", text), text.len()))
        }
        NoteEntry::Variation(v) => oversized_note(&v.before).or_else(|| v.moves.iter().find_map(oversized_in_move)),
    })
}

/// The first string longer than [`MAX_STRING`] in a move or the notes after it.
fn oversized_in_move(m: &MoveEntry) -> Option<(String, usize)> {
    let long = [&m.mover, &m.token, &m.canonical, &m.code].into_iter().find(|s| s.len() > MAX_STRING);
    long.map(|s| (format!("the move `{:.40}`", m.token), s.len())).or_else(|| oversized_note(&m.after))
}
