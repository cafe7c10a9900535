//! referee in the browser: the library's answers to the page in `web/`, as JSON strings.
//!
//! Each exported function takes the whole text of the page's editor and gives one JSON string,
//! built from the library's public API only: `verify` (the verdict of every record), `positions`
//! and `board` (the pictures of one record), `position_code`, `convert` and `repairs`. Every
//! place in the text is given three ways: 1-based line and column (as the command line prints
//! them), `from`/`to`, offsets in UTF-16 code units, which is how JavaScript indexes a string,
//! and `bytes`, the range in the UTF-8 text, as the library's spans give it. Nothing here panics on any input: a record that cannot be drawn or converted gives
//! `{"ok": false, "message": ...}`.
//!
//! The library is built without its `parallel` feature (a browser's WebAssembly has no threads)
//! and repairs are searched with no time limit (it has no clock either): their bound is the
//! number of positions replayed, as in the tests.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

use referee::convert;
use referee::picture::{pictures, Pictures};
use referee::render::svg::{svg, SvgOptions};
use referee::repair::{repair_source, repaired_text, Candidate, ChangeKind, RepairOptions};
use referee::report::{status_name, Source};
use referee::verdict::{ClaimCheck, Problem, ProblemKind, Reach, Status, Verdict};
use referee::verify::{self, ShowNote, VerifyOptions};
use referee::GameKind;
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::wasm_bindgen;

/// Byte offsets of one text turned into UTF-16 offsets; asked in increasing order, each answer
/// scans only the text since the last one.
struct Utf16<'t> {
    text: &'t str,
    ascii: bool,
    byte: usize,
    unit: usize,
}

impl<'t> Utf16<'t> {
    fn new(text: &'t str) -> Self {
        Utf16 { text, ascii: text.is_ascii(), byte: 0, unit: 0 }
    }

    fn at(&mut self, byte: usize) -> usize {
        let mut byte = byte.min(self.text.len());
        if self.ascii {
            return byte;
        }
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        if byte < self.byte {
            (self.byte, self.unit) = (0, 0);
        }
        self.unit += self.text[self.byte..byte].encode_utf16().count();
        self.byte = byte;
        self.unit
    }
}

/// Where a span of the text is, every way the page needs it: 1-based line and column (in
/// characters), the UTF-16 offsets `from` and `to`, and the byte range `bytes` in the UTF-8 text.
#[derive(Serialize)]
struct Place {
    line: usize,
    column: usize,
    from: usize,
    to: usize,
    bytes: [usize; 2],
}

/// The text, indexed once for lines and UTF-16 offsets.
struct Text<'t> {
    source: Source,
    utf16: RefCell<Utf16<'t>>,
}

impl<'t> Text<'t> {
    fn new(text: &'t str) -> Self {
        Text { source: Source::new("", Arc::new(text.to_string())), utf16: RefCell::new(Utf16::new(text)) }
    }

    fn place(&self, span: &Range<usize>) -> Place {
        let (line, column) = self.source.line_col(span.start);
        let mut utf16 = self.utf16.borrow_mut();
        let from = utf16.at(span.start);
        let to = utf16.at(span.end.max(span.start));
        Place { line, column, from, to, bytes: [span.start, span.end.max(span.start)] }
    }
}

fn kind_name(k: ProblemKind) -> &'static str {
    match k {
        ProblemKind::Syntax => "syntax",
        ProblemKind::Illegal => "illegal",
        ProblemKind::Claim => "claim",
        ProblemKind::Undecided => "undecided",
    }
}

fn problem_json(t: &Text, p: &Problem, alternatives: &[referee::verdict::Alternative]) -> Value {
    let alternatives: Vec<Value> = alternatives
        .iter()
        .map(|a| {
            let stops_at = match &a.reach {
                Reach::End => Value::Null,
                Reach::StopsAt { span, token } => json!({ "token": token, "at": t.place(span) }),
            };
            json!({ "move": a.text, "replays_to_end": a.reach == Reach::End, "stops_at": stops_at })
        })
        .collect();
    json!({
        "kind": kind_name(p.kind),
        "at": t.place(&p.span),
        "token": p.token,
        "message": p.message,
        // The rule the move breaks, as a page of the build: `rules/quarod.html#quarod-placement`.
        "rule": p.rule.map(|r| format!("rules/{}.html#{}", r.game.name, r.anchor())),
        "legal": p.legal,
        "legal_count": p.legal_count,
        "alternatives": alternatives,
    })
}

fn claim_json(t: &Text, c: &ClaimCheck) -> Value {
    json!({
        "kind": c.kind,
        "text": c.text,
        "status": c.status.name(),
        "detail": c.detail,
        "at": t.place(&c.span),
    })
}

fn verdict_json(t: &Text, v: &Verdict) -> Value {
    let illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal);
    let problems: Vec<Value> = v
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| problem_json(t, p, if Some(i) == illegal { &v.alternatives } else { &[] }))
        .collect();
    json!({
        "index": v.index,
        "game": v.game.map(|g| g.name),
        "title": v.game.map(|g| g.title),
        "status": status_name(v.status),
        "at": t.place(&v.span),
        "moves": v.moves,
        "game_over": v.game_over,
        "winner": v.winner,
        "score": v.score_text,
        "position": v.position,
        "problems": problems,
        "claims": v.claims.iter().map(|c| claim_json(t, c)).collect::<Vec<_>>(),
        "notes": v.notes,
    })
}

/// The options every function judges with: those of `referee verify` by default.
fn options() -> VerifyOptions {
    VerifyOptions::default()
}

/// Every record of `text` with its verdict: `{"records": [...]}`, each with its game, status,
/// place, moves, score, problems (each with its place, message, legal moves and, at the first
/// illegal move, the alternatives and how far the rest replays with each) and claims.
#[wasm_bindgen]
pub fn verify(text: &str) -> String {
    let t = Text::new(text);
    let records: Vec<Value> = referee::verify_records(text, options()).map(|v| verdict_json(&t, &v)).collect();
    json!({ "records": records }).to_string()
}

/// The games the page knows: name, title and alias, in the registry's order.
#[wasm_bindgen]
pub fn games() -> String {
    let games: Vec<Value> =
        GameKind::ALL.iter().map(|g| json!({ "name": g.about().name, "title": g.about().title })).collect();
    Value::from(games).to_string()
}

thread_local! {
    /// The pictures last drawn, with the text and record they are of: stepping through a game
    /// asks for one board after another of the same record.
    static PICTURES: RefCell<Option<(String, usize, Pictures)>> = const { RefCell::new(None) };
}

/// `work` with the pictures of record `index` of `text`, drawn once per text and record.
fn with_pictures<T>(text: &str, index: usize, work: impl FnOnce(&Pictures) -> T) -> Result<T, (Range<usize>, String)> {
    PICTURES.with(|cell| {
        let mut cached = cell.borrow_mut();
        let fresh = !matches!(&*cached, Some((t, i, _)) if t == text && *i == index);
        if fresh {
            *cached = None;
            *cached = Some((text.to_string(), index, pictures(text, index, options())?));
        }
        match &*cached {
            Some((_, _, p)) => Ok(work(p)),
            None => Err((0..0, "no pictures".to_string())),
        }
    })
}

fn failure(t: &Text, (span, message): (Range<usize>, String)) -> Value {
    json!({ "ok": false, "message": message, "at": t.place(&span) })
}

/// The positions of record `index` (1-based) of `text`, as frames: the start, the position after
/// each move (the place of its token), then, when the record has an illegal move, the error
/// diagram (`illegal: true`: the position before that move, with the move in red).
#[wasm_bindgen]
pub fn positions(text: &str, index: usize) -> String {
    let t = Text::new(text);
    let drawn = with_pictures(text, index, |p| {
        let mut frames: Vec<Value> = p
            .scenes
            .iter()
            .enumerate()
            .map(|(k, scene)| {
                let token = k.checked_sub(1).and_then(|m| p.moves.get(m));
                json!({
                    "ply": scene.ply,
                    "caption": scene.caption().join("\n"),
                    "move": token.map(|s| t.place(s)),
                    "illegal": false,
                })
            })
            .collect();
        if let Some((scene, span)) = &p.error {
            frames.push(json!({
                "ply": scene.ply,
                "caption": scene.caption().join("\n"),
                "move": t.place(span),
                "illegal": true,
            }));
        }
        json!({
            "ok": true,
            "game": p.game.name,
            "title": p.game.title,
            "at": t.place(&p.span),
            "frames": frames,
        })
    });
    drawn.unwrap_or_else(|e| failure(&t, e)).to_string()
}

/// The SVG of frame `frame` of record `index` of `text` (numbered as [`positions`] gives them),
/// drawn by the project's renderer `width` pixels wide, with its caption under the board when
/// `caption`; empty when there is no such frame.
#[wasm_bindgen]
pub fn board(text: &str, index: usize, frame: usize, width: u32, caption: bool) -> String {
    let options = SvgOptions { width, caption, ..SvgOptions::default() };
    with_pictures(text, index, |p| {
        let scene = match p.scenes.get(frame) {
            Some(s) => Some(s),
            None if frame == p.scenes.len() => p.error.as_ref().map(|(s, _)| s),
            None => None,
        };
        scene.map(|s| svg(s, &options)).unwrap_or_default()
    })
    .unwrap_or_default()
}

/// The position code of record `index` of `text` after `ply` moves: `{"ok": true, "code": ...,
/// "note": ...}`, the note saying when that position could not be reached.
#[wasm_bindgen]
pub fn position_code(text: &str, index: usize, ply: usize) -> String {
    let t = Text::new(text);
    match verify::position_code(text, index, Some(ply), options()) {
        Ok((code, note)) => {
            let note = note.map(|n| match n {
                ShowNote::StoppedAt { span, message } => {
                    let p = t.place(&span);
                    format!("the replay stops at {}:{}: {message}", p.line, p.column)
                }
                ShowNote::Short { moves } => format!("the record has only {moves} moves"),
            });
            json!({ "ok": true, "code": code.trim_end(), "note": note })
        }
        Err(e) => failure(&t, e),
    }
    .to_string()
}

/// Record `index` of `text` in its notation's canonical layout and as a JSON game document:
/// `{"ok": true, "canonical": ..., "json": ...}`, or why it cannot be converted (a record that
/// does not replay to its end).
#[wasm_bindgen]
pub fn convert(text: &str, index: usize) -> String {
    let result = convert::document(text, index, options())
        .and_then(|doc| Ok((convert::canonical_of(&doc)?, convert::to_json(&doc))));
    match result {
        Ok((canonical, json)) => json!({ "ok": true, "canonical": canonical, "json": json }),
        Err(e) => json!({ "ok": false, "message": e.to_string() }),
    }
    .to_string()
}

/// Whether a candidate makes the record stand: it replays to the end, its diagram matches and its
/// claims hold.
fn stands(c: &Candidate) -> bool {
    c.replays_to_end && c.final_cells_differing.unwrap_or(0) == 0 && c.claims_hold()
}

fn candidate_json(t: &Text, text: &str, record: &Range<usize>, c: &Candidate) -> Value {
    let edits: Vec<Value> = c
        .changes
        .iter()
        .map(|e| {
            let first = e.spans.first().cloned().unwrap_or_default();
            let at = if e.at_end { first.end..first.end } else { first };
            json!({
                "kind": e.kind.name(),
                "from": e.from,
                "to": e.to,
                "before": (e.kind == ChangeKind::Insert && !e.at_end).then(|| text.get(at.clone()).unwrap_or_default()),
                "at_end": e.at_end,
                "expressible": e.expressible,
                "at": t.place(&at),
            })
        })
        .collect();
    let record_text = repaired_text(text, record, &c.changes);
    let whole = format!("{}{record_text}{}", &text[..record.start], &text[record.end..]);
    let verified = referee::verify_source(&record_text, options());
    let verifies = matches!(verified.as_slice(), [v] if v.status == Status::Valid);
    let stop = c.violations.first().map(|v| json!({ "token": v.token, "message": v.message, "at": t.place(&v.span) }));
    json!({
        "edits": edits,
        "replays_to_end": c.replays_to_end,
        "moves": c.moves,
        "score": c.score,
        "stops": stop,
        "violations": c.violations.len(),
        "final_position": c.final_position().map(|s| s.name()),
        "final_cells_differing": c.final_cells_differing,
        "claims": c.claims.iter().map(|k| json!({ "text": k.text, "status": k.status.name(), "detail": k.detail })).collect::<Vec<_>>(),
        "stands": stands(c),
        "verifies": verifies,
        "text": whole,
    })
}

/// The best repairs of record `index` of `text`, best first, each with its edits (kind, tokens
/// before and after, place), what the record then says, whether its text then verifies as valid,
/// and the whole text with the repair made (`text`).
#[wasm_bindgen]
pub fn repairs(text: &str, index: usize) -> String {
    let t = Text::new(text);
    // No time limit: a browser's WebAssembly has no clock; the positions bound the search.
    let repair = RepairOptions { time_limit: None, ..RepairOptions::default() };
    let found = match repair_source(text, options(), repair, Some(index)) {
        Ok(found) => found,
        Err(message) => return json!({ "ok": false, "message": message }).to_string(),
    };
    let Some(r) = found.first() else {
        return json!({ "ok": false, "message": format!("there is no record {index}") }).to_string();
    };
    let record = r.verdict.span.start.min(text.len())..r.verdict.span.end.min(text.len());
    let search = r.search.as_ref().map(|s| {
        json!({
            "tried": s.tried,
            "depth": s.depth,
            "positions": s.positions,
            "stopped": s.stopped.map(|b| format!("{b:?}")),
            "candidates": s.candidates.iter().map(|c| candidate_json(&t, text, &record, c)).collect::<Vec<_>>(),
        })
    });
    json!({ "ok": true, "status": status_name(r.verdict.status), "stands": r.stands(), "search": search }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUAROD: &str = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";
    const BROKEN: &str = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n";

    fn parse(s: String) -> Value {
        serde_json::from_str(&s).expect("every answer is JSON")
    }

    #[test]
    fn utf16_offsets_count_code_units_and_may_go_back() {
        let text = "é𝄞a";
        let mut u = Utf16::new(text);
        assert_eq!(u.at(2), 1);
        assert_eq!(u.at(6), 3);
        assert_eq!(u.at(7), 4);
        assert_eq!(u.at(0), 0);
        // Inside a character: its start.
        assert_eq!(u.at(3), 1);
    }

    #[test]
    fn verify_gives_each_problem_its_place_and_alternatives() {
        let text = format!("«»\n{QUAROD}\n{BROKEN}");
        let v = parse(verify(&text));
        let records = v["records"].as_array().unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0]["status"], "valid");
        assert_eq!(records[0]["game"], "quarod");
        let p = &records[1]["problems"][0];
        assert_eq!(p["kind"], "illegal");
        assert_eq!(p["token"], "c1d1");
        let (from, to) = (p["at"]["from"].as_u64().unwrap() as usize, p["at"]["to"].as_u64().unwrap() as usize);
        let units: Vec<u16> = text.encode_utf16().collect();
        assert_eq!(String::from_utf16(&units[from..to]).unwrap(), "c1d1");
        assert!(!p["alternatives"].as_array().unwrap().is_empty());
    }

    #[test]
    fn positions_end_with_the_error_diagram_and_each_frame_draws() {
        let p = parse(positions(BROKEN, 1));
        let frames = p["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 3, "start, c1d1, then the error diagram");
        assert_eq!(frames[2]["illegal"], true);
        assert!(board(BROKEN, 1, 2, 300, true).starts_with("<svg"));
        assert_eq!(board(BROKEN, 1, 3, 300, true), "");
        assert_eq!(parse(positions(BROKEN, 2))["ok"], false);
    }

    #[test]
    fn convert_code_and_repairs_answer_in_json() {
        let c = parse(convert(QUAROD, 1));
        assert!(c["canonical"].as_str().unwrap().contains("1. c1d1 d3c3"));
        assert_eq!(parse(convert(BROKEN, 1))["ok"], false);
        assert_eq!(parse(position_code(QUAROD, 1, 2))["ok"], true);
        let r = parse(repairs(BROKEN, 1));
        let best = &r["search"]["candidates"][0];
        assert_eq!(best["verifies"], true);
        assert!(verify(best["text"].as_str().unwrap()).contains("\"status\":\"valid\""));
    }
}
