//! The reader on real collections: every record of either notation found in any text, in order,
//! each read by its own game; one test per case a user met, each on a small input written for it.

use referee::games::GameKind;
use referee::record::{self, Found, MAX_SYNTAX_ERRORS, MAX_TAGS, MAX_TOKENS};
use referee::replay::LEGAL_LISTED;
use referee::report;
use referee::verdict::{ClaimStatus, ProblemKind, Status, Verdict};
use referee::verify::{position_diagram, verify_source, VerifyOptions};

fn sample(path: &str) -> String {
    std::fs::read_to_string(format!("{}/samples/{path}", env!("CARGO_MANIFEST_DIR"))).expect("sample")
}

fn verify(src: &str) -> Vec<Verdict> {
    verify_source(src, VerifyOptions::default())
}

fn summary(verdicts: &[Verdict]) -> Vec<(Option<GameKind>, Status)> {
    verdicts.iter().map(|v| (v.game.map(|g| GameKind::from_name(g.name).unwrap()), v.status)).collect()
}

fn messages(v: &Verdict) -> Vec<&str> {
    v.problems.iter().map(|p| p.message.as_str()).collect()
}

const QUARTZ: &str = "quarod/random-size-4.txt";
const QUADRA: &str = "quadraphages/random-seed-1.txt";

#[test]
fn a_published_record_then_a_common_one_are_both_found() {
    let text = format!("{}\n{}", sample(QUADRA), sample(QUARTZ));
    let v = verify(&text);
    assert_eq!(summary(&v), [(Some(GameKind::Quadraphages), Status::Valid), (Some(GameKind::Quarod), Status::Valid)]);
    assert_eq!(v.iter().map(|v| v.index).collect::<Vec<_>>(), [1, 2]);
}

#[test]
fn a_published_record_after_a_common_one_is_found() {
    let text = format!("{}\n{}", sample(QUARTZ), sample(QUADRA));
    assert_eq!(
        summary(&verify(&text)),
        [(Some(GameKind::Quarod), Status::Valid), (Some(GameKind::Quadraphages), Status::Valid)]
    );
}

#[test]
fn prose_before_between_and_after_common_records_is_ignored() {
    let quarod = sample(QUARTZ);
    let petrify = sample("petrify/random-size-6.txt");
    let text = format!(
        "From the club's forum, a post:\n\n{quarod}\nNice one. Here is mine, it was close.\n\n{petrify}\nThat's all, thanks for reading!\n- posted by Ann\n"
    );
    let v = verify(&text);
    assert_eq!(
        summary(&v),
        [(Some(GameKind::Quarod), Status::Valid), (Some(GameKind::Petrify), Status::Valid)],
        "{:?}",
        v.iter().map(messages).collect::<Vec<_>>()
    );
    assert!(v.iter().all(|v| v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed)));
}

#[test]
fn a_byte_order_mark_before_the_tags_changes_nothing() {
    let plain = sample(QUARTZ);
    let with_bom = format!("\u{feff}{plain}");
    let v = verify(&with_bom);
    assert_eq!(summary(&v), [(Some(GameKind::Quarod), Status::Valid)]);
    assert_eq!(v[0].moves, verify(&plain)[0].moves);
}

#[test]
fn files_that_each_open_with_a_byte_order_mark_joined_read_as_without_them() {
    // `cat a.txt b.txt` of two files saved with a byte-order mark: the second one opens a line.
    let quarod = sample(QUARTZ);
    let quadra = sample(QUADRA);
    let joined = format!("\u{feff}{quarod}\n\u{feff}{quarod}\n\u{feff}{quadra}");
    let plain = format!("{quarod}\n{quarod}\n{quadra}");
    let (v, expected) = (verify(&joined), verify(&plain));
    assert_eq!(summary(&v), summary(&expected));
    assert_eq!(summary(&v)[1], (Some(GameKind::Quarod), Status::Valid));
    assert_eq!(v.iter().map(|v| v.moves).collect::<Vec<_>>(), expected.iter().map(|v| v.moves).collect::<Vec<_>>());
    // The mark is no column: the second record's tag is at column 1 of its line.
    let second = record::read(&joined, None).nth(1).expect("a second record").span();
    assert_eq!(&joined[second.clone()][..5], "[Game");
    assert_eq!(report::line_col(&joined, second.start).1, 1);
}

/// The verdicts of `text`, each as the human report writes it.
fn reports(text: &str) -> String {
    let source = report::Source::new("record.txt", std::sync::Arc::new(text.to_string()));
    verify(text).iter().map(|v| report::human(&source, v, report::HumanStyle::default())).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_tag_given_twice_is_a_syntax_error_at_the_second_whatever_its_value() {
    let record = |tags: &str| format!("{tags}\n\n1. d1d2 *\n");
    // The tags, and the repeat the error is at.
    let cases = [
        // Two results that disagree: neither is the claim.
        ("[Game \"Quarod\"]\n[Size \"4\"]\n[Result \"0-1\"]\n[Result \"1-0\"]", "[Result \"1-0\"]"),
        // Whatever the case of the name, and on one line.
        ("[Game \"Quarod\"] [Size \"4\"] [size \"6\"]", "[size \"6\"]"),
        // The same value twice is a repeat all the same.
        ("[Game \"Quarod\"]\n[Size \"4\"]\n[GAME \"Quarod\"]", "[GAME \"Quarod\"]"),
    ];
    let mut out = Vec::new();
    for (tags, repeat) in cases {
        let text = record(tags);
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError, "{text}");
        assert_eq!(v.problems.len(), 1, "{:?}", messages(v));
        assert_eq!(&text[v.problems[0].span.clone()], repeat);
        out.push(reports(&text));
    }
    insta::assert_snapshot!(out.join("\n"));
}

#[test]
fn crlf_and_lone_cr_line_ends_read_as_lf() {
    let text = format!("{}\n{}", sample(QUADRA), sample(QUARTZ));
    let expected = summary(&verify(&text));
    for ending in ["\r\n", "\r"] {
        let other = text.replace('\n', ending);
        let v = verify(&other);
        assert_eq!(summary(&v), expected, "line ending {ending:?}");
        // Spans still point at the same tokens.
        let claim = &v[1].claims[0];
        assert_eq!(&other[claim.span.clone()], "0-1");
    }
}

#[test]
fn an_unknown_game_is_a_located_error_naming_the_known_games_and_no_guess() {
    let text = sample(QUARTZ).replace("Quarod", "Chess");
    let v = &verify(&text)[0];
    assert_eq!((v.game, v.status), (None, Status::SyntaxError));
    let known = GameKind::ALL.map(|g| g.name()).join(", ");
    assert_eq!(messages(v), [format!("unknown game `Chess`: referee knows {known}")]);
    assert_eq!(&text[v.problems[0].span.clone()], "Chess");
}

#[test]
fn a_missing_game_tag_is_a_located_error_and_game_supplies_it() {
    let text: String = sample(QUARTZ).lines().filter(|l| !l.starts_with("[Game")).map(|l| format!("{l}\n")).collect();
    let v = &verify(&text)[0];
    assert_eq!((v.game, v.status), (None, Status::SyntaxError));
    assert_eq!(
        messages(v),
        ["the record has no [Game \"...\"] tag: add one, such as [Game \"Quarod\"], or name the game with --game"]
    );
    assert_eq!(v.problems[0].span.start, 0, "at the record's first tag");
    let given =
        verify_source(&text, VerifyOptions { game: Some(GameKind::Quarod.about()), ..VerifyOptions::default() });
    assert_eq!(summary(&given), [(Some(GameKind::Quarod), Status::Valid)]);
}

#[test]
fn game_reads_movetext_without_tags_as_that_game() {
    let movetext = "Our game:\n\n1. c1d1 d3c3 2. b4a4 a3b3 3. b1b2 d4c4 4. a3xa4 a2a1 5. a3xa2 d2c2 6. c2xc1\nb1xc1 7. pass pass 0-1\n\nGood game.\n";
    let options = VerifyOptions { game: Some(GameKind::Quarod.about()), ..VerifyOptions::default() };
    let v = verify_source(movetext, options);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].game, Some(GameKind::Quarod.about()));
    // Without a Size tag the board is Quarod's default 8x8, where Black could still place.
    assert_eq!(messages(&v[0]), ["Black may not pass: a placement on e1/f1 is possible"]);
}

#[test]
fn a_move_number_glued_to_its_first_token_is_read() {
    let text = sample("hexaphages/random-seed-1.txt").replace("8. ---- ---- 3", "8.---- ---- 3");
    let v = &verify(&text)[0];
    assert_eq!(v.status, Status::Valid, "{:?}", messages(v));
    assert!(v.game_over);
    assert_eq!(v.claims[0].text, "X wins 17-16");
    assert_eq!(v.claims[0].status, ClaimStatus::Confirmed);
}

#[test]
fn a_record_with_tags_and_no_moves_is_reported_as_such() {
    let v = &verify("[Game \"Quarod\"]\n[Size \"4\"]\n\nNothing was played.\n")[0];
    assert_eq!(v.status, Status::SyntaxError);
    assert!(messages(v).iter().any(|m| m.starts_with("the record has no moves and no result")), "{:?}", messages(v));
    let v = &verify("[Game \"Quarod\"]\n[Size \"4\"]\n")[0];
    assert_eq!(
        messages(v),
        ["the record has no moves and no result, so there is nothing to verify: write its moves, or `*` for a game not yet begun"]
    );
    // `*` alone is a game not begun: valid, no result claimed.
    let v = &verify("[Game \"Quarod\"]\n[Size \"4\"]\n\n*\n")[0];
    assert_eq!((v.status, v.moves), (Status::Valid, 0));
}

#[test]
fn text_after_the_result_token_on_its_line_is_one_error_and_stops_the_record() {
    let base = sample(QUARTZ);
    for (after, shown) in [("4.", "4."), ("pass", "pass"), ("oops", "oops"), ("oops {why} d4", "oops {why} d4")] {
        let text = base.replace("pass pass 0-1", &format!("pass pass 0-1 {after}"));
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError, "{after}");
        assert_eq!(
            messages(v),
            [format!("nothing may follow the result token on its line, but `{shown}` does").as_str()],
            "{after}"
        );
        assert!(v.claims.is_empty(), "claims are not judged on a record with syntax errors");
        assert_eq!(v.moves, 0, "nothing is replayed");
    }
    // A comment may follow the result; later lines are prose.
    let text = base.replace("pass pass 0-1", "pass pass 0-1 {a fine game}\n4. this line is prose");
    assert_eq!(summary(&verify(&text)), [(Some(GameKind::Quarod), Status::Valid)]);
}

#[test]
fn a_board_too_small_for_any_start_is_undecided() {
    let v = &verify("[Game \"Splinter Quad\"]\n[Size \"4\"]\n\n1. a1a2 *\n")[0];
    assert_eq!(v.status, Status::Undecided);
    assert_eq!(v.problems[0].kind, ProblemKind::Undecided);
    assert_eq!(
        messages(v),
        ["there is no game: the 4x4 board is too small for the default start of 4 players (a 6x6 block), and no setup diagram was given"]
    );
    assert!(v.claims.is_empty());
}

#[test]
fn a_record_past_the_token_limit_is_a_syntax_error_at_its_first_token_too_many() {
    // One line of stays after a legal start, in either notation: the tokens past the limit are
    // not held, and the error says where and why.
    let published =
        format!("_xx_ _oo_\n1. .... .... 8 a7i7 i3a3 c1c9 g9g1 6 c9c3 g1a1 {}\n", "---- ".repeat(MAX_TOKENS));
    let common = format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. {}*\n", "pass ".repeat(MAX_TOKENS + 10));
    for (text, first) in [(published, 10), (common, 0)] {
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError);
        assert_eq!(
            messages(v),
            [format!(
                "this is token {} of the record: referee reads at most {MAX_TOKENS} tokens of one record, far more \
                 than any real record has, so this record is not verified",
                MAX_TOKENS + 1
            )]
        );
        // The record's own tokens before the stays or passes, then the stays or passes up to it.
        let span = v.problems[0].span.clone();
        let token = &text[span.clone()];
        assert!(token == "----" || token == "pass", "{token}");
        let before = text[..span.start].split_ascii_whitespace().filter(|w| *w == token).count();
        assert_eq!(before + first, MAX_TOKENS, "the error is at the first token past the limit");
    }
    // On many lines, the lines past the limit are held as one: the record still spans them all.
    let lines = MAX_TOKENS / 4 + 1000;
    let text = format!(
        "_xx_ _oo_\n1. .... .... 8 a7i7 i3a3 c1c9 g9g1 6 c9c3 g1a1\n{}",
        (2..lines).map(|n| format!("{n} ---- ---- ---- ----\n")).collect::<String>()
    );
    let records = record::parse(&text);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].tokens.len(), MAX_TOKENS);
    assert!(records[0].lines.len() <= MAX_TOKENS / 4 + 1, "{} lines held", records[0].lines.len());
    assert_eq!(records[0].span.end, text.trim_end().len());
    // At the limit a record is read as any other.
    let text = format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. {}*\n", "pass ".repeat(MAX_TOKENS - 1));
    assert_ne!(verify(&text)[0].status, Status::SyntaxError);
}

#[test]
fn a_record_past_the_tag_limit_is_a_syntax_error_at_its_first_tag_too_many() {
    let tag = |i: usize| format!("[T{i} \"v\"]");
    let tags = |sep: &str| (1..=MAX_TAGS + 5).map(tag).collect::<Vec<_>>().join(sep);
    for sep in [" ", "\n"] {
        let text = format!("[Game \"Quarod\"]\n[Size \"4\"]\n{}\n\n1. a1b1 *\n", tags(sep));
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError);
        assert_eq!(
            messages(v),
            [format!(
                "this is tag {} of the record: referee reads at most {MAX_TAGS} tags of one record, far more than \
                 any real record has, so this record is not verified",
                MAX_TAGS + 1
            )]
        );
        // `Game` and `Size` are the first two tags.
        assert_eq!(&text[v.problems[0].span.clone()], tag(MAX_TAGS - 1));
    }
}

#[test]
fn diagrams_with_rows_past_any_board_are_located_syntax_errors() {
    let row = |n: usize, number: usize| format!("{}{number}\n", ". ".repeat(n));
    let moves = "_xx_ _oo_\n1. .... .... 8 a7i7 i3a3 c1c9 g9g1 6 c9c3 g1a1\n";
    let published_long_row = format!("Startup:\n{}{}{moves}", row(30, 1), row(30, 2));
    let published_many_rows = format!("Startup:\n{}{moves}", (1..=30).map(|r| row(1, r)).collect::<String>());
    let common_long_row = format!(
        "[Game \"Quarod\"]\n\nSetup:\na b c d\n{}{}\n1. pass *\n",
        row(30, 1),
        (2..=4).map(|r| row(4, r)).collect::<String>()
    );
    let common_many_rows = format!(
        "[Game \"Quarod\"]\n\nSetup:\na b c d\n{}\n1. pass *\n",
        (1..=30).map(|r| row(1, r)).collect::<String>()
    );
    let mut out = Vec::new();
    for text in [published_long_row, published_many_rows, common_long_row, common_many_rows] {
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError, "{text}");
        assert_eq!(v.problems.len(), 1, "{:?}", messages(v));
        out.push(reports(&text));
    }
    insta::assert_snapshot!(out.join("\n"));
}

#[test]
fn syntax_errors_are_capped_per_record_and_say_more_follow() {
    let common = format!("[Game \"Quarod\"]\n\n1. {}\n", "zz@ ".repeat(5000));
    let published = format!("1. .... .... 1 a7a8 i3i2 {}\n", "@@@ ".repeat(5000));
    for text in [common, published] {
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError);
        assert_eq!(v.problems.len(), MAX_SYNTAX_ERRORS + 1);
        assert_eq!(
            v.problems.last().unwrap().message,
            format!("more syntax errors follow: referee lists the first {MAX_SYNTAX_ERRORS} of a record")
        );
    }
}

#[test]
fn an_illegal_move_lists_a_few_dozen_legal_moves_and_counts_them_all() {
    let v = &verify("[Game \"Quarod\"]\n[Size \"26\"]\n\n1. a1c3 *\n")[0];
    assert_eq!(v.status, Status::Illegal);
    let p = &v.problems[0];
    assert_eq!(p.legal.len(), LEGAL_LISTED);
    // Every pair of orthogonally adjacent squares, placed either way round.
    assert_eq!(p.legal_count, 2 * 2 * 26 * 25);
    assert!(p.board.is_some());
}

/// Each violation of a lenient replay keeps the board before it, and the human report draws it
/// under that violation: the first one's board is where strict replay stops, the last one's is
/// later in the game.
#[test]
fn lenient_replay_keeps_a_board_for_every_violation_and_draws_it_under_it() {
    let text = std::sync::Arc::new(sample("quadraphages/blog-game-sample.txt"));
    let v = &verify_source(&text, VerifyOptions { lenient: true, ..VerifyOptions::default() })[0];
    let boards: Vec<String> = v.problems.iter().filter_map(|p| p.board.as_ref().map(|b| b.diagram())).collect();
    let illegal = v.problems.iter().filter(|p| p.kind == ProblemKind::Illegal).count();
    assert!(illegal > 1, "{:?}", messages(v));
    assert_eq!(boards.len(), illegal, "a board per illegal move, none for a refuted claim");
    let (strict_stop, _) = position_diagram(&text, 1, None, VerifyOptions::default()).unwrap();
    assert_eq!(boards[0], strict_stop);
    assert_ne!(boards[0], boards[illegal - 1]);

    let source = report::Source::new("blog-game-sample.txt", text.clone());
    let human = report::human(&source, v, report::HumanStyle::default());
    // One block per problem, each illegal move's with its own board and nothing else's.
    let blocks: Vec<&str> = human.split("\nError: ").collect();
    assert_eq!(blocks.len(), v.problems.len(), "{human}");
    for (block, p) in blocks.iter().zip(&v.problems) {
        assert!(block.contains(&p.message), "{block}");
        let drawn = block.split_once("  board before that move:\n").map(|(_, b)| b);
        match &p.board {
            Some(board) => {
                let indented: String = board.diagram().lines().map(|l| format!("    {l}\n")).collect();
                assert!(drawn.is_some_and(|d| d.starts_with(&indented)), "{block}");
            }
            None => assert!(drawn.is_none(), "{block}"),
        }
    }
}

#[test]
fn the_reader_hands_records_on_one_at_a_time_in_file_order() {
    let text = format!("{}\nprose\n{}\n{}", sample(QUADRA), sample(QUARTZ), sample("hexaphages/random-seed-2.txt"));
    let mut reader = record::read(&text, None);
    let first = reader.next().expect("a record");
    assert!(matches!(first, Found::Published(_)));
    let rest: Vec<_> = reader.collect();
    assert!(matches!(rest[..], [Found::Common(_), Found::Published(_)]));
    let starts: Vec<usize> = std::iter::once(&first).chain(&rest).map(|f| f.span().start).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    assert_eq!(rest.iter().map(Found::index).collect::<Vec<_>>(), [2, 3]);
}

#[test]
fn a_final_diagram_waits_for_its_record_at_most_a_thousand_lines_of_prose() {
    let text = sample("quadraphages/designers-game-2.txt");
    let (moves, diagram) = text.split_at(text.find("\n\n").map_or(0, |i| i + 2));
    assert!(!diagram.is_empty());
    // The blank line after the moves counts among the lines waited.
    for (prose, attached) in [(record::MAX_WAIT_LINES - 2, true), (record::MAX_WAIT_LINES - 1, false)] {
        let spaced = format!("{moves}{}{diagram}", "a line of prose\n".repeat(prose));
        let records: Vec<_> = record::read(&spaced, None).collect();
        assert_eq!(records.len(), 1);
        let Found::Published(r) = &records[0] else { panic!("published") };
        assert_eq!(r.final_position.is_some(), attached, "{prose} lines of prose");
    }
}

/// The mistakes of a record written by hand, each with an error on its line that says what to
/// write (grammar.md, "Writing a record by hand"): the human report of each, one snapshot.
#[test]
fn hand_written_mistakes_get_errors_that_say_what_to_write() {
    let cases = [
        ("quadraphages-no-fillers.txt", "QUADRAPHAGES\n_xx_ _oo_\n1. 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n"),
        ("hexaphages-no-fillers.txt", "HEXAPHAGE\n_xx_ _oo_\n1. 1 j5h5 d3e4\n"),
        ("quarod-half-points.txt", "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 a2a3 1/2-1/2\n"),
        ("petrify-draw.txt", "[Game \"Petrify\"]\n[Size \"6\"]\n\n1. c3 d4 2. e5 b2 draw {agreed}\n"),
        ("vadrantir-halves.txt", "[Game \"Vadrantir\"]\n[Size \"5\"]\n\n1. e5 g5 ½-½\n"),
        ("splinter-decimals.txt", "[Game \"Splinter Quad\"]\n[Players \"3\"]\n\n1. e6e5 0.5-0.5-0\n"),
        ("quarod-two-winners.txt", "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 a2a3 1-1\n"),
        ("quarod-tag-draw.txt", "[Game \"Quarod\"]\n[Size \"4\"]\n[Result \"1/2-1/2\"]\n\n1. d1d2 a2a3\n"),
    ];
    let mut reports = String::new();
    for (name, src) in cases {
        let verdicts = verify(src);
        assert_eq!(verdicts.len(), 1, "{name}");
        let source = report::Source::new(name.to_string(), std::sync::Arc::new(src.to_string()));
        reports.push_str(&report::human(&source, &verdicts[0], report::HumanStyle::default()));
        reports.push('\n');
    }
    insta::assert_snapshot!(reports);
    // Numbered prose is still prose.
    assert!(record::parse("1. 2 eggs\n2. 3 cups of flour\n").is_empty());
}

#[test]
fn control_and_bidirectional_characters_are_shown_escaped_in_every_report() {
    let records = [
        // A NUL inside a tag's value: invisible on a terminal. (Not in the game's name, whose error
        // lists the registry's games: this snapshot does not change when a game is added.)
        "[Game \"Quarod\"]\n[Size \"4\0\"]\n\n1. d1d2 *\n",
        // U+202E inside a token turns the rest of the line around; an escape sequence would colour it.
        "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3\u{202e}c3 \u{1b}[31m *\n",
        // Hidden characters before the problem on its line: its column is the file's.
        "[Event \"a\u{1}b\u{2066}\"] [Game \"Quarod\"] [Size \"x\"]\n\n1. c1d1 *\n",
    ];
    let mut out = Vec::new();
    for text in records {
        let source = report::Source::new("hidden.txt", std::sync::Arc::new(text.to_string()));
        for v in verify(text) {
            let human = report::human(&source, &v, report::HumanStyle::default());
            let short = report::short_lines(&source, &v, false);
            let json = report::json_line(&source, &v);
            for shown in [&human, &short, &json] {
                assert!(!shown.contains(|c: char| report::is_hidden(c)), "{shown:?}");
            }
            // The JSON reads back as the record's own text.
            let read: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(read["errors"][0]["token"].as_str(), Some(&text[v.problems[0].span.clone()]));
            out.extend([human, short, json]);
        }
    }
    insta::assert_snapshot!(out.join("\n"));
}

#[test]
fn size_and_players_tags_past_any_game_name_the_number_at_the_value() {
    let cases = [
        ("[Game \"Quarod\"]\n[Size \"300\"]", "300", "the Size tag is 300: no board is that large"),
        (
            "[Game \"Quarod\"]\n[Size \"99999999999999999999999\"]",
            "99999999999999999999999",
            "the Size tag is 99999999999999999999999: no board is that large",
        ),
        ("[Game \"Splinter\"]\n[Players \"300\"]", "300", "the Players tag is 300: no game has that many players"),
        // Up to 255 the game says which numbers it takes.
        (
            "[Game \"Quarod\"]\n[Size \"100\"]",
            "100",
            "Quarod is played on square boards from 2x2 to 26x26, not 100x100",
        ),
    ];
    for (tags, value, message) in cases {
        let text = format!("{tags}\n\n1. a1b1 *\n");
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::SyntaxError, "{text}");
        assert_eq!(messages(v), [message]);
        assert_eq!(&text[v.problems[0].span.clone()], value);
    }
}

/// A record of the common format waits for its final diagram through at most 1,000 blank lines,
/// as a published record waits for its own: one more, and the diagram is not the record's.
#[test]
fn a_final_diagram_past_a_thousand_blank_lines_is_not_the_records() {
    let record = sample(QUARTZ);
    let (moves, diagram) = record.split_once("\n\nFinal Position:").expect("a final diagram");
    for (blanks, kept) in [(1000, true), (1001, false)] {
        let text = format!("{moves}\n{}Final Position:{diagram}", "\n".repeat(blanks));
        let found: Vec<Found> = record::read(&text, None).collect();
        let Found::Common(first) = &found[0] else { panic!("a record of the common format") };
        assert_eq!(first.final_position.is_some(), kept, "{blanks} blank lines");
        let v = &verify(&text)[0];
        assert_eq!(v.status, Status::Valid, "{blanks} blank lines: {:?}", messages(v));
    }
    // The same bound between the tags and the movetext.
    let (tags, movetext) = record.split_once("\n\n").unwrap();
    for (blanks, moves) in [(1000, true), (1001, false)] {
        let text = format!("{tags}\n{}{movetext}", "\n".repeat(blanks));
        let Found::Common(first) = record::read(&text, None).next().unwrap() else { panic!("common") };
        assert_eq!(!first.tokens.is_empty(), moves, "{blanks} blank lines");
    }
}

/// A reader that pauses ([`record::Reader::pause_at`]) at any offsets finds the same records, and
/// pauses only where it could start again: reading from there finds the records that follow.
#[test]
fn a_reader_that_pauses_finds_what_one_that_does_not_finds() {
    let text = [QUADRA, QUARTZ, "mixed/newsletter-crlf-bom.txt", "mixed/old-mac-cr.txt", "quadraphages/blog-page.txt"]
        .iter()
        .map(|p| sample(p))
        .collect::<Vec<_>>()
        .join("\nSome prose between the records.\n\n");
    let whole: Vec<Found> = record::read(&text, None).collect();
    let mut rng = fastrand::Rng::with_seed(31);
    for _ in 0..200 {
        let step = rng.usize(1..text.len() / 4);
        let mut reader = record::read(&text, None);
        let mut found = Vec::new();
        let mut at = rng.usize(..step);
        reader.pause_at(at);
        loop {
            match reader.next() {
                Some(f) => found.push(f),
                None if reader.paused() => {
                    let point = reader.resume();
                    assert!(point.offset >= at, "paused at {} before {at}", point.offset);
                    let from: Vec<Found> = record::read_window(&text, None, point, None).collect();
                    assert_eq!(from.as_slice(), &whole[point.found..], "reading again from {point:?}");
                    at = point.offset + step;
                    reader.pause_at(at);
                }
                None => break,
            }
        }
        assert_eq!(found, whole, "pausing every {step} bytes");
    }
}
