//! The judge worker's text, kept with its verdicts between calls, so that an edit is judged only
//! where it changed the text ([`JudgedText`], as the language server judges): a keystroke in one
//! record of a text of thousands costs that record. Each answer says which verdicts changed; the
//! page keeps the rest, moved along the text by the answer's `shift`.
//!
//! An answer holds at most [`CHUNK`] bytes of verdicts: the page asks for the rest, a chunk at a
//! time ([`judged_verdicts_in`]), so that it parses each in a short task of its own. The claims
//! that need a search are searched one record a call ([`judge_search_in`]), so that a newer text
//! waits for one search at most.

use std::any::Any;
use std::cell::RefCell;

use referee::judged::JudgedText;
use referee::verdict::{Status, Verdict};
use serde_json::{json, Value};

use crate::places::Places;
use crate::{options, too_large, verdict_json, Games};

/// Most bytes of verdicts in one answer: 512 KiB of JSON parses in a few milliseconds.
pub const CHUNK: usize = 512 << 10;

/// The text judged last, with its verdicts, and where its end is (UTF-16 units, line), to say how
/// far an edit moves the verdicts after it.
struct Held {
    /// A `JudgedText<S>` of the page's games `S`.
    judged: Box<dyn Any>,
    end: (usize, usize),
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// Where the end of `text` is: its length in UTF-16 units, and its last line.
fn end_of(t: &Places, text: &str) -> (usize, usize) {
    let place = t.place(&(text.len()..text.len()));
    (place.from, place.line)
}

/// The verdicts of records `from..to` (0-based) of `judged`, as far as [`CHUNK`] bytes go (one at
/// least): the JSON array's items, and the record after the last one given.
fn chunk<S: Games>(judged: &JudgedText<S>, t: &Places, from: usize, to: usize) -> (String, usize) {
    let mut out = String::new();
    let mut next = from;
    for v in judged.verdicts().skip(from).take(to - from) {
        let one = verdict_json(t, v).to_string();
        if next > from && out.len() + one.len() + 1 > CHUNK {
            break;
        }
        if next > from {
            out.push(',');
        }
        out.push_str(&one);
        next += 1;
    }
    (out, next)
}

/// How many of the records have a problem.
fn with_problems<'v>(verdicts: impl Iterator<Item = &'v Verdict>) -> usize {
    verdicts.filter(|v| v.status != Status::Valid).count()
}

/// Judges `text`, again only where it differs from the text judged last (all of it the first
/// time): `{"full": ..., "total": N, "bad": ..., "kept": K, "removed": R, "records": [...],
/// "next": ..., "shift": {...}, "waiting": W}`. The verdicts of records `K..K+R` of the text judged
/// last are replaced by `records`, and those after them are moved by `shift` (`units`, `lines`,
/// `bytes` along the text, `records` in number); `full` replaces them all. `records` are the
/// first of the records judged again, as far as [`CHUNK`] goes: `next`, when not null, is the
/// record to ask [`judged_verdicts_in`] for next. `waiting`: records whose claims wait for their
/// search ([`judge_search_in`]). A text too large is refused, as `verify` refuses it.
pub fn judge_in<S: Games>(games: S, text: &str) -> String {
    if let Some(why) = too_large(text) {
        return judge_in_refused(why);
    }
    let end = end_of(&Places::new(text), text);
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        let old_end = held.as_ref().map(|h| h.end);
        if let (Some(judged), Some(old_end)) =
            (held.as_mut().and_then(|h| h.judged.downcast_mut::<JudgedText<S>>()), old_end)
        {
            let old_total = judged.verdicts().len();
            let bytes = text.len() as isize - judged.text().len() as isize;
            let r = judged.set_text(text.to_string());
            let removed = old_total - r.kept - r.moved;
            let shift = json!({
                "units": end.0 as isize - old_end.0 as isize,
                "lines": end.1 as isize - old_end.1 as isize,
                "bytes": bytes,
                "records": r.judged as isize - removed as isize,
            });
            let head =
                json!({ "full": false, "kept": r.kept, "removed": removed, "shift": shift, "upto": r.kept + r.judged });
            let out = answer(judged, head);
            if let Some(h) = held.as_mut() {
                h.end = end;
            }
            return out;
        }
        let judged = JudgedText::new(text.to_string(), options(games));
        let head = json!({ "full": true, "kept": 0, "removed": 0, "upto": judged.verdicts().len() });
        let out = answer(&judged, head);
        *held = Some(Held { judged: Box::new(judged), end });
        out
    })
}

/// The answer of [`judge_in`] for a text too large to judge: it is forgotten.
fn judge_in_refused(why: String) -> String {
    HELD.with(|h| h.borrow_mut().take());
    json!({ "full": true, "total": 0, "bad": 0, "records": [], "next": null, "waiting": 0, "refused": true,
            "note": why })
    .to_string()
}

/// Why a text of `bytes` bytes is not judged, when it is too large.
fn too_large_by(bytes: usize) -> Option<String> {
    Some(crate::refusal_of("This text", bytes)).filter(|why| !why.is_empty())
}

/// An answer of [`judge_in`]: `head` (what changed) with the text's counts and the first chunk of
/// the verdicts judged again, `head["kept"]..head["upto"]`.
fn answer<S: Games>(judged: &JudgedText<S>, mut head: Value) -> String {
    let t = Places::new(judged.text());
    let total = judged.verdicts().len();
    let (from, upto) = (head["kept"].as_u64().unwrap_or(0) as usize, head["upto"].as_u64().unwrap_or(0) as usize);
    let (records, next) = chunk(judged, &t, from, upto);
    head["total"] = total.into();
    head["bad"] = with_problems(judged.verdicts()).into();
    head["next"] = if next < upto { next.into() } else { Value::Null };
    head["waiting"] = (1..=total).filter(|&k| judged.waits(k)).count().into();
    head["refused"] = false.into();
    head["note"] = Value::Null;
    head["records"] = Value::Null;
    // The verdicts, already JSON, are put in as they are.
    head.to_string().replacen("\"records\":null", &format!("\"records\":[{records}]"), 1)
}

/// The byte offset of UTF-16 offset `units` of `text` (its end, past it; a unit inside a
/// character, the character's start).
fn byte_of(text: &str, units: usize) -> usize {
    let mut counted = 0;
    for (at, b) in text.bytes().enumerate() {
        let starts = b & 0xC0 != 0x80;
        if starts && counted >= units {
            return at;
        }
        counted += usize::from(starts) + usize::from(b >= 0xF0);
    }
    text.len()
}

/// Line ends at bytes `range` of `text`, as [`referee::report::line_starts`] counts them: a `\n`,
/// or a `\r` not before a `\n`.
fn line_ends(text: &[u8], range: std::ops::Range<usize>) -> isize {
    let ends = range.filter(|&i| text[i] == b'\n' || text[i] == b'\r' && text.get(i + 1) != Some(&b'\n'));
    ends.count() as isize
}

/// [`judge_in`] of the text judged last with UTF-16 units `from..to` replaced by `inserted`: the
/// page sends an edit rather than a text of megabytes. `{"missing": true}` when no text is held
/// (the worker is new): the page then sends the text.
pub fn judge_edit_in<S: Games>(from: usize, to: usize, inserted: &str) -> String {
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        let Some((judged, end)) =
            held.as_mut().and_then(|h| h.judged.downcast_mut::<JudgedText<S>>().map(|j| (j, &mut h.end)))
        else {
            return json!({ "missing": true }).to_string();
        };
        let text = judged.text();
        let (start, stop) = (byte_of(text, from), byte_of(text, to.max(from)));
        if let Some(why) = too_large_by(text.len() - (stop - start) + inserted.len()) {
            drop(held);
            return judge_in_refused(why);
        }
        // What the edit changes of where the text's end is: its units, and its lines (a line end
        // is decided by its byte and the next, so one byte before the edit is looked at again).
        let removed_units = (to.max(from) - from) as isize;
        let inserted_units = inserted.encode_utf16().count() as isize;
        let before = start.saturating_sub(1);
        let old_ends = line_ends(text.as_bytes(), before..stop);
        let old_total = judged.verdicts().len();
        let r = judged.replace(start..stop, inserted);
        let new_ends = line_ends(judged.text().as_bytes(), before..start + inserted.len());
        let removed = old_total - r.kept - r.moved;
        let shift = json!({
            "units": inserted_units - removed_units,
            "lines": new_ends - old_ends,
            "bytes": inserted.len() as isize - (stop - start) as isize,
            "records": r.judged as isize - removed as isize,
        });
        *end = (
            (end.0 as isize + inserted_units - removed_units) as usize,
            (end.1 as isize + new_ends - old_ends) as usize,
        );
        let head =
            json!({ "full": false, "kept": r.kept, "removed": removed, "shift": shift, "upto": r.kept + r.judged });
        answer(judged, head)
    })
}

/// More verdicts of the text judged last: those of records `from..upto` (0-based), as far as
/// [`CHUNK`] goes: `{"records": [...], "next": ...}`, `next` the record to ask for next, or null.
pub fn judged_verdicts_in<S: Games>(from: usize, upto: usize) -> String {
    HELD.with(|h| {
        let held = h.borrow();
        let Some(judged) = held.as_ref().and_then(|h| h.judged.downcast_ref::<JudgedText<S>>()) else {
            return json!({ "records": [], "next": null }).to_string();
        };
        let t = Places::new(judged.text());
        let upto = upto.min(judged.verdicts().len());
        let (records, next) = chunk(judged, &t, from.min(upto), upto);
        let next = if next < upto { Value::from(next) } else { Value::Null };
        format!("{{\"records\":[{records}],\"next\":{next}}}")
    })
}

/// Runs the search of the first record of the text judged last whose claims wait for one, and
/// puts its verdict in: `{"record": verdict, "bad": ..., "waiting": W}` (the records still
/// waiting), or `{"record": null, "waiting": 0}` when none waits.
pub fn judge_search_in<S: Games>() -> String {
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        let Some(judged) = held.as_mut().and_then(|h| h.judged.downcast_mut::<JudgedText<S>>()) else {
            return json!({ "record": null, "waiting": 0 }).to_string();
        };
        let Some(search) = judged.next_search() else {
            return json!({ "record": null, "waiting": 0 }).to_string();
        };
        let index = search.index();
        judged.settle(search.run());
        let t = Places::new(judged.text());
        let total = judged.verdicts().len();
        let record = judged.verdicts().nth(index - 1).map(|v| verdict_json(&t, v));
        let waiting = (1..=total).filter(|&k| judged.waits(k)).count();
        json!({ "record": record, "bad": with_problems(judged.verdicts()), "waiting": waiting }).to_string()
    })
}

/// Forgets the text judged last: the next is judged whole.
pub fn judge_forget() {
    HELD.with(|h| h.borrow_mut().take());
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::judge::Registry;

    fn parse(s: String) -> Value {
        serde_json::from_str(&s).expect("JSON")
    }

    /// Moves every place in `v` (an object with `from`, `to`, `line` and `bytes`) by `shift`, and
    /// a verdict's `index`: what the page does with the verdicts after an edit (app.js, `moved`).
    fn moved(v: &mut Value, shift: &Value, top: bool) {
        let by = |k: &str| shift[k].as_i64().expect("a shift");
        match v {
            Value::Object(fields) => {
                if fields.contains_key("from") && fields.contains_key("line") {
                    for (k, s) in [("from", "units"), ("to", "units"), ("line", "lines")] {
                        fields[k] = (fields[k].as_i64().expect("a number") + by(s)).into();
                    }
                    for b in fields["bytes"].as_array_mut().expect("bytes") {
                        *b = (b.as_i64().expect("a number") + by("bytes")).into();
                    }
                    return;
                }
                if top {
                    fields["index"] = (fields["index"].as_i64().expect("an index") + by("records")).into();
                }
                for (_, x) in fields.iter_mut() {
                    moved(x, shift, false);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|x| moved(x, shift, false)),
            _ => {}
        }
    }

    /// The verdicts of `text` as the page holds them after `judge_in` and any further chunks.
    fn judged(records: &mut Vec<Value>, text: &str) {
        merged(records, parse(judge_in(Registry, text)));
    }

    /// The verdicts the page holds after `answer`, an answer of `judge_in` or `judge_edit_in`.
    fn merged(records: &mut Vec<Value>, answer: Value) {
        let mut new: Vec<Value> = answer["records"].as_array().expect("records").clone();
        let mut next = answer["next"].as_u64();
        while let Some(from) = next {
            let more = parse(judged_verdicts_in::<Registry>(from as usize, answer["upto"].as_u64().unwrap() as usize));
            new.extend(more["records"].as_array().expect("records").iter().cloned());
            next = more["next"].as_u64();
        }
        if answer["full"] == true {
            *records = new;
            return;
        }
        let (kept, removed) = (answer["kept"].as_u64().unwrap() as usize, answer["removed"].as_u64().unwrap() as usize);
        let added = new.len();
        records.splice(kept..kept + removed, new);
        for r in &mut records[kept + added..] {
            moved(r, &answer["shift"], true);
        }
        assert_eq!(records.len() as u64, answer["total"].as_u64().unwrap());
    }

    /// After any edit, the verdicts the page holds (those kept, those judged again, those moved)
    /// are those of the text judged whole: edits at the start, the middle and the end of a text of
    /// many records, with characters outside ASCII before them, adding and removing records and
    /// lines.
    #[test]
    fn the_verdicts_kept_after_an_edit_are_those_of_the_whole_text_judged_again() {
        let one = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n\n";
        let bad = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n\n";
        let mut text = format!("Parties notées à la main\n\n{}", [one, bad].concat().repeat(300));
        judge_forget();
        let mut records = Vec::new();
        judged(&mut records, &text);
        assert_eq!(records.len(), 600);
        let edits: Vec<(usize, usize, &str)> = vec![
            (text.len() / 2, text.len() / 2, "x"),
            (0, 0, "é\n\n"),
            (text.len() / 3, text.len() / 3 + one.len(), ""),
            (text.len() / 4, text.len() / 4, bad),
            (text.len() - 1, text.len() - 1, "\n\n[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 *\n"),
            (100, 4000, ""),
            // Line breaks of every kind, and one made of two edits.
            (text.len() / 5, text.len() / 5, "\r\r\n"),
            (text.len() / 5 + 1, text.len() / 5 + 1, "\n"),
            (text.len() / 5, text.len() / 5 + 2, ""),
        ];
        // The page sends an edit (UTF-16 units), or the new text: either way, the verdicts it then
        // holds are those of the new text judged whole.
        let mut edited = records.clone();
        for (from, to, with) in edits {
            let (from, to) = (referee::judged::floor_boundary(&text, from), referee::judged::floor_boundary(&text, to));
            let before = text.clone();
            let units = |at: usize| before[..at].encode_utf16().count();
            merged(&mut edited, parse(judge_edit_in::<Registry>(units(from), units(to), with)));
            text.replace_range(from..to, with);
            judge_forget();
            let mut records = Vec::new();
            judged(&mut records, &before);
            judged(&mut records, &text);
            judge_forget();
            let mut whole = Vec::new();
            judged(&mut whole, &text);
            assert_eq!(records.len(), whole.len(), "after {from}..{to} {with:?}");
            for ((a, b), c) in records.iter().zip(&whole).zip(&edited) {
                assert_eq!(a, b, "the new text, after {from}..{to} {with:?}");
                assert_eq!(c, b, "the edit, after {from}..{to} {with:?}");
            }
            assert_eq!(edited.len(), whole.len());
            // The next edit is judged against this text, whole.
        }
    }

    /// A text whose verdicts pass one chunk comes in chunks, each within it; a text too large is
    /// refused and forgotten.
    #[test]
    fn verdicts_past_a_chunk_are_asked_for_and_a_text_too_large_is_refused() {
        let one = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n\n";
        let text = one.repeat(8000);
        judge_forget();
        let answer = parse(judge_in(Registry, &text));
        assert_eq!(answer["total"], 8000);
        assert!(answer["next"].as_u64().is_some(), "in chunks");
        let mut records = Vec::new();
        judge_forget();
        judged(&mut records, &text);
        assert_eq!(records.len(), 8000);
        let big = "x".repeat(crate::MAX_TEXT + 1);
        let refused = parse(judge_in(Registry, &big));
        assert_eq!((refused["refused"].as_bool(), refused["full"].as_bool()), (Some(true), Some(true)));
    }
}
