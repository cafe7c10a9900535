//! referee's command line with a game from outside the crate added (`game.rs`): `cargo run --example
//! own_game -- verify games.txt`. Without arguments, it runs itself so on a file, as a user and an
//! editor would, and checks what it says. `tests/outside_game.rs` puts the game through the library.

mod game;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitCode, Stdio};

use game::{InRow, DRAWN, ILLEGAL};
use referee::judge::{Games, Registry};
use serde_json::json;

fn main() -> ExitCode {
    if std::env::args_os().len() > 1 {
        return referee::cli::run_with(Registry.and::<InRow>());
    }
    // This program as a user runs it, on a file of two records of the game and one of Quarod.
    let dir = std::env::temp_dir().join(format!("own_game-{}", std::process::id()));
    let paths = ["games.txt", "pictures", "game.json"].map(|p| dir.join(p).to_string_lossy().to_string());
    let [file, pictures, json] = paths.each_ref().map(String::as_str);
    let quarod = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";
    std::fs::create_dir_all(&dir).and(std::fs::write(file, format!("{ILLEGAL}\n{DRAWN}\n{quarod}"))).expect("written");
    let exe = std::env::current_exe().expect("this program");
    let run = |args: &[&str]| {
        let out = Command::new(&exe).args(args).output().expect("it runs");
        let said = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        println!("$ own_game {}: exit {}\n{}", args.join(" "), out.status.code().unwrap_or(-1), said.trim_end());
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).to_string(), said)
    };
    for (args, exit, says) in [
        (&["verify", file][..], 1, "3 records in 1 file: 2 valid, 1 illegal"),
        (&["verify", "--game", "gomoku", file], 1, "`c1d1` is not an In a Row move"), // the Quarod record
        (&["random", "--game", "inrow", "--seed", "3"], 0, "[Game \"In a Row\"]\n[Size \"5\"]\n[Seed \"3\"]"),
        (&["repair", "--record", "1", file], 0, "c3 already holds a Black stone\n  repair 1:\n    4:4 c3 → c1"),
        (&["render", "--format", "svg", "--record", "2", "--out", pictures, file], 0, "wrote 26 files"),
        (&["perft", "inrow_5/5/5/5/5_b", "2"], 0, "600"),
        (&["show", "--record", "2", "--ply", "4", file], 0, "a b c d e\nB B W W . 1."),
        (&["convert", "--to", "canonical", "--record", "2", file], 0, "12. b5 d5\n13. e5 0-0"),
    ] {
        let (code, _, said) = run(args);
        assert!(code == exit && said.contains(says), "{said}");
    }
    // The engine protocol: the game's conformance suite run against this program as an engine,
    // and a match of its search player against its random one, every move judged.
    let engine = format!("{} engine", exe.display());
    let (code, _, said) = run(&["conformance", "--engine", &engine, "--game", "inrow"]);
    assert!(code == 0 && said.contains("passed") && !said.contains("DIFFERS"), "{said}");
    let search = format!("{engine} --player search");
    let matched = dir.join("match").to_string_lossy().to_string();
    let args = ["match", "--engine", &search, "--engine", &engine, "--game", "inrow", "--games", "2", "-o", &matched];
    let (code, table, said) = run(&args);
    assert!(code == 0 && table.contains(" 2  ") && said.contains("game 2 (2/2 done, inrow)"), "{said}");
    let (code, _, said) = run(&["verify", &matched]);
    assert!(code == 0 && said.contains("2 records in 2 files: 2 valid"), "{said}");
    let (code, written, said) = run(&["convert", "--to", "json", "--record", "2", file]);
    std::fs::write(json, written).map_err(|e| e.to_string()).and((code == 0).then_some(()).ok_or(said)).unwrap();
    let (code, again, said) = run(&["convert", "--from", "json", "--to", "canonical", json]);
    assert!(code == 0 && again.starts_with("[Game \"In a Row\"]") && again.contains("13. e5 0-0"), "{said}");
    // The language server, through the protocol alone: a text opened, its diagnostics published.
    let mut server = Command::new(&exe).arg("lsp").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("runs");
    let (mut to, mut from) = (server.stdin.take().expect("its input"), BufReader::new(server.stdout.take().expect("")));
    let mut send = |m: serde_json::Value| write!(to, "Content-Length: {}\r\n\r\n{m}", m.to_string().len());
    let mut next = || {
        let (mut header, mut blank) = (String::new(), String::new());
        from.read_line(&mut header).and_then(|_| from.read_line(&mut blank)).expect("the server writes");
        let length = header.trim().strip_prefix("Content-Length: ").and_then(|n| n.parse().ok()).expect("a length");
        let mut body = vec![0; length];
        from.read_exact(&mut body).expect("the server writes");
        serde_json::from_slice::<serde_json::Value>(&body).expect("JSON")
    };
    let document = json!({"uri": "file:///g", "languageId": "referee", "version": 1, "text": ILLEGAL});
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
        .and(send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})))
        .and(send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}})))
        .expect("the server reads");
    let published = std::iter::repeat_with(&mut next).find(|m| m["method"] == "textDocument/publishDiagnostics");
    let first = published.map(|p| p["params"]["diagnostics"][0].clone()).unwrap_or_default();
    let bye = send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    bye.and(send(json!({"jsonrpc": "2.0", "method": "exit"}))).expect("the server reads");
    let code = server.wait().expect("it ends").code();
    assert!(first["message"].as_str().is_some_and(|m| m.contains("c3 already holds a Black stone")), "{first}");
    let start = &first["range"]["start"];
    assert_eq!((code, start["line"].as_u64(), start["character"].as_u64()), (Some(0), Some(3), Some(12)));
    std::fs::remove_dir_all(&dir).ok();
    ExitCode::SUCCESS
}
