//! referee in the browser: the library's answers to the page in `web/`, as JSON strings.
//!
//! Each exported function takes the whole text of the page's editor (the judging worker keeps it
//! between calls and takes edits of it: [`judging`]) and gives one JSON string, built from the
//! library's public API only: `verify` (the verdict of every record), `positions`
//! and `board` (the pictures of one record), `position_code`, `convert` and `repairs`. Every
//! place in the text is given three ways: 1-based line and column (as the command line prints
//! them), `from`/`to`, offsets in UTF-16 code units, which is how JavaScript indexes a string,
//! and `bytes`, the range in the UTF-8 text, as the library's spans give it ([`places`]). Nothing
//! here panics on any input: a record that cannot be drawn or converted gives `{"ok": false,
//! "message": ...}`.
//!
//! A page has less to spend than the command line, and whatever it is sent must not make it hang
//! or run out of memory: texts of more than [`MAX_TEXT`] bytes are refused, `verify` answers with
//! at most [`MAX_ANSWER`] bytes of verdicts (the records past that are counted, not judged), and a
//! claim made before the end of a game is searched within [`SEARCH_PER_CLAIM`] positions,
//! [`SearchBudget::CLAIMS_PER_BUDGET`] times that for a whole text, in at most [`SEARCH_BYTES`]; a
//! claim those bounds leave unchecked says so and sends the reader to the command line.
//!
//! The library is built without its `parallel` feature (a browser's WebAssembly has no threads)
//! and repairs are searched with no time limit (it has no clock either): their bound is the
//! number of positions replayed, as in the tests.

use std::cell::RefCell;
use std::ops::Range;

pub use judging::{judge_edit_in, judge_forget, judge_in, judge_search_in, judged_verdicts_in};
use referee::convert;
pub use referee::judge::Games;
use referee::picture::{pictures, Line, Pictures};
use referee::record;
use referee::record::notes::glyph_words;
use referee::render::svg::{svg, StyleName, SvgOptions};
use referee::repair::{repair_source, repaired_text, Candidate, ChangeKind, RepairOptions};
use referee::report::status_name;
use referee::search::{mib, SearchBudget};
use referee::verdict::{ClaimCheck, Problem, ProblemKind, Reach, Status, Verdict};
use referee::verify::{self, ShowNote, VerifyOptions, DEFAULT_SEARCH_LIMIT};
use serde_json::{json, Value};
pub use wasm_bindgen;

// The checks of the `web` fuzz target, over the page's functions as this crate exports them.
#[cfg(feature = "page")]
#[doc(hidden)]
pub mod fuzz;
pub mod judging;
pub mod places;

use places::Places;

/// The most text, in bytes of UTF-8, that the page judges: about 12,000 records of random Quarod
/// games, 80,000 short ones. Every answer about a text holds a few copies of it at most, so that
/// with [`judging::CHUNK`] and [`SEARCH_BYTES`] a text the page accepts keeps the module's memory
/// within a few hundred MiB, far from the 4 GiB a browser gives WebAssembly; the command line
/// judges files of any size.
pub const MAX_TEXT: usize = 8 << 20;

/// The most JSON `verify` answers with: the verdicts of the records that fit, in text order, a few
/// thousand short ones. The page parses the answer on its own thread, where 8 MiB took 75 to 140
/// ms in headless Chromium on the project's machine: 2 MiB keeps it to a few tens.
pub const MAX_ANSWER: usize = 2 << 20;

/// Positions one claim's search may solve on the page (the command line: 250,000); a text's
/// searches may solve [`SearchBudget::CLAIMS_PER_BUDGET`] times that in all. Enough for the claims
/// of real endgames (the samples' need at most a few thousand), while a hopeless search on the
/// largest board, 26x26, ends within a second or two.
pub const SEARCH_PER_CLAIM: usize = 5_000;

/// Positions all the claims of one text may solve on the page.
pub const SEARCH_PER_TEXT: usize = SEARCH_PER_CLAIM * SearchBudget::CLAIMS_PER_BUDGET;

/// Most bytes one claim's search may hold on the page: [`SEARCH_PER_CLAIM`] positions of the
/// largest board fit in less.
pub const SEARCH_BYTES: usize = 64 << 20;

/// The options every function judges with: those of `referee verify`, but searching within the
/// page's bounds, for the records of `games`.
pub(crate) fn options<S: Games>(games: S) -> VerifyOptions<S> {
    VerifyOptions { search_limit: SEARCH_PER_CLAIM, search_bytes: SEARCH_BYTES, ..VerifyOptions::default() }
        .with_games(games)
}

/// Why a text is not judged, when it is larger than [`MAX_TEXT`].
pub(crate) fn too_large(text: &str) -> Option<String> {
    Some(refusal_of("This text", text.len())).filter(|why| !why.is_empty())
}

/// Why the page does not take `what` (`This text`, a file's name), of `bytes` bytes of UTF-8: empty
/// when it is within [`MAX_TEXT`]. The page asks before it opens a file or a link.
pub fn refusal_of(what: &str, bytes: usize) -> String {
    if bytes <= MAX_TEXT {
        return String::new();
    }
    format!(
        "{what} is {} bytes: the page judges texts of up to {} ({} bytes), so that it never runs out of memory. \
         `referee verify FILE` judges files of any size.",
        grouped(bytes),
        mib(MAX_TEXT),
        grouped(MAX_TEXT)
    )
}

/// A number with its thousands grouped: `2,097,152`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, d) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// The answer of a function that gives `{"ok": ...}`, for a text larger than [`MAX_TEXT`].
fn refused(text: &str) -> Option<String> {
    too_large(text).map(|why| json!({ "ok": false, "message": why }).to_string())
}

/// The bounds the page works within, for the page to say: `{"text": ..., "answer": ...,
/// "per_claim": ..., "per_text": ..., "repair_positions": ...}`.
pub fn limits_json() -> String {
    json!({
        "text": MAX_TEXT,
        "answer": MAX_ANSWER,
        "per_claim": SEARCH_PER_CLAIM,
        "per_text": SEARCH_PER_TEXT,
        "repair_positions": referee::repair::DEFAULT_MAX_POSITIONS,
    })
    .to_string()
}

/// Panics, which in the browser traps the module (`RuntimeError: unreachable`) as a bug or memory
/// running out would: the page's tests check that the page recovers. For nothing else.
#[doc(hidden)]
pub fn trap_now() {
    panic!("the trap the page's tests ask for");
}

/// A claim's detail as the page gives it: where a search bound stopped the search, the command
/// line's advice (`raise it with --search-limit`) becomes the page's, which cannot raise it.
fn claim_detail(c: &ClaimCheck) -> String {
    if !c.detail.contains("--search-limit") {
        return c.detail.clone();
    }
    let detail = c
        .detail
        .replace(" (raise it with --search-limit)", "")
        .replace(", whatever --search-limit says", "")
        .replace("this file's searches", "this text's searches");
    format!(
        "{detail}: the page searches at most {SEARCH_PER_CLAIM} positions a claim and {SEARCH_PER_TEXT} a text; open it in the \
         CLI (`referee verify`, {DEFAULT_SEARCH_LIMIT} positions a claim) to search further"
    )
}

fn kind_name(k: ProblemKind) -> &'static str {
    match k {
        ProblemKind::Syntax => "syntax",
        ProblemKind::Illegal => "illegal",
        ProblemKind::Claim => "claim",
        ProblemKind::Undecided => "undecided",
    }
}

fn problem_json(t: &Places, p: &Problem, alternatives: &[referee::verdict::Alternative]) -> Value {
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
        "message": page_words(&p.said()),
        // The rule the move breaks, as a page of the build: `rules/quarod.html#quarod-placement`.
        "rule": p.rule.map(|r| format!("rules/{}.html#{}", r.game.name, r.anchor())),
        "legal": p.legal,
        "legal_count": p.legal_count,
        "alternatives": alternatives,
    })
}

fn claim_json(t: &Places, c: &ClaimCheck) -> Value {
    json!({
        "kind": c.kind,
        "text": c.text,
        "status": c.status.name(),
        "reason": c.status.reason().map(|r| r.name()),
        "detail": claim_detail(c),
        "at": t.place(&c.span),
    })
}

pub(crate) fn verdict_json(t: &Places, v: &Verdict) -> Value {
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

/// Every record of `text` with its verdict: `{"records": [...], "total": N, "note": ...}`, each
/// record with its game, status, place, moves, score, problems (each with its place, message,
/// legal moves and, at the first illegal move, the alternatives and how far the rest replays with
/// each) and claims. `records` holds the verdicts that fit in [`MAX_ANSWER`], in text order, of
/// the `total` records of the text; `note` says why not all (none, for a text larger than
/// [`MAX_TEXT`], with `refused: true`).
pub fn verify_in<S: Games>(games: S, text: &str) -> String {
    verify_within(games, text, MAX_ANSWER)
}

/// [`verify_in`], its answer within `answer` bytes.
fn verify_within<S: Games>(games: S, text: &str, answer: usize) -> String {
    if let Some(why) = too_large(text) {
        return json!({ "records": [], "total": 0, "refused": true, "note": why }).to_string();
    }
    let t = Places::new(text);
    let mut records = String::new();
    let mut shown = 0;
    let mut cut = false;
    for v in referee::verify_records(text, options(games)) {
        let verdict = verdict_json(&t, &v).to_string();
        if records.len() + verdict.len() + 1 > answer {
            cut = true;
            break;
        }
        if shown > 0 {
            records.push(',');
        }
        records.push_str(&verdict);
        shown += 1;
    }
    // The records past the limit are only counted: reading is fast, judging is what costs.
    let total = if cut { record::read(text, None).count() } else { shown };
    let note = cut.then(|| {
        format!(
            "The page shows the verdicts of the first {shown} of these {total} records: the others would pass its \
             limit of {} of answers. `referee verify FILE` judges them all.",
            mib(answer)
        )
    });
    let tail = json!({ "total": total, "refused": false, "note": note }).to_string();
    format!("{{\"records\":[{records}],{}", &tail[1..])
}

/// The games the page knows, in the order of `games`: name, title, the board sizes they start on
/// (`smallest`, `largest`, `step`) and their players (`fewest`, `most`), for the page's New record.
pub fn games_in<S: Games>(games: S) -> String {
    let games: Vec<Value> = games
        .abouts()
        .iter()
        .map(|a| {
            json!({
                "name": a.name,
                "title": a.title,
                "sizes": { "smallest": a.sizes.smallest, "largest": a.sizes.largest, "step": a.sizes.step.max(1) },
                "players": { "fewest": a.players.0, "most": a.players.1 },
            })
        })
        .collect();
    Value::from(games).to_string()
}

/// The moves that may be played after the first `ply` moves of record `index` of `text` (its end
/// when `ply` is past it), for the board that plays them by clicks: `{"ok": true, "plies": ...,
/// "over": ..., "moves": [{"text": "c1d1", "cells": ["c1", "d1"]}, ...]}`; none after an illegal
/// move.
pub fn next_moves_in<S: Games>(games: S, text: &str, index: usize, ply: usize) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    let t = Places::new(text);
    let replayed = match referee::moves::record_moves(text, index, options(games)) {
        Ok(r) => r,
        Err(e) => return failure(&t, e).to_string(),
    };
    let plies = replayed.moves.len();
    let next = moves_at(games, text, index, ply, &replayed);
    let moves: Vec<Value> = next.iter().map(|m| json!({ "text": m.written, "cells": m.cells })).collect();
    json!({
        "ok": true,
        "plies": plies,
        "over": replayed.over && ply >= plies,
        "illegal": replayed.illegal.is_some() && ply >= plies,
        "moves": moves,
    })
    .to_string()
}

/// The moves that may be played after the first `ply` moves of record `index` of `text`, whose
/// replay is `replayed`: those it found at its end when `ply` is past its last move.
fn moves_at<S: Games>(
    games: S,
    text: &str,
    index: usize,
    ply: usize,
    replayed: &referee::moves::RecordMoves,
) -> Vec<referee::moves::NextMove> {
    match ply < replayed.moves.len() {
        true => referee::moves::moves_after(text, index, ply, options(games)).unwrap_or_default(),
        false => replayed.next.clone(),
    }
}

/// Record `index` of `text` with the move written `written` played after its first `ply` moves,
/// if the position there allows it ([`referee::moves::play_move`]): at the record's end, the move
/// written there; earlier, a variation after the move it replaces (the record's own move there is
/// only stepped to: `same`). `{"ok": true, "text": ..., "at": place of the move}`, in the record's
/// own notation, layout and numbering; else why not.
pub fn play_move_in<S: Games>(games: S, text: &str, index: usize, ply: usize, written: &str) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    match referee::moves::play_move(text, index, ply, written, options(games)) {
        Ok(played) if played.same => json!({ "ok": true, "same": true }),
        Ok(played) => json!({ "ok": true, "edit": edit_json(text, &played.text), "at": Places::new(&played.text).place(&played.token) }),
        Err(message) => json!({ "ok": false, "message": message }),
    }
    .to_string()
}

/// A size or a number of players the page sends: 0 for the game's default.
fn given(n: u8) -> Option<u8> {
    (n > 0).then_some(n)
}

/// The game of `games` named `game`, or the page's answer that there is none.
fn about_named<S: Games>(games: S, game: &str) -> Result<&'static referee::game::About, String> {
    games
        .abouts()
        .into_iter()
        .find(|a| a.name == game)
        .ok_or_else(|| json!({ "ok": false, "message": format!("no game is named {game}") }).to_string())
}

/// Record `index` of `text` with the comment `comment` said of its move `ply` (1 for the first of
/// its main line), in its notation ([`referee::moves::comment_move`]): `{"ok": true, "text": ...,
/// "at": place of the comment's text}`, or why not.
pub fn comment_move_in<S: Games>(games: S, text: &str, index: usize, ply: usize, comment: &str) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    match referee::moves::comment_move(text, index, ply, comment, options(games)) {
        Ok((out, span)) => json!({ "ok": true, "at": Places::new(&out).place(&span), "edit": edit_json(text, &out) }),
        Err(message) => json!({ "ok": false, "message": message }),
    }
    .to_string()
}

/// A new record of the game named `game`, one of `games`, with no move yet: on a board of `size`
/// and for `players` players (0: the game's default). `{"ok": true, "text": ...}`, or why the
/// game has no such start.
pub fn new_record_in<S: Games>(games: S, game: &str, size: u8, players: u8) -> String {
    let about = match about_named(games, game) {
        Ok(about) => about,
        Err(refused) => return refused,
    };
    match referee::random::new_record_in(games, about, given(size), given(players)) {
        Ok(text) => json!({ "ok": true, "text": text }),
        Err(message) => json!({ "ok": false, "message": message }),
    }
    .to_string()
}

/// The board to set a start of the game named `game` up on, of `size` and `players` (0: the
/// game's default): `{"ok": true, "cells": [labels in reading order], "start": [what each shows
/// at the start], "glyphs": [what a cell may show, the empty cell's first], "diagram": the start
/// as a text diagram}`, or why the game has no such start.
pub fn setup_board_in<S: Games>(games: S, game: &str, size: u8, players: u8) -> String {
    let about = match about_named(games, game) {
        Ok(about) => about,
        Err(refused) => return refused,
    };
    let board = match referee::random::setup_board_in(games, about, given(size), given(players)) {
        Ok(board) => board,
        Err(message) => return json!({ "ok": false, "message": message }).to_string(),
    };
    let start: Vec<&str> = board.start.iter().map(String::as_str).collect();
    let diagram = referee::random::setup_record_in(games, about, given(size), given(players), &start)
        .ok()
        .and_then(|text| referee::moves::record_moves(&text, 1, options(games)).ok())
        .map(|r| r.start);
    json!({ "ok": true, "cells": board.cells, "start": board.start, "glyphs": board.glyphs, "diagram": diagram })
        .to_string()
}

/// A record of the game named `game`, with no move yet, that starts from the position whose
/// cells show `cells` (a JSON array of glyphs, in reading order): `{"ok": true, "text": ...}`, or
/// why the game cannot have that position.
pub fn setup_record_of<S: Games>(games: S, game: &str, size: u8, players: u8, cells: &str) -> String {
    let about = match about_named(games, game) {
        Ok(about) => about,
        Err(refused) => return refused,
    };
    let Ok(cells) = serde_json::from_str::<Vec<String>>(cells) else {
        return json!({ "ok": false, "message": "the cells are not a list of glyphs" }).to_string();
    };
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    match referee::random::setup_record_in(games, about, given(size), given(players), &cells) {
        Ok(text) => json!({ "ok": true, "text": text }),
        Err(message) => json!({ "ok": false, "message": message }),
    }
    .to_string()
}

/// A record of the game named `game`, with no move yet, that starts from the position `code`
/// gives (the side to move, marks, a turn under way: any position of the game): `{"ok": true,
/// "text": ..., "cells": [what each cell shows, in reading order]}`, or why the code gives none.
pub fn code_record_of<S: Games>(games: S, game: &str, code: &str) -> String {
    let about = match about_named(games, game) {
        Ok(about) => about,
        Err(refused) => return refused,
    };
    match referee::random::code_record_in(games, about, code) {
        Ok((text, cells)) => json!({ "ok": true, "text": text, "cells": cells }),
        Err(message) => json!({ "ok": false, "message": message }),
    }
    .to_string()
}

thread_local! {
    /// The pictures last drawn, with the text and record they are of: stepping through a game
    /// asks for one board after another of the same record.
    static PICTURES: RefCell<Option<(String, usize, Pictures)>> = const { RefCell::new(None) };
}

/// `work` with the pictures of record `index` of `text`, drawn once per text and record.
fn with_pictures<S: Games, T>(
    games: S,
    text: &str,
    index: usize,
    work: impl FnOnce(&Pictures) -> T,
) -> Result<T, (Range<usize>, String)> {
    PICTURES.with(|cell| {
        let mut cached = cell.borrow_mut();
        let fresh = !matches!(&*cached, Some((t, i, _)) if t == text && *i == index);
        if fresh {
            *cached = None;
            *cached = Some((text.to_string(), index, pictures(text, index, options(games))?));
        }
        match &*cached {
            Some((_, _, p)) => Ok(work(p)),
            None => Err((0..0, "no pictures".to_string())),
        }
    })
}

fn failure(t: &Places, (span, message): (Range<usize>, String)) -> Value {
    json!({ "ok": false, "message": message, "at": t.place(&span) })
}

/// A problem's message as the page's user reads it: advice given in the command line's flags is
/// left out where the page has no such control (it reads each record as its `[Game]` tag says).
fn page_words(message: &str) -> String {
    message.replace(", or name the game with --game", "")
}

/// Frame `f` of a line of play, as [`positions_in`] gives it.
fn frame_json(t: &Places, line: &Line, f: usize) -> Option<Value> {
    let scene = line.frame(f)?;
    let glyphs: Vec<Value> =
        glyph_words(&scene.glyphs).into_iter().map(|(g, meaning)| json!({ "glyph": g, "meaning": meaning })).collect();
    Some(json!({
        "ply": scene.ply,
        "caption": scene.caption().join("\n"),
        "move": line.token(f).map(|s| t.place(s)),
        "illegal": f == line.scenes.len(),
        // At the stop: whether its token writes no move at all (a syntax error), not an illegal one.
        "syntax": f == line.scenes.len() && scene.syntax,
        "glyphs": glyphs,
        "comments": line.said(f..=f),
    }))
}

/// The frames of a line of play, as [`positions_in`] gives them.
fn frames_json(t: &Places, line: &Line) -> Vec<Value> {
    (0..line.len()).filter_map(|f| frame_json(t, line, f)).collect()
}

/// The positions of record `index` (1-based) of `text`, as frames: the start, the position after
/// each move (the place of its token), then, when the record has an illegal move, the error
/// diagram (`illegal: true`: the position before that move, with the move in red). Each frame
/// gives the glyphs of the move that led there (`{"glyph": "!?", "meaning": "an interesting
/// move"}`) and the comments said of it, without the markup the board draws.
///
/// `variations` holds the record's variations that are drawn (grammar.md, "Comments, glyphs and
/// variations"), in the order they open: each its `line` (what [`line_board`] asks for), the line
/// it branches `from` (0: the main line) and the frame there it branches `at` (the position before
/// the move it replaces), its `name` (`1... a1a2`), its place, its frames as the main line's (its
/// frame 0 the position it branches from), each with its position `code`, and `illegal`, why its
/// illegal move is illegal when it stops at one. `note` says how many variations are not drawn,
/// when the record has more than the pictures of a record hold ([`referee::picture::MAX_VARIATION_SCENES`]).
pub fn positions_in<S: Games>(games: S, text: &str, index: usize) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    let t = Places::new(text);
    let drawn = with_pictures(games, text, index, |p| {
        let variations: Vec<Value> = p
            .variations
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let line = p.line(i + 1)?;
                let mut frames = frames_json(&t, &line);
                // The error diagram shows the position of the frame before it.
                for (frame, code) in frames.iter_mut().zip(b.codes.iter().chain(b.codes.last())) {
                    frame["code"] = Value::from(code.as_str());
                }
                Some(json!({
                    "line": i + 1,
                    "from": b.from,
                    "at": b.at,
                    "name": b.name,
                    "place": t.place(&b.span),
                    "frames": frames,
                    "illegal": b.error.as_ref().map(|(scene, _)| scene.illegal.clone()),
                }))
            })
            .collect();
        let main = p.line(0).map(|line| frames_json(&t, &line)).unwrap_or_default();
        json!({
            "ok": true,
            "game": p.game.name,
            "title": p.game.title,
            "at": t.place(&p.span),
            "frames": main,
            "variations": variations,
            "note": p.undrawn_note(),
        })
    });
    drawn.unwrap_or_else(|e| failure(&t, e)).to_string()
}

/// The SVG of frame `frame` of record `index` of `text` (numbered as [`positions_in`] gives them),
/// drawn by the project's renderer `width` pixels wide, with its caption under the board when
/// `caption`; empty when there is no such frame.
pub fn board_in<S: Games>(
    games: S,
    text: &str,
    index: usize,
    frame: usize,
    width: u32,
    caption: bool,
    dark: bool,
) -> String {
    line_board_in(games, text, index, 0, frame, width, caption, dark)
}

/// [`board_in`] of line `line` of the record: 0 its main line, `k` its variation `k` as
/// [`positions_in`] numbers them; empty when there is no such line or frame.
#[allow(clippy::too_many_arguments)]
pub fn line_board_in<S: Games>(
    games: S,
    text: &str,
    index: usize,
    line: usize,
    frame: usize,
    width: u32,
    caption: bool,
    dark: bool,
) -> String {
    if too_large(text).is_some() {
        return String::new();
    }
    // The page's dark theme draws the board in referee's dark style.
    let style = if dark { StyleName::Dark } else { StyleName::Light };
    let options = SvgOptions { width, caption, style, ..SvgOptions::default() };
    with_pictures(games, text, index, |p| {
        p.line(line).and_then(|l| l.frame(frame)).map(|s| svg(s, &options)).unwrap_or_default()
    })
    .unwrap_or_default()
}

/// The position code of record `index` of `text` after `ply` moves: `{"ok": true, "code": ...,
/// "note": ...}`, the note saying when that position could not be reached.
pub fn position_code_in<S: Games>(games: S, text: &str, index: usize, ply: usize) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    let t = Places::new(text);
    match verify::position_code(text, index, Some(ply), options(games)) {
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
pub fn convert_in<S: Games>(games: S, text: &str, index: usize) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    let result = convert::document(text, index, options(games))
        .and_then(|doc| Ok((convert::canonical_in(&doc, games)?, convert::to_json(&doc))));
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

fn candidate_json<S: Games>(games: S, t: &Places, text: &str, record: &Range<usize>, c: &Candidate) -> Value {
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
    let verified = referee::verify_source(&record_text, options(games));
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
        "claims": c.claims.iter().map(|k| json!({ "text": k.text, "status": k.status.name(), "detail": claim_detail(k) })).collect::<Vec<_>>(),
        "stands": stands(c),
        "verifies": verifies,
        "edit": edit_json(text, &whole),
    })
}

/// `text` with the edit of an answer made (`{"from", "to", "inserted"}`, UTF-16 offsets), as the
/// page makes it: for the tests and the fuzz target.
#[cfg(any(test, feature = "page"))]
#[doc(hidden)]
pub fn with_edit(text: &str, edit: &Value) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    let at = |k: &str| (edit[k].as_u64().expect("an offset") as usize).min(units.len());
    let inserted: Vec<u16> = edit["inserted"].as_str().expect("the text put in").encode_utf16().collect();
    let out: Vec<u16> = [&units[..at("from")], &inserted[..], &units[at("to")..]].concat();
    String::from_utf16(&out).expect("an edit at character boundaries")
}

/// The one edit that makes `old` into `new`, as the page makes it in its editor: `{"from": ...,
/// "to": ..., "inserted": ...}`, UTF-16 offsets of `old` and the text put there. An answer of a
/// text of megabytes holds the few characters a move, a comment or a repair changes, not the
/// whole text again (which the page parsed on its own thread: 50 ms for a repair of a 5 MB text).
fn edit_json(old: &str, new: &str) -> Value {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let most = a.len().min(b.len()) - start;
    let mut same = a.iter().rev().zip(b.iter().rev()).take(most).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(a.len() - same) || !new.is_char_boundary(b.len() - same) {
        same -= 1;
    }
    let t = Places::new(old);
    let place = t.place(&(start..a.len() - same));
    json!({ "from": place.from, "to": place.to, "inserted": &new[start..b.len() - same] })
}

/// The best repairs of record `index` of `text`, best first, each with its edits (kind, tokens
/// before and after, place), what the record then says, whether its text then verifies as valid,
/// and the one edit of the text that makes the repair (`edit`: see `edit_json`).
pub fn repairs_in<S: Games>(games: S, text: &str, index: usize) -> String {
    // No time limit: a browser's WebAssembly has no clock; the positions bound the search.
    repairs_within(games, text, index, RepairOptions { time_limit: None, ..RepairOptions::default() })
}

/// [`repairs_in`], searched within `repair`'s bounds.
pub(crate) fn repairs_within<S: Games>(games: S, text: &str, index: usize, repair: RepairOptions) -> String {
    if let Some(refused) = refused(text) {
        return refused;
    }
    let t = Places::new(text);
    let found = match repair_source(text, options(games), repair, Some(index)) {
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
            "candidates": s.candidates.iter().map(|c| candidate_json(games, &t, text, &record, c)).collect::<Vec<_>>(),
        })
    });
    json!({ "ok": true, "status": status_name(r.verdict.status), "stands": r.stands(), "search": search }).to_string()
}

/// The page's functions, exported to JavaScript for the records of `$games` (an expression of a
/// type that implements [`Games`]): `judge`, `judge_edit`, `judged_verdicts`, `judge_search`,
/// `verify`, `games`, `new_record`, `setup_board`, `setup_record`, `code_record`, `next_moves`, `play_move`,
/// `comment_move`, `positions`, `board`, `line_board`, `position_code`, `convert`, `repairs`, and
/// `refusal`, `limits` and `trap`, which know no game.
/// This crate exports them for the games of the registry (its feature `page`, on by default); a
/// crate that defines a game of its own builds the same page with its game added by calling
/// `referee_web::page!(Registry.and::<MyGame>())` in a `cdylib` of its own, with this crate's
/// default features off and `wasm-bindgen` among its dependencies (`web/own_game/` in the
/// repository; `web/build.sh web/own_game` builds its page).
#[macro_export]
macro_rules! page {
    ($games:expr) => {
        fn __games() -> impl $crate::Games {
            #[allow(unused_imports)]
            use $crate::Games as _;
            $games
        }

        /// See [`referee_web::refusal_of`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn refusal(what: &str, bytes: usize) -> String {
            $crate::refusal_of(what, bytes)
        }

        /// See [`referee_web::limits_json`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn limits() -> String {
            $crate::limits_json()
        }

        /// See [`referee_web::trap_now`].
        #[doc(hidden)]
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn trap() {
            $crate::trap_now()
        }

        /// See [`referee_web::verify_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn verify(text: &str) -> String {
            $crate::verify_in(__games(), text)
        }

        /// See [`referee_web::judge_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn judge(text: &str) -> String {
            $crate::judge_in(__games(), text)
        }

        /// See [`referee_web::judge_edit_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn judge_edit(from: usize, to: usize, inserted: &str) -> String {
            fn of<S: $crate::Games>(_: S, from: usize, to: usize, inserted: &str) -> String {
                $crate::judge_edit_in::<S>(from, to, inserted)
            }
            of(__games(), from, to, inserted)
        }

        /// See [`referee_web::judged_verdicts_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn judged_verdicts(from: usize, upto: usize) -> String {
            fn of<S: $crate::Games>(_: S, from: usize, upto: usize) -> String {
                $crate::judged_verdicts_in::<S>(from, upto)
            }
            of(__games(), from, upto)
        }

        /// See [`referee_web::judge_search_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn judge_search() -> String {
            fn of<S: $crate::Games>(_: S) -> String {
                $crate::judge_search_in::<S>()
            }
            of(__games())
        }

        /// See [`referee_web::games_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn games() -> String {
            $crate::games_in(__games())
        }

        /// See [`referee_web::new_record_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn new_record(game: &str, size: u8, players: u8) -> String {
            $crate::new_record_in(__games(), game, size, players)
        }

        /// See [`referee_web::setup_board_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn setup_board(game: &str, size: u8, players: u8) -> String {
            $crate::setup_board_in(__games(), game, size, players)
        }

        /// See [`referee_web::setup_record_of`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn setup_record(game: &str, size: u8, players: u8, cells: &str) -> String {
            $crate::setup_record_of(__games(), game, size, players, cells)
        }

        /// See [`referee_web::code_record_of`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn code_record(game: &str, code: &str) -> String {
            $crate::code_record_of(__games(), game, code)
        }

        /// See [`referee_web::next_moves_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn next_moves(text: &str, index: usize, ply: usize) -> String {
            $crate::next_moves_in(__games(), text, index, ply)
        }

        /// See [`referee_web::play_move_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn play_move(text: &str, index: usize, ply: usize, written: &str) -> String {
            $crate::play_move_in(__games(), text, index, ply, written)
        }

        /// See [`referee_web::comment_move_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn comment_move(text: &str, index: usize, ply: usize, comment: &str) -> String {
            $crate::comment_move_in(__games(), text, index, ply, comment)
        }

        /// See [`referee_web::positions_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn positions(text: &str, index: usize) -> String {
            $crate::positions_in(__games(), text, index)
        }

        /// See [`referee_web::board_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn board(text: &str, index: usize, frame: usize, width: u32, caption: bool, dark: bool) -> String {
            $crate::board_in(__games(), text, index, frame, width, caption, dark)
        }

        /// See [`referee_web::line_board_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        #[allow(clippy::too_many_arguments)]
        pub fn line_board(
            text: &str,
            index: usize,
            line: usize,
            frame: usize,
            width: u32,
            caption: bool,
            dark: bool,
        ) -> String {
            $crate::line_board_in(__games(), text, index, line, frame, width, caption, dark)
        }

        /// See [`referee_web::position_code_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn position_code(text: &str, index: usize, ply: usize) -> String {
            $crate::position_code_in(__games(), text, index, ply)
        }

        /// See [`referee_web::convert_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn convert(text: &str, index: usize) -> String {
            $crate::convert_in(__games(), text, index)
        }

        /// See [`referee_web::repairs_in`].
        #[$crate::wasm_bindgen::prelude::wasm_bindgen]
        pub fn repairs(text: &str, index: usize) -> String {
            $crate::repairs_in(__games(), text, index)
        }
    };
}

#[cfg(feature = "page")]
page!(referee::judge::Registry);

#[cfg(test)]
mod tests {
    use super::*;
    use referee::judge::Registry;

    const QUAROD: &str = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";
    const BROKEN: &str = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n";

    fn parse(s: String) -> Value {
        serde_json::from_str(&s).expect("every answer is JSON")
    }

    #[test]
    fn a_new_record_of_any_game_verifies_and_a_start_it_has_not_is_refused() {
        for game in parse(games()).as_array().expect("a list") {
            let name = game["name"].as_str().expect("a name");
            let made = parse(new_record(name, 0, 0));
            let text = made["text"].as_str().unwrap_or_else(|| panic!("{name}: {made}"));
            assert_eq!(parse(verify(text))["records"][0]["status"], "valid", "{text}");
        }
        assert_eq!(parse(new_record("quarod", 6, 0))["text"], "[Game \"Quarod\"]\n[Size \"6\"]\n\n*\n");
        let refused = parse(new_record("petrify", 5, 0));
        assert_eq!(
            (refused["ok"].as_bool(), refused["message"].as_str()),
            (Some(false), Some("Petrify is played on square boards from 6x6 to 10x10, not 5x5"))
        );
        assert_eq!(parse(new_record("chess", 0, 0))["message"], "no game is named chess");
    }

    /// The board editor's board and the record of a start set up on it, and a start refused.
    #[test]
    fn a_start_set_up_is_written_as_a_record_or_refused_with_its_reason() {
        let board = parse(setup_board("petrify", 6, 0));
        assert_eq!(board["glyphs"][0], ".");
        let mut cells: Vec<String> =
            board["start"].as_array().expect("start").iter().map(|g| g.as_str().unwrap().to_string()).collect();
        assert_eq!(cells.len(), 36);
        assert!(board["diagram"].as_str().expect("a diagram").contains("1."), "{board}");
        cells[0] = "B".into();
        let set = parse(setup_record("petrify", 6, 0, &serde_json::to_string(&cells).unwrap()));
        let text = set["text"].as_str().expect("a record");
        assert!(text.starts_with("[Game \"Petrify\"]\n[Size \"6\"]\n"), "{text}");
        assert_eq!(parse(verify(text))["records"][0]["status"], "valid");
        cells[0] = "x".into();
        let refused = parse(setup_record("quadraphages", 9, 0, &serde_json::to_string(&vec!["x"; 81]).unwrap()));
        assert_eq!(refused["ok"], false);
        assert!(refused["message"].as_str().unwrap().contains("a start diagram shows only stones"), "{refused}");
        assert_eq!(parse(setup_record("petrify", 6, 0, "not json"))["message"], "the cells are not a list of glyphs");
        // Any position by its code: here White to move.
        let coded = parse(code_record("quarod", "quarod_4/4/4/4_w_0_0_-_b"));
        assert_eq!(coded["text"], "[Game \"Quarod\"]\n[Size \"4\"]\n[Position \"quarod_4/4/4/4_w_0_0_-_b\"]\n\n*\n");
        assert!(parse(code_record("quarod", "quarod_"))["message"].as_str().unwrap().contains("at character"));
    }

    #[test]
    fn the_next_moves_are_offered_and_one_played_is_written_in_the_record_s_numbering() {
        let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 *\n";
        let next = parse(next_moves(text, 1, 1));
        assert_eq!(next["over"].as_bool(), Some(false));
        let moves = next["moves"].as_array().expect("moves");
        let d3c3 = moves.iter().find(|m| m["text"] == "d3c3").expect("d3c3 is legal");
        assert_eq!(d3c3["cells"], json!(["d3", "c3"]));
        let answer = parse(play_move(text, 1, 1, "d3c3"));
        // Only what changed comes back: the move and its space.
        assert_eq!(answer["edit"], json!({ "from": 36, "to": 36, "inserted": "d3c3 " }));
        let played = with_edit(text, &answer["edit"]);
        assert_eq!(played, "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 *\n");
        assert_eq!((answer["at"]["line"].as_u64(), answer["at"]["column"].as_u64()), (Some(4), Some(9)));
        assert_eq!(parse(verify(&played))["records"][0]["status"], "valid");
        let refused = parse(play_move(text, 1, 1, "c1d1"));
        assert!(
            refused["message"].as_str().expect("why").starts_with("c1d1 is not a legal move here; legal: "),
            "{refused}"
        );
        // The published notation: a number, then the stones' steps, on the record's line.
        let new = "QUADRAPHAGES\n_xx_ _oo_\n1. .... ....\n";
        let numbers = parse(next_moves(new, 1, 0));
        assert_eq!(numbers["moves"][0], json!({ "text": "1", "cells": [] }));
        let announced = parse(play_move(new, 1, 0, "5"));
        let announced = with_edit(new, &announced["edit"]);
        assert_eq!(announced, "QUADRAPHAGES\n_xx_ _oo_\n1. .... .... 5\n");
        assert_eq!(parse(verify(&announced))["records"][0]["status"], "valid");
        // A comment said of a move, after it; one the notation cannot hold, refused.
        let said = parse(comment_move(text, 1, 1, "the usual opening"));
        assert_eq!(
            with_edit(text, &said["edit"]),
            "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 {the usual opening} *\n"
        );
        assert_eq!(parse(comment_move(text, 1, 1, "a }"))["ok"], false);
        // At an earlier point: the record's own move is stepped to, another is a variation.
        let two = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 *\n";
        assert_eq!(parse(play_move(two, 1, 1, "d3c3"))["same"].as_bool(), Some(true));
        let varied = parse(play_move(two, 1, 1, "b4a4"));
        let varied = with_edit(two, &varied["edit"]);
        assert_eq!(varied, "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 (1... b4a4) *\n");
        assert_eq!(parse(verify(&varied))["records"][0]["status"], "valid");
    }

    #[test]
    fn messages_name_no_command_line_flag() {
        let v = parse(verify("[Size \"4\"]\n\n1. c1d1 d3c3 *\n"));
        let message = v["records"][0]["problems"][0]["message"].as_str().expect("a problem").to_string();
        assert_eq!(message, "the record has no [Game \"...\"] tag: add one, such as [Game \"Quarod\"]");
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

    /// Apply writes a repair's text in place of the text: every comment, glyph, variation and line
    /// of prose around and inside the record stays as written, and only the repaired token changes.
    #[test]
    fn a_repair_keeps_what_the_writer_wrote() {
        let record =
            "[Game \"Quarod\"]\n[Size \"4\"]\n\n{before} 1. c1d1!? {first} (1. d1d2 {or}) c1d1 ; taken\n* {after}\n";
        let text = format!("Prose before.\n{record}Prose after.\n");
        let r = parse(repairs(&text, 1));
        let fixed = with_edit(&text, &r["search"]["candidates"][0]["edit"]);
        for kept in
            ["Prose before.\n", "{before} 1. ", "!? {first} (1. d1d2 {or}) c1d1 ; taken\n* {after}\n", "Prose after.\n"]
        {
            assert!(fixed.contains(kept), "{kept:?} is lost:\n{fixed}");
        }
        assert_eq!(fixed.len(), text.len(), "one move for another of the same length:\n{fixed}");
    }

    #[test]
    fn positions_end_with_the_error_diagram_and_each_frame_draws() {
        let p = parse(positions(BROKEN, 1));
        let frames = p["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 3, "start, c1d1, then the error diagram");
        assert_eq!(frames[2]["illegal"], true);
        assert!(board(BROKEN, 1, 2, 300, true, false).starts_with("<svg"));
        // The page's dark theme: the board in referee's dark style.
        assert!(board(BROKEN, 1, 2, 300, true, true).contains("style-dark"));
        assert_eq!(board(BROKEN, 1, 3, 300, true, false), "");
        assert_eq!(parse(positions(BROKEN, 2))["ok"], false);
    }

    /// A comment before the first move, glyphs, a variation with one in it, comments and markup in
    /// both, and a variation stopped by an illegal move.
    const ANNOTATED: &str = "[Game \"Quarod\"]\n[Size \"4\"]\n\n{Before <it>. [%mark b2]}\n\
                             1. d1d2!? {good [%arrow d1d2]} a2a3 (1... a1a2 {quiet [%mark a1 blue]} 2. b1b2 $14 \
                             (2. c1c2 {also [%label b3 \"B\"]})) (1... b1b2 2. d2d3) 2. c3d3 *\n";

    #[test]
    fn positions_give_comments_glyphs_and_the_variations_with_their_frames() {
        let p = parse(positions(ANNOTATED, 1));
        let frames = p["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 4);
        assert_eq!(frames[0]["comments"], json!(["Before <it>."]));
        assert_eq!(frames[1]["comments"], json!(["good"]));
        assert_eq!(frames[1]["glyphs"], json!([{ "glyph": "!?", "meaning": "an interesting move" }]));
        assert_eq!(frames[2]["comments"], json!([]));
        let variations = p["variations"].as_array().unwrap();
        let summary: Vec<(u64, u64, u64, &str, usize)> = variations
            .iter()
            .map(|v| {
                let n = |k: &str| v[k].as_u64().unwrap();
                (n("line"), n("from"), n("at"), v["name"].as_str().unwrap(), v["frames"].as_array().unwrap().len())
            })
            .collect();
        assert_eq!(summary, [(1, 0, 1, "1... a1a2", 3), (2, 1, 1, "2. c1c2", 2), (3, 0, 1, "1... b1b2", 3)]);
        let first = &variations[0]["frames"];
        assert_eq!(first[0]["code"], "quarod_3S/3n/4/4_w_1_0_-_b", "the position it branches from");
        assert_eq!(first[1]["comments"], json!(["quiet"]));
        assert_eq!(first[2]["glyphs"][0]["glyph"], "$14");
        let stopped = &variations[2];
        assert_eq!(stopped["frames"][2]["illegal"], true);
        assert_eq!(stopped["illegal"], "d2d3: d2 is not empty");
        assert_eq!(stopped["frames"][2]["code"], stopped["frames"][1]["code"], "the position before the illegal move");
        let at = &stopped["frames"][2]["move"];
        assert_eq!(
            &ANNOTATED[at["bytes"][0].as_u64().unwrap() as usize..at["bytes"][1].as_u64().unwrap() as usize],
            "d2d3"
        );
        // Each line's boards, with their markup; none past a line's frames or lines.
        assert!(line_board(ANNOTATED, 1, 0, 1, 300, false, false).contains("markup arrow"));
        assert!(line_board(ANNOTATED, 1, 1, 1, 300, false, false).contains("markup mark"));
        assert!(line_board(ANNOTATED, 1, 2, 1, 300, false, false).contains("markup label"));
        assert!(line_board(ANNOTATED, 1, 3, 2, 300, false, false).contains("sign illegal"));
        assert_eq!(line_board(ANNOTATED, 1, 3, 3, 300, false, false), "");
        assert_eq!(line_board(ANNOTATED, 1, 4, 0, 300, false, false), "");
        assert_eq!(board(ANNOTATED, 1, 1, 300, false, false), line_board(ANNOTATED, 1, 0, 1, 300, false, false));
    }

    #[test]
    fn every_entry_point_takes_an_annotated_record() {
        for pick in [0u8, 1, 2, 7] {
            assert!(crate::fuzz::entry_points(&[&[1, pick], ANNOTATED.as_bytes()].concat()) > 10);
        }
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
        assert!(verify(&with_edit(BROKEN, &best["edit"])).contains("\"status\":\"valid\""));
    }

    /// Ten records of the largest Quarod board that each claim a result two moves in: the link of
    /// issue 31 that froze the page for a minute.
    pub(crate) fn hopeless_claims() -> String {
        "[Game \"Quarod\"]\n[Size \"26\"]\n\n1. c1d1 d3c3 1-0\n\n".repeat(10)
    }

    #[test]
    fn claims_past_the_page_s_search_bounds_say_so_and_send_the_reader_to_the_cli() {
        let v = parse(verify(&hopeless_claims()));
        let records = v["records"].as_array().unwrap();
        assert_eq!(records.len(), 10);
        let details: Vec<&str> = records.iter().map(|r| r["claims"][0]["detail"].as_str().unwrap()).collect();
        for (r, detail) in records.iter().zip(&details) {
            assert_eq!(r["claims"][0]["status"], "unchecked");
            assert_eq!(r["claims"][0]["reason"], "search_limit");
            assert!(!detail.contains("--search-limit"), "the page cannot raise a bound: {detail}");
            assert!(
                detail.ends_with("open it in the CLI (`referee verify`, 250000 positions a claim) to search further")
            );
        }
        // The first four claims use up the text's budget, each stopped by its own bound; the others
        // are not searched.
        let stopped = format!("stopped at {SEARCH_PER_CLAIM} positions");
        assert!(details[..4].iter().all(|d| d.contains(&stopped)), "{details:#?}");
        let spent = format!("this text's searches have used up their budget of {SEARCH_PER_TEXT} positions: the page");
        assert!(details[4..].iter().all(|d| d.contains(&spent)), "{details:#?}");
    }

    #[test]
    fn a_memory_bound_s_advice_is_the_page_s_too() {
        let c = ClaimCheck {
            detail: "the record stops before the game is over; the search of every continuation stopped at 458752 \
                     positions / 174 MiB, as its table would grow to 311 MiB, past its memory ceiling of 192 MiB, \
                     whatever --search-limit says"
                .into(),
            ..parse_claim()
        };
        let detail = claim_detail(&c);
        assert!(detail.contains("past its memory ceiling of 192 MiB: the page searches at most"), "{detail}");
        assert!(!detail.contains("--search-limit"), "{detail}");
    }

    /// A claim the replay confirms, as a model to change.
    fn parse_claim() -> ClaimCheck {
        let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 1-0\n";
        let v = referee::verify_source(text, options(Registry));
        v[0].claims[0].clone()
    }

    #[test]
    fn a_text_past_the_limit_is_refused_by_every_function() {
        let text = format!("{QUAROD}\n{}", " ".repeat(MAX_TEXT));
        let v = parse(verify(&text));
        assert_eq!(v["refused"], true);
        assert_eq!(v["records"].as_array().unwrap().len(), 0);
        let note = v["note"].as_str().unwrap();
        assert!(
            note.starts_with("This text is 8,388,665 bytes: the page judges texts of up to 8 MiB (8,388,608 bytes)"),
            "{note}"
        );
        assert!(note.contains("`referee verify FILE` judges files of any size"), "{note}");
        for answer in [positions(&text, 1), position_code(&text, 1, 0), convert(&text, 1), repairs(&text, 1)] {
            let answer = parse(answer);
            assert_eq!(answer["ok"], false);
            assert_eq!(answer["message"], note);
        }
        assert_eq!(board(&text, 1, 0, 300, false, false), "");
        // What the page says of a file before it opens it.
        assert_eq!(refusal("game.txt", MAX_TEXT), "");
        assert!(refusal("game.txt", 9_000_005).starts_with("game.txt is 9,000,005 bytes: the page judges"));
        // At the limit, it is judged.
        let text = format!("{QUAROD}{}", " ".repeat(MAX_TEXT - QUAROD.len()));
        assert_eq!(parse(verify(&text))["records"][0]["status"], "valid");
    }

    #[test]
    fn verdicts_past_the_answer_s_limit_are_counted_not_shown() {
        let text = format!("{QUAROD}\n").repeat(10);
        let whole = verify_within(Registry, &text, MAX_ANSWER);
        let all = parse(whole);
        // Room for three verdicts and their commas, not four.
        let three: usize = all["records"].as_array().unwrap()[..3].iter().map(|r| r.to_string().len() + 1).sum();
        let v = parse(verify_within(Registry, &text, three));
        assert_eq!(v["records"].as_array().unwrap().len(), 3);
        assert_eq!(v["total"], 10);
        assert_eq!(v["refused"], false);
        let note = v["note"].as_str().unwrap();
        assert!(note.starts_with("The page shows the verdicts of the first 3 of these 10 records"), "{note}");
        assert_eq!(all["records"].as_array().unwrap().len(), 10);
        assert_eq!(all["total"], 10);
        assert_eq!(all["note"], Value::Null);
    }

    /// Each record's place after characters outside ASCII, many records in: the UTF-16 offsets
    /// point at the record's own text.
    #[test]
    fn places_stay_right_many_records_past_a_character_outside_ascii() {
        let text = format!("Parties notées à la main 𝄞\n\n{}", format!("{BROKEN}\n").repeat(300));
        let units: Vec<u16> = text.encode_utf16().collect();
        let v = parse(verify(&text));
        let records = v["records"].as_array().unwrap();
        assert_eq!(records.len(), 300);
        for r in records {
            let p = &r["problems"][0]["at"];
            let (from, to) = (p["from"].as_u64().unwrap() as usize, p["to"].as_u64().unwrap() as usize);
            assert_eq!(String::from_utf16(&units[from..to]).unwrap(), "c1d1");
            let at = &r["at"];
            let from = at["from"].as_u64().unwrap() as usize;
            assert_eq!(String::from_utf16(&units[from..from + 6]).unwrap(), "[Game ");
        }
    }
}
