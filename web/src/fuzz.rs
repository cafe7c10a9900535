//! The checks behind the page's fuzz target (`fuzz/fuzz_targets/web.rs`, nightly, libFuzzer),
//! shared with the stable smoke test `web/tests/fuzz_smoke.rs`, as the library's targets share
//! `referee::fuzz_bodies`. Every function the page calls is called natively, on any text, with
//! any record index, frame and ply: nothing may panic (in the browser a panic traps the module),
//! every answer is JSON, and every place it gives points into the text, the same place each of the
//! three ways it is given.
//!
//! Not part of the crate's interface: hidden from its documentation, and free to change.

use referee::repair::RepairOptions;
use serde_json::Value;

use crate::{
    board, convert, games, limits, line_board, next_moves, play_move, position_code, positions, repairs_within, verify,
};
use referee::judge::Registry;

fn json(answer: String) -> Value {
    serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: not JSON: {answer}"))
}

/// Checks every place in `answer` (any object with `line`, `column`, `from`, `to` and `bytes`):
/// `bytes` is a range of the text between characters, `from`..`to` the same range in UTF-16 code
/// units, and line and column count from 1. Returns how many places were checked.
fn places(text: &str, units: &[u16], answer: &Value) -> usize {
    match answer {
        Value::Array(items) => items.iter().map(|v| places(text, units, v)).sum(),
        Value::Object(fields) if fields.contains_key("bytes") && fields.contains_key("from") => {
            let number = |k: &str| fields[k].as_u64().unwrap_or_else(|| panic!("{k} in {answer}")) as usize;
            let (start, end) =
                (answer["bytes"][0].as_u64().unwrap() as usize, answer["bytes"][1].as_u64().unwrap() as usize);
            assert!(start <= end && end <= text.len(), "{answer} outside the text");
            let (from, to) = (number("from"), number("to"));
            assert!(from <= to && to <= units.len(), "{answer} outside the text");
            // A span that ends inside a character gives the UTF-16 offset of that character's start.
            let floor = |mut at: usize| {
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                at
            };
            let (start, end) = (floor(start), floor(end));
            assert_eq!(String::from_utf16_lossy(&units[from..to]), &text[start..end], "{answer}");
            assert!(number("line") >= 1 && number("column") >= 1, "{answer}");
            1
        }
        Value::Object(fields) => fields.values().map(|v| places(text, units, v)).sum(),
        _ => 0,
    }
}

/// The page's entry points on one input: its first byte picks the record (0 to 5: 0 names none),
/// its second a frame and a ply, and the rest is the text. Returns how many places were checked.
pub fn entry_points(data: &[u8]) -> usize {
    let (index, pick, text) = match data {
        [i, p, rest @ ..] => (usize::from(*i % 6), usize::from(*p), String::from_utf8_lossy(rest).into_owned()),
        _ => (1, 0, String::from_utf8_lossy(data).into_owned()),
    };
    let units: Vec<u16> = text.encode_utf16().collect();
    json(games());
    json(limits());
    let verdicts = json(verify(&text));
    let shown = verdicts["records"].as_array().expect("records").len();
    assert!(verdicts["total"].as_u64().is_some_and(|t| t as usize >= shown), "{verdicts}");
    let mut checked = places(&text, &units, &verdicts);

    let drawn = json(positions(&text, index));
    checked += places(&text, &units, &drawn);
    let frames = drawn["frames"].as_array().map_or(0, Vec::len);
    assert_eq!(drawn["ok"] == true, frames > 0, "{drawn}");
    // A frame is drawn exactly when the record has it.
    for frame in [0, pick % (frames + 2), frames.saturating_sub(1), frames, frames + 1] {
        let picture = board(&text, index, frame, 200 + pick as u32, pick % 2 == 0, pick % 3 == 0);
        assert_eq!(picture.starts_with("<svg"), frame < frames, "frame {frame} of {frames}: {picture}");
    }
    // Each variation's frames are drawn, and no more.
    for v in drawn["variations"].as_array().into_iter().flatten() {
        let (line, count) = (v["line"].as_u64().expect("line") as usize, v["frames"].as_array().map_or(0, Vec::len));
        assert!(count > 0, "{v}");
        for frame in [0, count - 1, count] {
            let picture = line_board(&text, index, line, frame, 200, false, pick % 2 == 1);
            assert_eq!(picture.starts_with("<svg"), frame < count, "frame {frame} of {count} of line {line}");
        }
    }
    for ply in [0, pick, frames] {
        let code = json(position_code(&text, index, ply));
        checked += places(&text, &units, &code);
        assert_eq!(code["ok"] == true, code["code"].is_string(), "{code}");
    }
    // A move offered is played, and the text it is written into reads back with one move more
    // (at the end) or the record's moves as they were (a variation); a move not offered is refused.
    for ply in [0, pick % (frames + 1), frames.saturating_sub(1)] {
        let next = json(next_moves(&text, index, ply));
        let Some(first) = next["moves"].as_array().and_then(|m| m.first()) else { continue };
        let written = first["text"].as_str().expect("a move");
        let refused = json(play_move(&text, index, ply, "@@"));
        assert_eq!(refused["ok"], false, "{refused}");
        let played = json(play_move(&text, index, ply, written));
        assert_eq!(played["ok"], true, "{written} after {ply}: {played}");
        if played["same"] == true {
            continue;
        }
        let new = &crate::with_edit(&text, &played["edit"]);
        checked += places(new, &new.encode_utf16().collect::<Vec<u16>>(), &played["at"]);
        let at = |k: usize| played["at"]["bytes"][k].as_u64().expect("where the move is") as usize;
        assert_eq!(&new[at(0)..at(1)], written, "{played}");
    }
    // The judging worker's text, edited: as many records as the text judged whole, after a
    // character inserted at a place the input picks and taken out again.
    crate::judge_forget();
    let whole = json(crate::judge_in(referee::judge::Registry, &text));
    let byte = referee::judged::floor_boundary(&text, pick * text.len() / 256);
    let at = text[..byte].encode_utf16().count();
    let inserted = json(crate::judge_edit_in::<referee::judge::Registry>(at, at, "\n"));
    let removed = json(crate::judge_edit_in::<referee::judge::Registry>(at, at + 1, ""));
    assert_eq!(removed["total"], whole["total"], "{inserted} then {removed}");
    let converted = json(convert(&text, index));
    assert_eq!(converted["ok"] == true, converted["canonical"].is_string(), "{converted}");

    // Repairs within small bounds, so that an input costs milliseconds.
    let bounds = RepairOptions {
        max_edits: 3,
        beam: 8,
        max_positions: 20_000,
        time_limit: None,
        shown: 2,
        ..RepairOptions::default()
    };
    let repaired = json(repairs_within(Registry, &text, index, bounds));
    checked += places(&text, &units, &repaired);
    let best = &repaired["search"]["candidates"][0];
    if best["verifies"] == true {
        // The text with the repair made holds the record, valid, where it was.
        let again = json(verify(&crate::with_edit(&text, &best["edit"])));
        assert_eq!(again["records"][index - 1]["status"], "valid", "{best}");
    }
    checked
}
