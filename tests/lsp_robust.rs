//! `referee lsp` against what no editor should send and what a clumsy or hostile one may: broken
//! framing, broken JSON, edits it cannot read, texts too large, searches that would take minutes.
//! Each case gets the protocol's answer, and the server answers the next normal request; none
//! ends it, none makes it panic, none holds its other requests.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use lsp_client::{framed, place, server, start, stop, Client};
use serde_json::{json, Value};

const URI: &str = "file:///quarod.txt";
const RECORD: &str = "Some prose.\n[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";

fn hover_at(client: &mut Client, uri: &str, position: Value) -> Value {
    client.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": position}))
}

/// The hover on `d3c3` of [`RECORD`], in a text where it stands at `position`: who plays it.
fn hovers_the_move(client: &mut Client, position: Value) {
    let hover = hover_at(client, URI, position);
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("plays `d3c3`"), "{hover}");
}

fn move_place() -> Value {
    place(RECORD, RECORD.find("d3c3").unwrap())
}

/// Every broken message of the issue, one after another to one server: each is answered with the
/// protocol's error (where it can be answered), and a hover after it is answered too.
#[test]
fn every_broken_message_is_answered_and_the_next_request_too() {
    let (child, mut client) = start();
    client.open(URI, RECORD);
    let hover = json!({"jsonrpc": "2.0", "id": 999, "method": "textDocument/hover", "params": {}}).to_string();
    let notification = json!({"jsonrpc": "2.0", "method": "$/setTrace", "params": {"value": "off"}}).to_string();
    let cases: Vec<(&str, Vec<u8>, Option<i64>)> = vec![
        ("a length past any 64-bit number", b"Content-Length: 18446744073709551616\r\n\r\n".to_vec(), Some(-32600)),
        ("the largest 64-bit length", b"Content-Length: 18446744073709551615\r\n\r\n".to_vec(), Some(-32600)),
        ("a length of i64::MAX", b"Content-Length: 9223372036854775807\r\n\r\n".to_vec(), Some(-32600)),
        ("2 GB announced and no body", b"Content-Length: 2000000000\r\n\r\n".to_vec(), Some(-32600)),
        ("truncated JSON", framed(&hover.as_bytes()[..30]), Some(-32700)),
        ("a body that is not UTF-8", framed(b"{\"method\":\"x\",\"params\":\"\xff\xfe\"}"), Some(-32700)),
        ("a JSON-RPC batch", framed(format!("[{hover},{hover}]").as_bytes()), Some(-32600)),
        (
            "no Content-Length",
            format!("Content-Type: application/json\r\n\r\n{notification}").into_bytes(),
            Some(-32600),
        ),
        ("a Content-Length too short", [b"Content-Length: 12\r\n\r\n", hover.as_bytes()].concat(), Some(-32700)),
        ("5,000-deep nesting", framed(format!("{}{}", "[".repeat(5000), "]".repeat(5000)).as_bytes()), Some(-32700)),
        (
            "an id of null",
            framed(br#"{"jsonrpc":"2.0","id":null,"method":"textDocument/hover","params":{}}"#),
            Some(-32600),
        ),
        ("an id that is an object", framed(br#"{"jsonrpc":"2.0","id":{},"method":"shutdown"}"#), Some(-32600)),
        ("a method that is no string", framed(br#"{"jsonrpc":"2.0","id":5,"method":[]}"#), Some(-32600)),
        ("text where a header should be", b"GET / HTTP/1.1\r\nHost: referee\r\n\r\n".to_vec(), Some(-32700)),
        // Read as they come: no error to answer.
        ("an LF-only header", format!("Content-Length: {}\n\n{notification}", notification.len()).into_bytes(), None),
        (
            "a Content-Length too long, that the next message fills",
            format!("Content-Length: {}\r\n\r\n{notification}", notification.len() + 9).into_bytes(),
            None,
        ),
    ];
    for (what, bytes, code) in cases {
        // The broken bytes and a hover right after them, as a client sends on: text where a header
        // should be ends only where the next header begins.
        client.send_raw(&bytes);
        client.send(json!({"jsonrpc": "2.0", "id": 1000, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": URI}, "position": move_place()}}));
        if let Some(code) = code {
            // Answered with the message's id where it could be read (only the last case's), else null.
            let error = client.until(|m| m.get("error").is_some() && (m["id"].is_null() || m["id"] == 5));
            assert_eq!(error["error"]["code"], code, "{what}: {error}");
        }
        let hover = client.until(|m| m["id"] == 1000);
        let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
        assert!(shown.contains("plays `d3c3`"), "{what}: {hover}");
        // A request the server does not know: answered with an error, at once.
        let unknown = client.request("referee/unknown", json!({}));
        assert_eq!(unknown["error"]["code"], -32601, "{what}: {unknown}");
    }
    stop(child, client);
}

/// Half of a character (a lone UTF-16 surrogate, as an editor may send mid-typing) is read as one
/// replacement character: the text keeps the editor's positions, and what follows on its line is
/// found where the editor has it.
#[test]
fn a_lone_surrogate_in_an_edit_keeps_the_text_in_step() {
    let (child, mut client) = start();
    client.open(URI, RECORD);
    let p = move_place();
    let (line, character) = (p["line"].clone(), p["character"].clone());
    // A comment holding `\ud83d` typed before the move: four code units, as the editor counts them.
    let edit = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{URI}","version":2}},"contentChanges":[{{"range":{{"start":{{"line":{line},"character":{character}}},"end":{{"line":{line},"character":{character}}}}},"text":"{{\ud83d}} "}}]}}}}"#
    );
    client.send_raw(&framed(edit.as_bytes()));
    let shifted = json!({"line": line, "character": character.as_u64().unwrap() + 4});
    hovers_the_move(&mut client, shifted);
    stop(child, client);
}

/// An edit the server cannot read (a line of -1, a version that is a string) would leave its text
/// out of step with the editor's: the text is dropped, its diagnostics cleared, the user told; a
/// request on it says why; opened again, it is checked again.
#[test]
fn an_edit_that_cannot_be_read_drops_its_text_and_says_so() {
    let broken = format!("{RECORD}1. a1\n");
    for change in [
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]}),
        json!({"textDocument": {"uri": URI, "version": "3"}, "contentChanges": [{"text": "x"}]}),
    ] {
        let (child, mut client) = start();
        let found = client.open(URI, &broken);
        assert!(!found.is_empty(), "the text has a problem to clear");
        client.notify("textDocument/didChange", change.clone());
        let told = client.until(|m| m["method"] == "window/showMessage");
        let message = told["params"]["message"].as_str().unwrap();
        assert!(message.contains("lost track of") && message.contains("open it again"), "{change}: {told}");
        assert_eq!(client.diagnostics(URI), Vec::<Value>::new(), "{change}: cleared");
        let hover = hover_at(&mut client, URI, move_place());
        assert!(hover["error"]["message"].as_str().unwrap().contains("out of step"), "{hover}");
        // Further edits are passed over; opened again, the text is checked again.
        client.notify("textDocument/didChange", change);
        let found = client.open(URI, &broken);
        assert!(!found.is_empty(), "checked again");
        hovers_the_move(&mut client, move_place());
        stop(child, client);
    }
}

/// `exit` without `shutdown` ends the server with 1, as the protocol says; the end of its input
/// likewise; after `shutdown`, 0 ([`stop`]).
#[test]
fn exit_without_shutdown_is_code_1() {
    let (mut child, mut client) = start();
    client.notify("exit", Value::Null);
    assert_eq!(child.wait().unwrap().code(), Some(1));
    let (mut child, client) = start();
    drop(client);
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

/// A client that closes the server's output before `initialize` (it went away): the server ends
/// quietly, with no panic.
#[test]
fn a_closed_output_ends_the_server_quietly() {
    let mut child = server(Stdio::piped());
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}});
    let hover = json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {}});
    for message in [init, hover] {
        // The server may have ended before it reads the second: a closed pipe here is no fault.
        let _ = std::io::Write::write_all(&mut stdin, &framed(message.to_string().as_bytes()));
    }
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Ten 26x26 Quarod records that claim a result after two moves: each claim needs a search of
/// seconds. The searches run on their own thread: hovers are answered meanwhile (the claims still
/// "being searched"), a keystroke's diagnostics come before the searches end, and `shutdown`
/// stops them.
#[test]
fn hovers_and_keystrokes_are_answered_while_claims_are_searched() {
    let record = "[Game \"Quarod\"]\n[Size \"26\"]\n\n1. c16d16 h9h10 1-0\n\n";
    let text = record.repeat(10);
    let (mut child, mut client) = start();
    let opened = Instant::now();
    client.open(URI, &text);
    let last_claim = place(&text, text.rfind("1-0").unwrap());
    for _ in 0..5 {
        let hover = hover_at(&mut client, URI, last_claim.clone());
        let shown = hover["result"]["contents"]["value"].as_str().unwrap();
        assert!(shown.contains("being searched"), "{shown}");
    }
    // A keystroke that makes record 5's second move land on its first: its diagnostic comes now.
    let at = place(&text, 4 * record.len() + record.find("h9h10").unwrap());
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": {"start": at, "end": {"line": at["line"], "character": at["character"].as_u64().unwrap() + 5}}, "text": "c16d16"}]}),
    );
    let found = client.diagnostics(URI);
    assert!(found.iter().any(|d| d["range"]["start"] == at && d["severity"] == 1), "{found:?}");
    let shown = hover_at(&mut client, URI, last_claim.clone())["result"]["contents"]["value"].clone();
    assert!(shown.as_str().unwrap().contains("being searched"), "the searches still run: {shown}");
    let searched = opened.elapsed();
    // Shut down: the searches are stopped, and the server ends at once.
    let shutdown = Instant::now();
    stop_within(&mut child, client, Duration::from_secs(30));
    eprintln!("{searched:?} of searching, then shut down in {:?}", shutdown.elapsed());
}

/// Shuts down and exits, and waits at most `limit` for the process to end: a search that did not
/// stop would hold it for minutes.
fn stop_within(child: &mut std::process::Child, mut client: Client, limit: Duration) {
    let shutdown = client.request("shutdown", Value::Null);
    assert!(shutdown.get("error").is_none(), "{shutdown}");
    client.notify("exit", Value::Null);
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            return;
        }
        assert!(began.elapsed() < limit, "the server did not end within {limit:?} of exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

const SPLINTER: &str = "[Game \"Splinter Quad\"]\n[Size \"13\"]\n[Players \"3\"]\n\n1. d8c9 g6f5 a1a2 0-0-1\n";

fn code_action_at(client: &mut Client, id: i64, uri: &str, text: &str, word: &str) {
    let at = place(text, text.find(word).unwrap());
    client.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": uri}, "range": {"start": at, "end": at}, "context": {"diagnostics": []}}}));
}

/// A code action whose repair takes seconds (a 3-player Splinter Quad record, whose repaired
/// claims are searched) holds no other request: a hover on another text is answered first. The
/// client cancels it (answered `RequestCancelled`); an edit of its text ends another
/// (`ContentModified`).
#[test]
fn a_repair_holds_no_other_request_and_is_cancelled_or_ended_by_an_edit() {
    let (child, mut client) = start();
    let uri = "file:///splinter.txt";
    client.open(uri, SPLINTER);
    client.open(URI, RECORD);
    code_action_at(&mut client, 500, uri, SPLINTER, "a1a2");
    hovers_the_move(&mut client, move_place());
    client.notify("$/cancelRequest", json!({"id": 500}));
    let answer = client.until(|m| m["id"] == 500);
    assert_eq!(answer["error"]["code"], -32800, "{answer}");

    code_action_at(&mut client, 501, uri, SPLINTER, "a1a2");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": format!("{SPLINTER}\n")}]}),
    );
    let answer = client.until(|m| m["id"] == 501);
    assert_eq!(answer["error"]["code"], -32801, "{answer}");
    stop(child, client);
}

/// Diagnostics are published when they change, and only then: an edit of prose sends none, an
/// edit that breaks a move sends the text's new ones, and the edit back sends them again.
#[test]
fn diagnostics_are_published_only_when_they_change() {
    let (child, mut client) = start();
    client.open(URI, RECORD);
    let publishes = |client: &mut Client, edit: Value| {
        client.notify("textDocument/didChange", edit);
        client.published.remove(URI);
        client.diagnostics(URI);
        client.published.contains_key(URI)
    };
    let prose = place(RECORD, RECORD.find("prose").unwrap());
    let change = |version: i32, at: &Value, text: &str, len: u64| {
        let end = json!({"line": at["line"], "character": at["character"].as_u64().unwrap() + len});
        json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"range": {"start": at, "end": end}, "text": text}]})
    };
    assert!(!publishes(&mut client, change(2, &prose, "PROSE", 5)), "prose changes no diagnostic");
    let m = move_place();
    assert!(publishes(&mut client, change(3, &m, "c1d1", 4)), "a broken move does");
    assert!(!publishes(&mut client, change(4, &prose, "prose", 5)));
    assert!(publishes(&mut client, change(5, &m, "d3c3", 4)), "mended");
    assert_eq!(client.published[URI], Vec::<Value>::new());
    stop(child, client);
}

/// A text of 3,000 broken records: the first 1,000 problems are published, and one more that
/// counts the others, rather than megabytes at each keystroke.
#[test]
fn the_problems_published_are_capped_and_the_rest_counted() {
    let (child, mut client) = start();
    let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. zz *\n\n".repeat(3000);
    let found = client.open(URI, &text);
    assert_eq!(found.len(), 1001);
    let last = &found[1000];
    assert_eq!(last["severity"], 3, "{last}");
    assert!(last["message"].as_str().unwrap().starts_with("2000 more problems"), "{last}");
    assert_eq!(last["range"]["start"], place(&text, 1000 * (text.len() / 3000) + text[..].find("zz").unwrap()));
    stop(child, client);
}

/// A text opened with a message longer than any the server reads: refused by its header, its
/// body skipped, and the user told which text was not opened.
#[test]
fn a_text_in_a_message_too_long_is_refused_by_its_header() {
    let (child, mut client) = start();
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": URI, "languageId": "referee", "version": 1, "text": RECORD}}});
    // The header says 300 MB: the body after it is not read as a message, but skipped.
    client.send_raw(&[b"Content-Length: 300000000\r\n\r\n".as_slice(), open.to_string().as_bytes(), b"\r\n"].concat());
    // The body ends where the next message's header begins: a hover, sent at once.
    let params = json!({"textDocument": {"uri": URI}, "position": move_place()});
    client.send(json!({"jsonrpc": "2.0", "id": 1000, "method": "textDocument/hover", "params": params}));
    let told = client.until(|m| m["method"] == "window/showMessage");
    let message = told["params"]["message"].as_str().unwrap();
    assert!(message.contains(URI) && message.contains("at most 160 MiB"), "{told}");
    let hover = client.until(|m| m["id"] == 1000);
    assert!(hover["error"]["message"].as_str().unwrap().contains("not open"), "{hover}");
    stop(child, client);
}

/// A text over 64 MiB is not opened: the user is told, and a request on it says it is not open.
#[test]
fn a_text_too_large_is_refused_with_a_message() {
    let (child, mut client) = start();
    let text = "x".repeat((64 << 20) + 1);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "referee", "version": 1, "text": text}}),
    );
    let told = client.until(|m| m["method"] == "window/showMessage");
    assert!(told["params"]["message"].as_str().unwrap().contains("at most 64 MiB"), "{told}");
    let hover = hover_at(&mut client, URI, json!({"line": 0, "character": 0}));
    assert!(hover["error"]["message"].as_str().unwrap().contains("not open"), "{hover}");
    stop(child, client);
}
