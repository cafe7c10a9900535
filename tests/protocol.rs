//! The referee game protocol (docs/protocol.md), engine side: `referee engine` answers every
//! command for every game as the library counts and lists (`referee moves`, `referee perft`),
//! answers what it cannot do with `error`, and no input makes it hang or stop answering.

use std::io::Write;
use std::process::{Command, Stdio};

use referee::games::GameKind;
use referee::judge::Registry;
use referee::perft::{moves_written, with_position, WithPosition};
use referee::protocol::serve;

/// The answers of a session to `commands`, one a line.
fn session(commands: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    serve(Registry, 1, referee::protocol::Player::Random, commands, &mut out).expect("a session in memory");
    String::from_utf8(out).expect("answers in UTF-8").lines().map(String::from).collect()
}

/// In every game, from its start and after three moves `go` chose: `moves` lists what `referee
/// moves` lists (each written once), `perft 2` counts what `referee perft` counts, and `divide 2`
/// adds up to it.
#[test]
fn every_game_answers_moves_perft_and_divide_as_the_library_counts() {
    struct Counts;
    impl WithPosition for Counts {
        type Output = (Vec<String>, u64);
        fn run<G: referee::game::Engine>(self, position: G) -> (Vec<String>, u64) {
            let mut written = moves_written(&position);
            written.dedup();
            (written, referee::perft::perft(&position, 2))
        }
    }
    for game in GameKind::ALL {
        let name = game.about().name;
        let mut played: Vec<String> = Vec::new();
        for _ in 0..4 {
            let position = format!("position start {name} moves {}", played.join(" "));
            let answers = session(format!("{position}\nmoves\nperft 2\ndivide 2\ngo\n").as_bytes());
            let moves: Vec<String> = answers[0].split_whitespace().skip(1).map(String::from).collect();
            assert_eq!(answers[0].split_whitespace().next(), Some("moves"), "{name}: {answers:?}");
            let perft: u64 = answers[1].strip_prefix("perft 2 ").and_then(|n| n.parse().ok()).expect("perft 2 N");
            let divided: u64 = answers
                .iter()
                .filter_map(|l| l.strip_prefix("divide "))
                .map(|l| l.rsplit_once(' ').and_then(|(_, n)| n.parse::<u64>().ok()).expect("divide M N"))
                .sum();
            let total = answers.iter().find_map(|l| l.strip_prefix("divideok 2 ")).expect("divideok");
            assert_eq!((divided, total.parse::<u64>().unwrap()), (perft, perft), "{name}");
            // The library's own count of the same position, from its code.
            let code = referee::protocol::held_start(Registry, name, None, None)
                .and_then(|mut p| {
                    played.iter().try_for_each(|m| p.play(m))?;
                    Ok(p.code())
                })
                .expect("the position");
            let (expected, count) = with_position(&code, Counts).expect("a code");
            let mut unique = expected.clone();
            unique.sort();
            unique.dedup();
            let mut listed = moves.clone();
            listed.sort();
            assert_eq!(listed, unique, "{name} after {played:?}");
            assert_eq!(perft, count, "{name} after {played:?}");
            let Some(best) = answers.last().and_then(|l| l.strip_prefix("bestmove ")) else { break };
            assert!(moves.iter().any(|m| m == best), "{name}: {best} is not among {moves:?}");
            played.push(best.to_string());
        }
    }
}

/// What a session cannot do is answered `error ...`, and the session goes on: an unknown command,
/// a game that is not one, an illegal move, a depth past the bound, a command before any
/// position, a line that is not UTF-8, a line past the bound.
#[test]
fn anything_it_cannot_do_is_answered_with_an_error_and_the_session_goes_on() {
    let mut input = b"moves\nhello\nposition start chess\nposition start quarod size 4 moves a1a1\nperft 21\n".to_vec();
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend(std::iter::repeat_n(b'x', (referee::protocol::MAX_LINE + 10) as usize));
    input.extend_from_slice(b"\nisready\nquit\nisready\n");
    let answers = session(&input);
    assert_eq!(
        answers,
        [
            "error no position yet: send position first",
            "error unknown command hello",
            "error no game is named chess",
            "error move 1 of the position: a1a1 is not a legal move here",
            "error the depth is a number from 0 to 20, not 21",
            "error a command line is text in UTF-8",
            "error a command line is at most 1048576 bytes",
            "readyok",
        ]
    );
}

/// A command takes exactly the words docs/protocol.md gives it: more are refused, as `go`'s
/// options other than `movetime MS` are; `divide 0` lists no move and totals `perft 0`, 1.
#[test]
fn a_command_with_words_it_does_not_take_is_refused() {
    let input = b"position start quarod size 2\nmoves x\nresult now\nisready 1\ngo depth 3\ngo movetime abc\n\
        divide 0\nperft 0\nquit x\ngo movetime 5\nquit\n";
    let answers = session(input);
    assert_eq!(
        answers[..8],
        [
            "error moves takes nothing after it, not x",
            "error result takes nothing after it, not now",
            "error isready takes nothing after it, not 1",
            "error go takes movetime MS, not depth 3",
            "error movetime takes a number of milliseconds, not abc",
            "divideok 0 1",
            "perft 0 1",
            "error quit takes nothing after it, not x",
        ]
    );
    // The session went on after `quit x`: `go` was answered, and `quit` ended it.
    assert_eq!(answers.len(), 9);
    assert!(answers[8].starts_with("bestmove "), "{answers:?}");
}

/// `referee engine` as a process: the handshake, a position and its moves, through pipes, and the
/// session ends at quit.
#[test]
fn the_engine_process_speaks_the_protocol_through_its_pipes() {
    let mut engine = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("referee engine runs");
    engine
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"rgp\nposition code quarod_2/2_b_0_0_-_-\nmoves\nquit\n")
        .expect("the commands are sent");
    let out = engine.wait_with_output().expect("it ends");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "id name referee engine\nid author the referee project\nrgpok\nmoves a1b1 a1a2 b1b2 b1a1 a2a1 a2b2 b2b1 b2a2\n"
    );
}

/// `result` says `*` while a game goes on and its result token once it is over: every game played
/// to its end by `go`, move after move, and the record of that game, written by hand from the
/// moves, confirms the same result when `referee verify` judges it (the common format's games).
#[test]
fn every_game_played_to_its_end_by_go_has_its_result() {
    for game in GameKind::ALL {
        let name = game.about().name;
        let mut played: Vec<String> = Vec::new();
        let result = loop {
            let answers = session(format!("position start {name} moves {}\nresult\ngo\n", played.join(" ")).as_bytes());
            let result = answers[0].strip_prefix("result ").expect("result R").to_string();
            match answers[1].strip_prefix("bestmove ") {
                Some(m) => {
                    assert_eq!(result, "*", "{name}: the game goes on");
                    played.push(m.to_string());
                }
                None => {
                    assert_eq!(answers[1], "error the game is over: no move", "{name}");
                    break result;
                }
            }
            assert!(played.len() < 2000, "{name}: no end");
        };
        assert!(result.split('-').all(|p| p == "0" || p == "1"), "{name}: {result}");
        assert!(result.matches('1').count() <= 1, "{name}: {result}");
        if game.about().format == referee::game::Format::Common {
            let numbered: Vec<String> = played
                .iter()
                .enumerate()
                .map(|(k, m)| if k % 2 == 0 { format!("{}. {m}", k / 2 + 1) } else { m.clone() })
                .collect();
            let text = format!("[Game \"{name}\"]\n\n{} {result}\n", numbered.join(" "));
            let v = &referee::verify_source(&text, Default::default())[0];
            assert_eq!(v.status, referee::Status::Valid, "{name}: {:?}\n{text}", v.problems);
        }
    }
}
