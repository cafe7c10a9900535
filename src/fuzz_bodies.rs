//! The checks behind every fuzz target, shared by the cargo-fuzz targets in `fuzz/` (nightly,
//! libFuzzer) and the stable smoke test `tests/fuzz_smoke.rs`, so that CI runs the same checks a
//! long fuzzing run does. Each takes any bytes, as outside input arrives, and panics only when a
//! property fails: nothing referee is given may make it panic, and what it reads back must agree
//! with what it wrote.
//!
//! Not part of the library's interface: hidden from its documentation, and free to change.

use std::sync::Arc;

use crate::convert;
use crate::picture;
use crate::record::{self, Span};
use crate::render::model::Scene;
use crate::render::{html, svg};
use crate::repair::{self, RepairOptions};
use crate::report::{self, HumanStyle, Source};
use crate::verify::{self, verify_source, VerifyOptions};

/// Searches stay small, so that one input costs milliseconds, not the seconds a real claim may.
fn options(lenient: bool) -> VerifyOptions {
    VerifyOptions { lenient, search_limit: 2_000, ..VerifyOptions::default() }
}

/// Records of one input that the costlier targets (pictures, repair) look at: a fuzzer's input
/// with hundreds of records says nothing one with a few does not.
const RECORDS: usize = 4;

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Records of either notation, replayed strictly and leniently, and every report of them: every
/// problem is located inside the text, at a character boundary, and every report shows it (the
/// human report names its record, the JSON line lists each error with a line and column from 1,
/// the short format gives one `file:line:column:` line per problem). Returns how many problems
/// were found.
pub fn reader(data: &[u8]) -> usize {
    let text = Arc::new(text(data));
    let source = Source::new("fuzz.txt", text.clone());
    let mut problems = 0;
    for lenient in [false, true] {
        for v in verify_source(&text, options(lenient)) {
            for p in &v.problems {
                assert!(p.span.start <= p.span.end && p.span.end <= text.len(), "{p:?} outside the text");
                assert!(text.is_char_boundary(p.span.start), "{p:?} inside a character");
                problems += 1;
            }
            let human = report::human(&source, &v, HumanStyle::default());
            assert!(human.contains(&format!("record {}", v.index)), "{human}");
            let line = report::json_line(&source, &v);
            let json: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
            let errors = json["errors"].as_array().expect("errors");
            assert_eq!(errors.len(), v.problems.len(), "{line}");
            for e in errors {
                assert!(e["line"].as_u64().is_some_and(|l| l >= 1), "{e}");
                assert!(e["column"].as_u64().is_some_and(|c| c >= 1), "{e}");
            }
            let short = report::short_lines(&source, &v, false);
            assert_eq!(short.lines().count(), v.problems.len(), "one line per problem: {short}");
            for l in short.lines() {
                let mut parts = l.splitn(4, ':');
                assert_eq!(parts.next(), Some("fuzz.txt"), "{l}");
                for number in [parts.next(), parts.next()] {
                    assert!(number.and_then(|n| n.parse::<usize>().ok()).is_some_and(|n| n >= 1), "{l}");
                }
            }
        }
    }
    problems
}

/// A position code: one that reads is rewritten as a code that reads back the same, and an error
/// points inside the code. Returns whether it read.
pub fn code(data: &[u8]) -> bool {
    let code = text(data);
    if let Err(e) = crate::games::game_of(&code) {
        assert!(e.at <= code.len(), "{e:?}");
    }
    let Ok(again) = crate::perft::rewrite(&code) else { return false };
    assert_eq!(crate::perft::rewrite(&again).as_deref(), Ok(again.as_str()), "{code}");
    true
}

/// JSON game documents, as `convert --from json` reads them: a document that rereads (its game
/// written as a record and replayed) rereads again to the same canonical record. Returns how many
/// documents reread.
pub fn json(data: &[u8]) -> usize {
    let Ok(docs) = convert::read_json(&text(data)) else { return 0 };
    let mut read = 0;
    for doc in docs.iter().take(RECORDS) {
        let Ok(back) = convert::reread(doc) else { continue };
        let canonical = convert::canonical_of(&back).expect("a reread document has a canonical record");
        let again = convert::reread(&back).expect("a reread document rereads");
        assert_eq!(convert::canonical_of(&again).ok().as_deref(), Some(canonical.as_str()));
        read += 1;
    }
    read
}

/// The convert round trip: each record that replays, made a document, written as JSON and read
/// back, is the same document, and the record written from it, read again, gives the same
/// canonical text. Returns how many records made the round trip.
pub fn round_trip(data: &[u8]) -> usize {
    let text = text(data);
    let mut done = 0;
    for doc in convert::documents(&text, options(false)).flatten().take(RECORDS) {
        let canonical = convert::canonical_of(&doc).expect("a replayed record has a canonical text");
        let back = convert::read_json(&convert::to_json(&doc)).expect("the JSON it wrote reads back");
        assert_eq!(back.len(), 1, "{canonical}");
        assert_eq!(back[0], doc, "the JSON reads back as the document it was written from");
        let again = convert::reread(&back[0]).unwrap_or_else(|e| panic!("{e}: the canonical record\n{canonical}"));
        assert_eq!(convert::canonical_of(&again).ok().as_deref(), Some(canonical.as_str()));
        done += 1;
    }
    done
}

/// Layout (an editor's formatting): the edits replace records' spans, apart and in text order;
/// the text they make verifies as the text did, keeps its records' words but move numbers, and is
/// laid out already (laying it out again changes nothing). Returns how many records were laid
/// out.
pub fn layout(data: &[u8]) -> usize {
    let text = text(data);
    let options = options(false);
    let stop = crate::search::Stop::never();
    let edits = crate::layout::layout(&text, options, &stop).expect("never stopped");
    let mut laid = String::with_capacity(text.len());
    let mut at = 0;
    for (span, new) in &edits {
        assert!(at <= span.start && span.end <= text.len(), "{span:?} after {at}");
        laid.push_str(&text[at..span.start]);
        laid.push_str(new);
        at = span.end;
    }
    laid.push_str(&text[at..]);
    let said = |text: &str| -> Vec<(crate::verdict::Status, usize, Vec<String>)> {
        verify_source(text, options)
            .into_iter()
            .map(|v| (v.status, v.moves, v.problems.iter().map(|p| p.said().into_owned()).collect()))
            .collect()
    };
    assert_eq!(said(&laid), said(&text), "{text:?} laid out:\n{laid}");
    let again = crate::layout::layout(&laid, options, &stop).expect("never stopped");
    assert!(again.is_empty(), "laid out twice: {again:?} of\n{laid}");
    edits.len()
}

/// The pictures of every scene of a few records, as `show` and `render` draw them: the text
/// diagram and the code of each position, SVG in every style, the HTML replay page, and with
/// `raster` (and the `png` feature) a small PNG and a two-frame GIF. Returns how many scenes were
/// drawn.
///
/// Rasterising takes a second an input under the fuzzer's instrumentation, a hundred times the
/// rest: the fuzz target leaves it out, the smoke test keeps it.
pub fn pictures(data: &[u8], raster: bool) -> usize {
    let text = text(data);
    let options = options(false);
    let mut drawn = 0;
    for index in 1..=record::read(&text, None).count().min(RECORDS) {
        let Ok(p) = picture::pictures(&text, index, options) else { continue };
        let span = p.span.clone();
        assert!(span.end <= text.len() && !p.scenes.is_empty(), "{span:?}");
        let styles = [svg::StyleName::Light, svg::StyleName::Dark, svg::StyleName::Print];
        let mut frames = Vec::new();
        let turns = p.per_turn();
        let error = p.error.iter().map(|(scene, _)| scene);
        for (k, scene) in p.scenes.iter().chain(&turns).chain(error).enumerate() {
            let look = svg::SvgOptions {
                width: svg::MIN_WIDTH + (k as u32 % 3) * 100,
                style: styles[k % styles.len()],
                coordinates: k % 2 == 0,
                caption: k % 4 < 2,
            };
            let drawn_svg = svg::svg(scene, &look);
            assert!(drawn_svg.contains("<svg"), "{drawn_svg}");
            frames.push(html::Frame {
                svg: drawn_svg,
                caption: scene.caption().concat(),
                token: scene
                    .ply
                    .checked_sub(1)
                    .and_then(|m| p.moves.get(m))
                    .map(|s| s.start - span.start..s.end - span.start),
                illegal: false,
                ply: scene.ply,
                ..html::Frame::default()
            });
        }
        drawn += frames.len();
        for ply in [Some(0), Some(p.scenes.len() / 2), Some(p.scenes.len()), None] {
            let _ = verify::position_diagram(&text, index, ply, options);
            if let Ok((code, _)) = verify::position_code(&text, index, ply, options) {
                assert_eq!(
                    crate::perft::rewrite(code.trim()).as_deref(),
                    Ok(code.trim()),
                    "a drawn position's code reads back"
                );
            }
        }
        let illegal = p.error.as_ref().map(|(_, s)| html::IllegalMove {
            token: s.start - span.start..s.end - span.start,
            why: "illegal".to_string(),
            legal: vec!["a1".to_string()],
            legal_count: Some(2),
        });
        // Each variation's frames, with their comments, and where it branches.
        let within = |s: &Span| s.start - span.start..s.end - span.start;
        let variations: Vec<html::Variation> = (1..=p.variations.len())
            .map(|k| {
                let b = &p.variations[k - 1];
                let frames = p.line(k).map_or_else(Vec::new, |line| {
                    let frame = |f: usize, scene: &Scene| html::Frame {
                        svg: svg::svg(scene, &svg::SvgOptions::default()),
                        caption: scene.caption().concat(),
                        token: line.token(f).map(within),
                        illegal: f == line.scenes.len(),
                        ply: scene.ply,
                        glyphs: vec![(scene.glyphs.clone(), String::new())],
                        comments: line.said(f..=f).into_iter().map(String::from).collect(),
                    };
                    (0..line.len()).filter_map(|f| line.frame(f).map(|scene| frame(f, scene))).collect()
                });
                assert_eq!(b.drawn, !frames.is_empty(), "a variation drawn has frames");
                let illegal = b.error.as_ref().map(|(s, _)| s.illegal.clone().unwrap_or_default());
                html::Variation { from: b.from, at: b.at, name: b.name.clone(), frames, illegal }
            })
            .collect();
        drawn += variations.iter().map(|v| v.frames.len()).sum::<usize>();
        let page = html::page(&html::Page {
            title: format!("fuzz.txt, record {index}"),
            record: &text[span.clone()],
            frames,
            illegal,
            verdict: vec!["fuzzed".into()],
            variations,
        });
        assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
        #[cfg(feature = "png")]
        if raster {
            rasterise(&p);
        }
    }
    // Without the `png` feature there is nothing to rasterise.
    let _ = raster;
    drawn
}

/// The last scene as a small PNG, and the first and last as a GIF: rasterising is slow, so once a
/// record.
#[cfg(feature = "png")]
fn rasterise(p: &picture::Pictures) {
    use crate::render::{gif, png};
    let look = svg::SvgOptions { width: svg::MIN_WIDTH, ..svg::SvgOptions::default() };
    let last = svg::svg(p.scene(None), &look);
    png::png(&last).expect("a drawn scene rasterises");
    let first = svg::svg(&p.scenes[0], &look);
    // The animation is as large as its largest picture, as `render --format gif` makes it.
    let sizes = [&first, &last].map(|drawn| png::size(drawn).expect("a drawn scene has a size"));
    let (width, height) = (sizes[0].0.max(sizes[1].0), sizes[0].1.max(sizes[1].1));
    let mut animation = gif::Animation::new(Vec::new(), width, height, gif::Timing::default()).expect("a GIF");
    for (k, drawn) in [&first, &last].into_iter().enumerate() {
        let (w, h, pixels) = png::rgba(drawn).expect("a drawn scene rasterises");
        animation.frame(&gif::RgbaFrame { width: w, height: h, pixels }, k == 1).expect("a frame");
    }
    animation.finish().expect("the GIF ends");
}

/// `repair` and the text `repair --write` writes: the best repair of each record, made in the
/// text, never panics; and the file `--write` would write (each record replaced by what
/// [`repair::rewrite`] gives) holds as many records as the input, each repaired one valid where it
/// now stands. Returns how many records were repaired.
pub fn repair(data: &[u8]) -> usize {
    let text = text(data);
    let limits = RepairOptions {
        max_edits: 3,
        beam: 8,
        max_positions: 20_000,
        time_limit: None,
        shown: 1,
        ..RepairOptions::default()
    };
    let (mut written, mut at, mut repaired, mut seen) = (String::new(), 0, Vec::new(), 0);
    let each = |r: repair::RecordRepair| {
        seen += 1;
        let span = r.verdict.span.clone();
        if let Some(best) = r.search.as_ref().and_then(|s| s.candidates.first()) {
            let _ = repair::repaired_text(&text, &span, &best.changes);
        }
        if let repair::Rewrite::Repaired { text: fixed, .. } = repair::rewrite(&text, &r, options(false)) {
            written.push_str(&text[at..span.start]);
            repaired.push(written.len());
            written.push_str(&fixed);
            at = span.end;
        }
        if seen == RECORDS {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    if repair::repair_each(&text, options(false), limits, None, each).is_err() || repaired.is_empty() {
        return 0;
    }
    written.push_str(&text[at..]);
    let before = verify_source(&text, options(false)).len();
    let after = verify_source(&written, options(false));
    assert_eq!(after.len(), before, "--write changed the number of records:\n{written}");
    for start in &repaired {
        let again = after.iter().find(|v| v.span.start == *start);
        let status = again.map(|v| v.status);
        assert_eq!(status, Some(crate::verdict::Status::Valid), "the repair at {start} does not stand:\n{written}");
    }
    repaired.len()
}

/// Where a session's messages part in the bytes [`lsp`] takes: each piece between two is one
/// message's body, framed as the protocol says (mutations of a piece garble its body, not the
/// framing); bytes that open with [`LSP_RAW`] are sent as they are, framing and all.
pub const LSP_SEPARATOR: u8 = 0;

/// See [`LSP_SEPARATOR`].
pub const LSP_RAW: &[u8] = b"RAW";

/// A session of the language server (`referee lsp`): `initialize`, the messages `data` holds (see
/// [`LSP_SEPARATOR`]), then `shutdown` and `exit`, through the server's whole loop over in-memory
/// streams. Nothing panics; the server ends with 0 or 1; everything it writes is framed JSON-RPC;
/// every request it read before `exit` is answered. Returns how many messages it wrote.
#[cfg(feature = "lsp")]
pub fn lsp(data: &[u8]) -> usize {
    use serde_json::{json, Value};

    let frame = |body: &[u8]| [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat();
    let message = |v: Value| frame(v.to_string().as_bytes());
    let mut input =
        message(json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"capabilities": {}}}));
    input.extend(message(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})));
    // The ids of the requests the server must answer: those read before an `exit`.
    let mut asked: Vec<Value> = vec![json!("init")];
    let mut exited = false;
    match data.strip_prefix(LSP_RAW) {
        Some(raw) => input.extend_from_slice(raw),
        None => {
            for body in data.split(|&b| b == LSP_SEPARATOR) {
                input.extend(frame(body));
                let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(body) else { continue };
                match (m.get("method").and_then(Value::as_str), m.get("id")) {
                    (Some("exit"), None) => exited = true,
                    (Some(_), Some(id)) if !exited && (id.is_number() || id.is_string()) => asked.push(id.clone()),
                    _ => {}
                }
            }
        }
    }
    input.extend(message(json!({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})));
    input.extend(message(json!({"jsonrpc": "2.0", "method": "exit"})));
    if !exited && !data.starts_with(LSP_RAW) {
        asked.push(json!("bye"));
    }
    let written = Written::default();
    let code = crate::lsp::serve(std::io::Cursor::new(input), written.clone(), options(false));
    assert!(code <= 1, "exit code {code}");
    let output = written.0.lock().map(|o| o.clone()).unwrap_or_default();
    let mut answered = std::collections::HashSet::new();
    let bodies = framed_bodies(&output);
    for &body in &bodies {
        let v: Value = serde_json::from_slice(body).expect("JSON");
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
        if v.get("result").is_some() || v.get("error").is_some() {
            answered.insert(v["id"].to_string());
        }
    }
    for id in asked {
        assert!(answered.contains(&id.to_string()), "request {id} was not answered");
    }
    bodies.len()
}

/// The bodies of framed messages, as the server writes them.
#[cfg(feature = "lsp")]
fn framed_bodies(mut output: &[u8]) -> Vec<&[u8]> {
    let mut bodies = Vec::new();
    while let Some(rest) = output.strip_prefix(b"Content-Length: ") {
        let end = rest.iter().position(|&b| b == b'\r').expect("a header line");
        let length: usize = std::str::from_utf8(&rest[..end]).expect("digits").parse().expect("a length");
        let body = &rest[end + 4..];
        bodies.push(&body[..length]);
        output = &body[length..];
    }
    assert!(output.is_empty(), "the output ends with a whole message");
    bodies
}

/// What the server writes, kept.
#[cfg(feature = "lsp")]
#[derive(Clone, Default)]
struct Written(Arc<std::sync::Mutex<Vec<u8>>>);

#[cfg(feature = "lsp")]
impl std::io::Write for Written {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A session an editor might hold with the server on `text`, in the form [`lsp`] takes: the text
/// opened, requests at places in it (hover, completion, code actions, symbols, formatting,
/// folding ranges), an
/// edit in it, and the requests again.
#[cfg(feature = "lsp")]
pub fn lsp_session(text: &str, at: usize) -> Vec<u8> {
    use serde_json::json;

    let uri = "file:///fuzz.txt";
    let lines = crate::lsp::lines::Lines::of(text);
    let p = lines.position(text, at);
    let here = json!({"line": p.line, "character": p.character});
    let document = json!({"uri": uri});
    let requests = |id: u32| {
        [
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {"textDocument": document, "position": here}}),
            json!({"jsonrpc": "2.0", "id": id + 1, "method": "textDocument/completion", "params": {"textDocument": document, "position": here}}),
            json!({"jsonrpc": "2.0", "id": id + 2, "method": "textDocument/codeAction", "params": {"textDocument": document, "range": {"start": here, "end": here}, "context": {"diagnostics": []}}}),
            json!({"jsonrpc": "2.0", "id": id + 3, "method": "textDocument/documentSymbol", "params": {"textDocument": document}}),
            json!({"jsonrpc": "2.0", "id": id + 4, "method": "textDocument/formatting", "params": {"textDocument": document, "options": {"tabSize": 4, "insertSpaces": true}}}),
            json!({"jsonrpc": "2.0", "id": id + 5, "method": "textDocument/foldingRange", "params": {"textDocument": document}}),
        ]
    };
    let mut messages = vec![
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "referee", "version": 1, "text": text}}}),
    ];
    messages.extend(requests(1));
    messages.push(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {"start": here, "end": here}, "text": "x\n"}]}}));
    messages.extend(requests(10));
    let bodies: Vec<Vec<u8>> = messages.iter().map(|m| m.to_string().into_bytes()).collect();
    bodies.join(&LSP_SEPARATOR)
}
