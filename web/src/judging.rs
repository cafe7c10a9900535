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
        HELD.with(|h| h.borrow_mut().take());
        return json!({ "full": true, "total": 0, "bad": 0, "records": [], "next": null, "waiting": 0,
                       "refused": true, "note": why })
        .to_string();
    }
    let t = Places::new(text);
    let end = end_of(&t, text);
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        let kept = held.as_mut().and_then(|h| {
            let old_end = h.end;
            h.judged.downcast_mut::<JudgedText<S>>().map(|j| (j, old_end))
        });
        let (judged, head) = match kept {
            Some((judged, old_end)) => {
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
                (judged, json!({ "full": false, "kept": r.kept, "removed": removed, "shift": shift, "upto": r.kept + r.judged }))
            }
            None => {
                let judged = JudgedText::new(text.to_string(), options(games));
                let total = judged.verdicts().len();
                *held = Some(Held { judged: Box::new(judged), end });
                let judged = held.as_mut().and_then(|h| h.judged.downcast_mut::<JudgedText<S>>()).expect("just held");
                (judged, json!({ "full": true, "kept": 0, "removed": 0, "upto": total }))
            }
        };
        let total = judged.verdicts().len();
        let (from, upto) = (head["kept"].as_u64().unwrap_or(0) as usize, head["upto"].as_u64().unwrap_or(0) as usize);
        let (records, next) = chunk(judged, &t, from, upto);
        let waiting = (1..=total).filter(|&k| judged.waits(k)).count();
        let bad = with_problems(judged.verdicts());
        if let Some(h) = held.as_mut() {
            h.end = end;
        }
        let mut answer = head;
        answer["total"] = total.into();
        answer["bad"] = bad.into();
        answer["next"] = if next < upto { next.into() } else { Value::Null };
        answer["waiting"] = waiting.into();
        answer["refused"] = false.into();
        answer["note"] = Value::Null;
        answer["records"] = Value::Null;
        let head = answer.to_string();
        // The verdicts, already JSON, are put in as they are.
        head.replacen("\"records\":null", &format!("\"records\":[{records}]"), 1)
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
        let answer = parse(judge_in(Registry, text));
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
        ];
        for (from, to, with) in edits {
            let (from, to) = (referee::judged::floor_boundary(&text, from), referee::judged::floor_boundary(&text, to));
            text.replace_range(from..to, with);
            judged(&mut records, &text);
            judge_forget();
            let mut whole = Vec::new();
            judged(&mut whole, &text);
            assert_eq!(records.len(), whole.len(), "after {from}..{to} {with:?}");
            for (a, b) in records.iter().zip(&whole) {
                assert_eq!(a, b, "after {from}..{to} {with:?}");
            }
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

