//! `verify -` on a pipe that stays open (`tail -f games.log | referee verify -`): each record is
//! judged, and its verdict printed and flushed, as soon as its end is read, not when the input
//! closes or a megabyte has arrived.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

/// Only a guard against a hang: a verdict that never comes fails the test instead of blocking it.
const HANG_GUARD: Duration = Duration::from_secs(120);

fn verdict(lines: &mpsc::Receiver<String>, what: &str) -> serde_json::Value {
    let line =
        lines.recv_timeout(HANG_GUARD).unwrap_or_else(|e| panic!("no verdict for {what} while the pipe is open: {e}"));
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

#[test]
fn records_piped_to_verify_are_judged_while_the_pipe_stays_open() {
    let mut child = support::referee_process()
        .args(["verify", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (send, lines) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let write = |stdin: &mut std::process::ChildStdin, text: &str| {
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    };

    // A published record written in two pieces, as a game is logged while it is played: the first
    // piece ends with a move line, which the next line may continue, so the record is not judged
    // until its end is read; the blank line after its claim is that end.
    let published = std::fs::read_to_string("samples/quadraphages/random-seed-1.txt").unwrap();
    let moves: Vec<&str> = published.lines().take_while(|l| !l.starts_with("Final")).collect();
    write(&mut stdin, &(moves[..8].join("\n") + "\n"));
    write(&mut stdin, &(moves[8..].join("\n") + "\n\n"));
    let v = verdict(&lines, "a published record followed by a blank line");
    assert_eq!((v["index"].as_u64(), v["status"].as_str()), (Some(1), Some("valid")), "{v}");
    assert_eq!(v["game_over"].as_bool(), Some(true), "the whole record is judged as one: {v}");

    // A common record closes itself with its final diagram: no blank line needs to follow.
    let (code, quarod, _) = support::run(&["random", "--game", "quarod", "--size", "4", "--seed", "3"]);
    assert_eq!(code, 0);
    assert!(quarod.trim_end().ends_with("4."), "it ends with its final diagram: {quarod}");
    write(&mut stdin, &quarod);
    let v = verdict(&lines, "a common record ending with its final diagram");
    assert_eq!(
        (v["index"].as_u64(), v["game"].as_str(), v["status"].as_str()),
        (Some(2), Some("quarod"), Some("valid"))
    );

    // A common record without a final diagram closes itself with its result token.
    let result = quarod.find(" 1-0").expect("a result token") + " 1-0".len();
    write(&mut stdin, &(quarod[..result].to_string() + "\n"));
    let v = verdict(&lines, "a common record ending with its result token");
    assert_eq!((v["index"].as_u64(), v["status"].as_str()), (Some(3), Some("valid")), "{v}");

    drop(stdin);
    let status = child.wait().expect("exits");
    reader.join().expect("reader");
    assert_eq!(lines.try_iter().count(), 0, "each record is judged once");
    assert_eq!(status.code(), Some(0));
}
