//! `referee lsp` as an editor meets it: the real process, JSON-RPC over its pipes.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use lsp_client::{place, start, start_with, stop};
use serde_json::{json, Value};

const URI: &str = "file:///blog-page.txt";

fn at(line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
}

#[test]
fn an_editor_opens_the_blog_page_hovers_completes_fixes_and_mends_it() {
    let (child, mut client) = start();

    let text = include_str!("../samples/quadraphages/blog-page.txt");
    let found = client.open(URI, text);
    let starts: Vec<(u64, u64, &str)> = found
        .iter()
        .map(|d| {
            let s = &d["range"]["start"];
            (s["line"].as_u64().unwrap(), s["character"].as_u64().unwrap(), d["message"].as_str().unwrap())
        })
        .collect();
    // 28:31 and 57:21 in the editor's count from 1: lines and columns from 0 here.
    assert!(starts.contains(&(27, 30, "no O stone on d2")), "{starts:?}");
    assert!(starts.iter().any(|s| (s.0, s.1) == (56, 20)), "{starts:?}");
    let first = found.iter().find(|d| d["range"]["start"]["line"] == 27).unwrap();
    assert_eq!(first["range"]["end"]["character"], 34, "the range is the token d2d5");
    let related = first["relatedInformation"].to_string();
    assert!(related.contains("docs/rules/quadraphages.md#quadraphages-"), "{related}");
    assert!(related.contains("legal here: d8d5"), "{related}");

    // A hover on d2d5: the problem, and the board before it.
    let hover = client.request("textDocument/hover", at(27, 31));
    let shown = hover["result"]["contents"]["value"].as_str().unwrap().to_string();
    assert!(shown.contains("no O stone on d2") && shown.contains("a b c d e f g h i"), "{shown}");
    // A hover on a legal move before it: who played it, the boards before and after.
    let hover = client.request("textDocument/hover", at(27, 4));
    let shown = hover["result"]["contents"]["value"].as_str().unwrap().to_string();
    assert!(shown.contains("plays `a8a5`") && shown.contains("before:") && shown.contains("after:"), "{shown}");

    // Completion where d2d5 stands: the legal moves there.
    let completion = client.request("textDocument/completion", at(27, 30));
    let labels: Vec<&str> =
        completion["result"].as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["d8d5"], "{completion}");

    // The quick fix writes d8d5 over d2d5.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 27, "character": 31}, "end": {"line": 27, "character": 31}}, "context": {"diagnostics": []}}),
    );
    let fix = &actions["result"][0];
    assert_eq!(fix["isPreferred"], true, "{actions}");
    let edit = &fix["edit"]["changes"][URI][0];
    assert_eq!(edit["newText"], "d8d5");
    assert_eq!(edit["range"]["start"], json!({"line": 27, "character": 30}));

    // The record's best repair needs play the notation cannot write: offered disabled, saying why.
    let best = actions["result"].as_array().unwrap().last().unwrap();
    assert_eq!(best["title"], "apply the best repair of record 1", "{actions}");
    let why = best["disabled"]["reason"].as_str().unwrap();
    assert!(why.contains("the notation cannot write (at 29:16"), "{why}");

    // One symbol per record: its game, result and verdict.
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    let names: Vec<(&str, &str)> = symbols["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["detail"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("record 1: Quadraphages", "illegal · 14 moves · and wins 40-39"),
            ("record 2: Hexaphages", "illegal · 17 moves · resign")
        ]
    );

    // Hovers on the claims: their status and why.
    for (place, name) in [
        (claim_at(text, "and wins 40-39"), "blog-page-hover-on-a-result-claim"),
        (claim_at(text, "resign"), "blog-page-hover-on-a-resignation"),
    ] {
        let hover = client.request("textDocument/hover", at(place.0, place.1));
        insta::assert_snapshot!(name, hover["result"]["contents"]["value"].as_str().unwrap());
    }

    // Nor does the second record's best repair make it stand: its final diagram differs.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 56, "character": 21}, "end": {"line": 56, "character": 21}}, "context": {"diagnostics": []}}),
    );
    let best = actions["result"].as_array().unwrap().last().unwrap();
    assert_eq!(best["title"], "apply the best repair of record 2", "{actions}");
    assert_eq!(
        best["disabled"]["reason"],
        "its best repair replays to the end, but 4 cells of the final diagram differ"
    );

    // The move mended, as an editor sends a keystroke: only the range that changed.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 27, "character": 31}, "end": {"line": 27, "character": 32}}, "text": "8"}
        ]}),
    );
    let found = client.diagnostics(URI);
    assert!(!found.iter().any(|d| d["range"]["start"] == json!({"line": 27, "character": 30})), "{found:?}");
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(symbols["result"][0]["detail"], "illegal · 28 moves · and wins 40-39", "{symbols}");

    // A document the server does not have open: an error reply, and the server goes on.
    let unknown = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.txt"}, "position": {"line": 0, "character": 0}}),
    );
    assert!(unknown["error"]["message"].as_str().unwrap().contains("not open"), "{unknown}");

    stop(child, client);
}

/// Line and column (from 0) of the first `word` of an ASCII text.
fn claim_at(text: &str, word: &str) -> (u32, u32) {
    let p = place(text, text.find(word).unwrap());
    (p["line"].as_u64().unwrap() as u32, p["character"].as_u64().unwrap() as u32)
}

/// For a broken record of each game of the common format: the diagnostic at its illegal move, the
/// hovers on it and on the first move (snapshots), the alternative among the completions and as
/// the preferred fix, and the diagnostic gone once the fix is made.
#[test]
fn an_editor_meets_a_broken_record_of_each_game_of_the_common_format() {
    use referee::verdict::ProblemKind;
    use referee::verify::{verify_source, VerifyOptions};
    for (game, file, symbol) in [
        ("quarod", "samples/quarod/broken/illegal-placement-not-empty.txt", "record 1: Quarod (Ann – Bo)"),
        ("petrify", "samples/petrify/broken/illegal-placement-not-empty.txt", "record 1: Petrify (Cy – Di)"),
        ("vadrantir", "samples/vadrantir/broken/illegal-placement-not-empty.txt", "record 1: Vadrantir (Eve – Flo)"),
        ("splinter", "samples/splinter/broken/illegal-no-own-piece.txt", "record 1: Splinter Quad"),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let verdict = &verify_source(&text, VerifyOptions::default())[0];
        let problem = verdict.problems.iter().find(|p| p.kind == ProblemKind::Illegal).expect("an illegal move");
        let instead = &verdict.alternatives.first().expect("an alternative").text;
        let uri = format!("file:///{game}.txt");
        let at = |position: Value| json!({"textDocument": {"uri": uri}, "position": position});
        let (child, mut client) = start();
        let found = client.open(&uri, &text);
        let start = place(&text, problem.span.start);
        assert!(
            found.iter().any(|d| d["range"]["start"] == start && d["message"] == json!(problem.message)),
            "{game}: {found:?}"
        );

        let hover = client.request("textDocument/hover", at(start.clone()));
        insta::assert_snapshot!(
            format!("{game}-hover-on-the-illegal-move"),
            hover["result"]["contents"]["value"].as_str().unwrap()
        );
        let first = referee::record_moves(&text, 1, VerifyOptions::default()).unwrap().moves[0].token.start;
        let hover = client.request("textDocument/hover", at(place(&text, first)));
        insta::assert_snapshot!(
            format!("{game}-hover-on-the-first-move"),
            hover["result"]["contents"]["value"].as_str().unwrap()
        );

        let completion = client.request("textDocument/completion", at(start.clone()));
        let labels: Vec<&str> =
            completion["result"].as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap()).collect();
        assert!(labels.contains(&instead.as_str()), "{game}: {instead} not among {labels:?}");

        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": start, "end": start}, "context": {"diagnostics": []}}),
        );
        let edit = &actions["result"][0]["edit"]["changes"][&uri][0];
        assert_eq!(edit["newText"], json!(instead), "{game}: {actions}");

        // The tag naming the game, and the result claimed: what they mean, and what became of it.
        for (line, tag) in [(0, "game"), (1, "size")] {
            let hover = client.request("textDocument/hover", at(json!({"line": line, "character": 2})));
            insta::assert_snapshot!(
                format!("{game}-hover-on-the-{tag}-tag"),
                hover["result"]["contents"]["value"].as_str().unwrap()
            );
        }
        let result = verdict.claims.first().expect("a result claim").span.start;
        let hover = client.request("textDocument/hover", at(place(&text, result)));
        insta::assert_snapshot!(
            format!("{game}-hover-on-the-result"),
            hover["result"]["contents"]["value"].as_str().unwrap()
        );

        // The record's best repair, as `referee repair --write` writes it: the record stands.
        let best = actions["result"].as_array().unwrap().last().unwrap();
        assert!(best["title"].as_str().unwrap().starts_with("apply the best repair of record 1 ("), "{game}: {best}");
        let repaired = best["edit"]["changes"][&uri][0]["newText"].as_str().unwrap();
        let verdicts = verify_source(repaired, VerifyOptions::default());
        assert_eq!(verdicts[0].status, referee::verdict::Status::Valid, "{game}: {repaired}");

        // The outline names the record's game and its players, by the tags of their colours.
        let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
        assert_eq!(symbols["result"][0]["name"], symbol, "{game}: {symbols}");

        let mended = format!("{}{instead}{}", &text[..problem.span.start], &text[problem.span.end..]);
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": mended}]}),
        );
        let found = client.diagnostics(&uri);
        assert!(
            !found.iter().any(|d| d["range"]["start"] == start && d["message"] == json!(problem.message)),
            "{game}: {found:?}"
        );
        stop(child, client);
    }
}

/// The edits `textDocument/formatting` answers for a text, made.
fn formatted(client: &mut lsp_client::Client, uri: &str, text: &str) -> (String, usize) {
    client.open(uri, text);
    let answer = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let edits = answer["result"].as_array().unwrap_or_else(|| panic!("{answer}"));
    // The edits are apart and in text order: made from the last, the ranges of the others hold.
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    for edit in edits.iter().rev() {
        let (start, end) = (&edit["range"]["start"], &edit["range"]["end"]);
        let at = |p: &Value| (p["line"].as_u64().unwrap() as usize, p["character"].as_u64().unwrap() as usize);
        let ((l0, c0), (l1, c1)) = (at(start), at(end));
        let replaced = format!("{}{}{}", &lines[l0][..c0], edit["newText"].as_str().unwrap(), &lines[l1][c1..]);
        lines.splice(l0..=l1, replaced.split('\n').map(str::to_string).collect::<Vec<_>>());
    }
    (lines.join("\n"), edits.len())
}

/// Formatting changes only spacing, line breaks and move numbers: a record's tags stay in their
/// order, its comments in their places, and no final diagram is added; the blog page's records,
/// which stop at an illegal move, are laid out as they are (their lines are spaced so already).
#[test]
fn formatting_lays_records_out_and_keeps_every_word() {
    let (child, mut client) = start();
    let messy = "[Game \"Quarod\"]   [Size \"4\"]\n[White \"Bo\"] [Black \"Ann\"]\n\
                 1.c1d1   d3c3 {Bo thought long here}   2. b4a4\n *\n";
    let blog = include_str!("../samples/quadraphages/blog-page.txt");
    let text = format!("{blog}\nSome prose.\n\n{messy}");
    let (formatted, edits) = formatted(&mut client, "file:///mixed.txt", &text);
    assert_eq!(edits, 1, "{formatted}");
    let laid = "[Game \"Quarod\"]\n[Size \"4\"]\n[White \"Bo\"]\n[Black \"Ann\"]\n\n\
                1. c1d1 d3c3 {Bo thought long here}\n2. b4a4 *\n";
    // No final diagram is added: the record has none.
    assert_eq!(formatted, format!("{blog}\nSome prose.\n\n{laid}"));
    stop(child, client);
}

/// A record of the published notation keeps the prose inside its span: only its move lines are
/// spaced again.
#[test]
fn formatting_keeps_the_prose_inside_a_published_record() {
    let (child, mut client) = start();
    let designers = include_str!("../samples/quadraphages/designers-game-1.txt");
    let prose = "A short friendly game, written down by hand.";
    let text = format!("QUADRAPHAGES\n{prose}\n{designers}");
    let (formatted, edits) = formatted(&mut client, "file:///designers.txt", &text);
    assert_eq!(edits, 1, "{formatted}");
    assert!(formatted.starts_with(&format!("QUADRAPHAGES\n{prose}\n{}\n", designers.lines().next().unwrap())));
    assert!(formatted.contains("\n12. ---- ---- 2 e3c3 a8a6 resign\n"), "{formatted}");
    assert_eq!(formatted.lines().count(), text.lines().count(), "{formatted}");
    stop(child, client);
}

/// Random edits, many of them breaking the text anywhere (inside a token, a tag, a diagram; with
/// characters of several bytes), each followed by requests at random places: every request is
/// answered, and the server is still there to shut down.
#[test]
fn random_edits_and_requests_are_always_answered() {
    let (child, mut client) = start();
    let uri = "file:///edited.txt";
    let mut text: Vec<char> = include_str!("../samples/mixed/newsletter-crlf-bom.txt").chars().collect();
    let mut last = client.open(uri, &text.iter().collect::<String>());
    let mut rng = fastrand::Rng::with_seed(19);
    let pieces = ["a1", "x", " ", "\n", "1.", "----", "[Game \"Petrify\"]", "é", "🂡", "*", "1-0", "{", "]"];
    for version in 2..200 {
        let at = rng.usize(..=text.len());
        // Half the edits as an editor sends keystrokes (the range that changed), half as the whole
        // text.
        let change = if rng.bool() && at < text.len() {
            let end = (at + rng.usize(1..8)).min(text.len());
            let range = json!({"start": protocol_position(&text, at), "end": protocol_position(&text, end)});
            text.drain(at..end);
            json!({"range": range, "text": ""})
        } else {
            let piece = pieces[rng.usize(..pieces.len())];
            let range = json!({"start": protocol_position(&text, at), "end": protocol_position(&text, at)});
            text.splice(at..at, piece.chars());
            json!({"range": range, "text": piece})
        };
        let change = if rng.bool() { change } else { json!({"text": text.iter().collect::<String>()}) };
        let now: String = text.iter().collect();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        );
        last = client.diagnostics(uri);
        let lines = now.lines().count().max(1);
        let position = json!({"line": rng.usize(..lines + 1), "character": rng.usize(..40)});
        let here = json!({"textDocument": {"uri": uri}, "position": position});
        for method in ["textDocument/hover", "textDocument/completion"] {
            let answer = client.request(method, here.clone());
            assert!(answer.get("result").is_some() || answer.get("error").is_some(), "{answer}");
        }
        let range = json!({"start": position, "end": position});
        let answer = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": []}}),
        );
        assert!(answer.get("result").is_some(), "{answer}");
    }
    // The text the edits made, opened afresh: the same diagnostics as the edited one's last.
    let now: String = text.iter().collect();
    let afresh = client.open("file:///afresh.txt", &now);
    let without_uris = |ds: &[Value]| {
        ds.iter()
            .map(|d| {
                let mut d = d.clone();
                d.as_object_mut().unwrap().remove("relatedInformation");
                d
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(without_uris(&afresh), without_uris(&last));
    assert!(!afresh.is_empty(), "the edits break something");
    stop(child, client);
}

/// The protocol position of char `at` of a text: lines end at `\n`, `\r\n` or `\r`; columns count
/// UTF-16 code units.
fn protocol_position(text: &[char], at: usize) -> Value {
    let (mut line, mut character) = (0, 0);
    for (i, &c) in text[..at].iter().enumerate() {
        if c == '\n' || (c == '\r' && text.get(i + 1) != Some(&'\n')) {
            line += 1;
            character = 0;
        } else {
            character += c.len_utf16();
        }
    }
    json!({"line": line, "character": character})
}

/// With lenient replay on (a setting), the illegal moves after a record's first are hints: the
/// replay went on past them. Turned off, they are gone.
#[test]
fn lenient_replay_is_a_setting_and_its_later_problems_are_hints() {
    let (child, mut client) = start_with(json!({"lenient": true}));
    let text = include_str!("../samples/quadraphages/blog-page.txt");
    let found = client.open(URI, text);
    let severity_at = |found: &[Value], line: u64, character: u64| {
        found
            .iter()
            .find(|d| d["range"]["start"] == json!({"line": line, "character": character}))
            .map(|d| d["severity"].as_u64().unwrap())
    };
    // 1 is an error, 4 a hint.
    assert_eq!(severity_at(&found, 27, 30), Some(1), "{found:?}");
    assert_eq!(severity_at(&found, 29, 3), Some(4), "no X stone on i6: {found:?}");
    assert_eq!(severity_at(&found, 56, 20), Some(1), "the second record's first: {found:?}");
    assert_eq!(severity_at(&found, 58, 20), Some(4), "{found:?}");

    client.notify("workspace/didChangeConfiguration", json!({"settings": {"referee": {"lenient": false}}}));
    let found = client.diagnostics(URI);
    assert_eq!(severity_at(&found, 27, 30), Some(1), "{found:?}");
    assert_eq!(severity_at(&found, 29, 3), None, "{found:?}");
    assert!(found.iter().all(|d| d["severity"] == 1), "{found:?}");
    stop(child, client);
}

/// Completion where the next move is typed, past a record's last token on its line: the numbers
/// the published notation announces, then the stones' moves; a common-format record after its
/// move number.
#[test]
fn completion_offers_the_next_move_where_it_is_typed() {
    let (child, mut client) = start();
    let header = "                _Bo_                              _Jx_\n";
    let cases = [
        (format!("{header}1.  ....  ....   "), vec!["1", "2", "3", "4", "5", "6", "7", "8"]),
        (format!("{header}1.  ....  ....   1   "), vec!["c1d1", "c1c2", "c1b1", "g9g8", "g9h9", "g9f9"]),
        (format!("{header}1.  ....  ....   1   c1b1  "), vec!["g9g8", "g9h9", "g9f9"]),
        (
            "[Game \"Quarod\"]\n[Size \"2\"]\n\n1. ".to_string(),
            vec!["a1b1", "a1a2", "b1b2", "b1a1", "a2a1", "a2b2", "b2b1", "b2a2"],
        ),
    ];
    for (text, expected) in &cases {
        client.open(URI, text);
        let end = place(text, text.len());
        let completion =
            client.request("textDocument/completion", json!({"textDocument": {"uri": URI}, "position": end}));
        let labels: Vec<&str> =
            completion["result"].as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap()).collect();
        assert_eq!(&labels, expected, "{text:?}");
        client.notify("textDocument/didClose", json!({"textDocument": {"uri": URI}}));
        client.diagnostics(URI);
    }
    stop(child, client);
}

/// A hover on the move that ends the game gives the score as well.
#[test]
fn a_hover_on_the_last_move_gives_the_final_score() {
    let (child, mut client) = start();
    let text = include_str!("../samples/quarod/random-size-4.txt");
    client.open(URI, text);
    let moves = referee::record_moves(text, 1, referee::verify::VerifyOptions::default()).unwrap();
    assert!(moves.over);
    let last = moves.moves.last().unwrap().token.start;
    let hover =
        client.request("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": place(text, last)}));
    insta::assert_snapshot!(hover["result"]["contents"]["value"].as_str().unwrap());
    stop(child, client);
}

/// An annotated record: a comment over two lines and a variation over two fold, the outline
/// lists the variations nested as written, a hover on a comment says which move it follows and
/// one on a variation's `(` whether it replays, and an illegal move in a variation is a
/// diagnostic at its range that names the variation.
#[test]
fn an_editor_meets_the_comments_and_variations_of_a_record() {
    let (child, mut client) = start();
    let text = "[Game \"Quarod\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n[Size \"4\"]\n\n{Played at the club.}\n\
                1. c1d1 d3c3 {Bo thought\nlong here}\n2. b4a4 (2. a3b3 {why not?}\n  (2. a2a1 {inner}) 2... c1d1) a3b3 *\n";
    let uri = "file:///annotated.txt";
    let found = client.open(uri, text);
    let illegal = text.rfind("c1d1").unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["message"], "c1 is not empty (in the variation at 2. a3b3)", "{found:?}");
    assert_eq!(found[0]["range"], json!({"start": place(text, illegal), "end": place(text, illegal + 4)}));

    let folds = client.request("textDocument/foldingRange", json!({"textDocument": {"uri": uri}}));
    assert_eq!(
        folds["result"],
        json!([
            {"startLine": 0, "endLine": 9, "kind": "region"},
            {"startLine": 6, "endLine": 7, "kind": "comment"},
            {"startLine": 8, "endLine": 9, "kind": "region"},
        ]),
        "{folds}"
    );

    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let record = &symbols["result"][0];
    assert_eq!(record["name"], "record 1: Quarod (Ann – Bo)", "{symbols}");
    let outer = &record["children"][0];
    assert_eq!((&outer["name"], &outer["detail"]), (&json!("2. a3b3"), &json!("2. a3b3")), "{symbols}");
    let inner = &outer["children"][0];
    assert_eq!((&inner["name"], &inner["detail"]), (&json!("2. a2a1"), &json!("2. a3b3 > 2. a2a1")), "{symbols}");
    assert_eq!(record["children"].as_array().unwrap().len(), 1, "{symbols}");
    assert_eq!(inner.get("children"), None, "{symbols}");

    let hover = |client: &mut lsp_client::Client, at: usize| {
        let answer =
            client.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": place(text, at)}));
        answer["result"]["contents"]["value"].as_str().unwrap_or_else(|| panic!("{answer}")).to_string()
    };
    let shown = hover(&mut client, text.find("{Played").unwrap());
    assert_eq!(shown, "**comment** before the first move\n\n> Played at the club.");
    let shown = hover(&mut client, text.find("long here").unwrap());
    assert_eq!(shown, "**comment** after 1... d3c3\n\n> Bo thought\n> long here");
    let shown = hover(&mut client, text.find("{why").unwrap());
    assert_eq!(shown, "**comment** after 2. a3b3, in the variation at 2. a3b3\n\n> why not?");
    let shown = hover(&mut client, text.find("(2. a3b3").unwrap());
    assert_eq!(shown, "**variation** at 2. a3b3: it does not replay: c1 is not empty");
    let shown = hover(&mut client, text.find("(2. a2a1").unwrap());
    assert_eq!(shown, "**variation** at 2. a3b3 > 2. a2a1: it replays: each of its moves is legal");

    // A variation past the main line's first illegal move is not checked; a comment may follow
    // the result.
    let text =
        "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 2. b4a4 (2. a3b3) * {done [%arrow a1d4 red] [%mark b2]}\n";
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let hover = |client: &mut lsp_client::Client, at: usize| {
        let answer =
            client.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": place(text, at)}));
        answer["result"]["contents"]["value"].as_str().unwrap_or_else(|| panic!("{answer}")).to_string()
    };
    let shown = hover(&mut client, text.find('(').unwrap());
    assert_eq!(
        shown,
        "**variation** at 2. a3b3: the variation at 2. a3b3 is not checked: the main line stops before the move it \
         replaces"
    );
    assert_eq!(
        hover(&mut client, text.find("{done").unwrap()),
        "**comment** after the result `*`\n\n> done [%arrow a1d4 red] [%mark b2]\n\n**markup**, drawn on the position \
         after that move:\n- an arrow from a1 to d4, red\n- b2 coloured green"
    );
    stop(child, client);
}

/// Variations nested deeper than the outline nests are listed beside the deepest; a record of
/// more variations than the outline lists has the first listed, and says so.
#[test]
fn the_outline_of_variations_is_bounded() {
    fn depth_and_count(symbol: &Value) -> (usize, usize) {
        symbol["children"].as_array().map_or((1, 1), |children| {
            children.iter().map(depth_and_count).fold((1, 1), |(d, n), (cd, cn)| (d.max(cd + 1), n + cn))
        })
    }
    let (child, mut client) = start();
    let deep = format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 {}{} *\n", "(1. a1b1 ".repeat(40), ")".repeat(40));
    client.open("file:///deep.txt", &deep);
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///deep.txt"}}));
    // The record, and its variations 12 deep at most.
    assert_eq!(depth_and_count(&symbols["result"][0]), (1 + 12, 41), "{symbols}");

    let many = format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 {}*\n", "(1. a1b1) ".repeat(6000));
    client.open("file:///many.txt", &many);
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///many.txt"}}));
    let record = &symbols["result"][0];
    assert_eq!(record["children"].as_array().unwrap().len(), 4999, "{}", record["detail"]);
    assert!(record["detail"].as_str().unwrap().ends_with(" · 6000 variations, the first 4999 listed"), "{record:?}");
    stop(child, client);
}
