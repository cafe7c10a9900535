//! The properties every game must have, checked over every game of the registry
//! (`GameKind::ALL`) and over the board sizes and player counts each declares in its `About`.
//! No game is named here, so a game added to the registry is tested here from the start.
//!
//! For random games of each setup:
//! - the record verifies as valid, of its game, with its claimed result confirmed;
//! - every position's code reads back and is written again the same way;
//! - every legal move of every position is written, read back and resolved as a legal move written
//!   the same way: as itself, unless the notation writes several moves alike (the notation
//!   round-trips);
//! - the record converts to JSON and back, and the canonical record verifies as the original does.
//!
//! And for any setup and any seed (proptest), the game and the game cut after any move:
//! - the record verifies as valid, its claims confirmed;
//! - every position of its replay reads back from its code as the same position (the same key,
//!   legal moves and end);
//! - the record of the game cut there (written from its document) verifies as valid, is its own
//!   canonical layout, and goes to JSON and back to the same document.

use proptest::prelude::*;

use referee::convert;
use referee::format::{OpenRecord, WithOpenRecord};
use referee::format::{Recorded, WithGame};
use referee::game::code::Coded;
use referee::game::{Game, SearchKey};
use referee::games::{game_of, GameKind};
use referee::judge::with_found;
use referee::perft::rewrite;
use referee::random::random_record;
use referee::record;
use referee::record_moves;
use referee::replay::{replay_observed, Event, ReplayOptions};
use referee::verdict::{ClaimStatus, Status};
use referee::verify::{verify_source, VerifyOptions};

/// Seeds played per setup.
const SEEDS: u64 = 2;

/// The setups tested of each game: its smallest, middle and largest board, each with every player
/// count it declares.
fn setups() -> Vec<(GameKind, u8, u8)> {
    let mut setups = Vec::new();
    for game in GameKind::ALL {
        let about = game.about();
        let mut sizes = vec![about.sizes.smallest, about.sizes.middle(), about.sizes.largest];
        sizes.dedup();
        for size in sizes {
            for players in about.players.0..=about.players.1 {
                setups.push((game, size, players));
            }
        }
    }
    setups
}

/// The records of every setup, with a name for messages.
fn records() -> Vec<(String, GameKind, String)> {
    let mut records = Vec::new();
    for (game, size, players) in setups() {
        for seed in 0..SEEDS {
            let name = format!("{game} size {size}, {players} players, seed {seed}");
            let text = random_record(game, Some(size), Some(players), seed)
                .unwrap_or_else(|e| panic!("{name}: the declared setup has no start: {e}"));
            records.push((name, game, text));
        }
    }
    records
}

#[test]
fn every_declared_setup_is_tested() {
    let setups = setups();
    for game in GameKind::ALL {
        assert!(setups.iter().any(|s| s.0 == game), "{game} declares no setup");
    }
    // Each game has a default start too, with no size and no player count given.
    for game in GameKind::ALL {
        let sizes = game.about().sizes;
        assert!(sizes.iter().count() > 0 && sizes.allows(sizes.largest), "{game}: sizes {sizes}");
        assert!(random_record(game, None, None, 0).is_ok(), "{game} has no default start");
    }
}

#[test]
fn random_games_verify_as_valid_with_their_result_confirmed() {
    for (name, game, text) in records() {
        let verdicts = verify_source(&text, VerifyOptions::default());
        assert_eq!(verdicts.len(), 1, "{name}: {text}");
        let v = &verdicts[0];
        assert_eq!(v.status, Status::Valid, "{name}: {:?}\n{text}", v.problems);
        assert_eq!(v.game.map(|g| g.name), Some(game.name()), "{name}");
        for claim in &v.claims {
            assert_eq!(claim.status, ClaimStatus::Confirmed, "{name}: {claim:?}");
        }
    }
}

#[test]
fn every_position_code_reads_back_and_is_written_again_alike() {
    for (name, game, text) in records() {
        let replayed = record_moves(&text, 1, VerifyOptions::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(replayed.illegal.is_none(), "{name}");
        let codes = std::iter::once(&replayed.start_code).chain(replayed.moves.iter().map(|m| &m.code));
        for code in codes {
            assert_eq!(game_of(code), Ok(game), "{name}: {code}");
            assert_eq!(rewrite(code).as_deref(), Ok(code.as_str()), "{name}");
        }
    }
}

/// Writes every legal move of the position of `code`, reads it back, and checks that it is a legal
/// move written the same way: the same move, or one the notation does not tell from it (the
/// published notation's `----` names no stone, RULINGS 5b), which then leaves the same position
/// where the notation writes nothing else that tells them apart.
struct NotationRoundTrip<'c>(&'c str);

impl WithGame for NotationRoundTrip<'_> {
    type Output = Result<usize, String>;

    fn run<G: Recorded>(self, _: &'static referee::game::About) -> Self::Output {
        let position = G::from_code(self.0).map_err(|e| e.to_string())?;
        let moves = position.legal_moves();
        let all: Vec<String> = moves.iter().map(|&m| position.write_move(m)).collect();
        // How many legal moves each text stands for.
        let mut written_as = std::collections::HashMap::<&str, usize>::new();
        for w in &all {
            *written_as.entry(w).or_default() += 1;
        }
        // A notation that says it writes moves apart does, and writes each into a buffer alike.
        let distinct: Vec<String> = position.distinct_moves().iter().map(|&m| position.write_move(m)).collect();
        let distinct_texts: std::collections::HashSet<&String> = distinct.iter().collect();
        if G::WRITES_APART && (written_as.len() != all.len() || distinct_texts.len() != distinct.len()) {
            return Err("two legal moves are written alike, though the notation says it writes them apart".into());
        }
        let mut buffer = String::from("before ");
        for (&m, written) in moves.iter().zip(&all) {
            buffer.truncate("before ".len());
            position.write_move_into(m, &mut buffer);
            if buffer["before ".len()..] != *written {
                return Err(format!("`{written}` is written into a buffer as `{buffer}`"));
            }
        }
        for (&m, written) in moves.iter().zip(&all) {
            let written = written.as_str();
            let parsed = G::parse_move(written).map_err(|e| format!("`{written}` does not parse: {e}"))?;
            let resolved = position.resolve(parsed).map_err(|e| format!("`{written}` does not resolve: {e}"))?;
            position.check(resolved).map_err(|e| format!("`{written}` reads as an illegal move: {e}"))?;
            if position.write_move(resolved) != written {
                return Err(format!("`{written}` reads back as {resolved:?}, written otherwise"));
            }
            let alike = written_as[written];
            let (mut a, mut b) = (position.clone(), position.clone());
            a.play_unchecked(m);
            b.play_unchecked(resolved);
            if alike == 1 && a.code() != b.code() {
                return Err(format!("`{written}` reads back as another move: {resolved:?}, not {m:?}"));
            }
        }
        Ok(moves.len())
    }
}

#[test]
fn every_legal_move_is_written_and_read_back_as_itself() {
    for (name, game, text) in records() {
        let replayed = record_moves(&text, 1, VerifyOptions::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let mut checked = 0;
        // Some twenty positions of each game, spread over it: every move of each.
        let codes: Vec<_> =
            std::iter::once(&replayed.start_code).chain(replayed.moves.iter().map(|m| &m.code)).collect();
        for code in codes.iter().step_by(codes.len().div_ceil(20)) {
            checked += game.with_game(NotationRoundTrip(code)).unwrap_or_else(|e| panic!("{name}, at {code}: {e}"));
        }
        assert!(checked > 0, "{name}: no move checked");
    }
}

#[test]
fn records_convert_to_json_and_back_and_verify_alike() {
    for (name, _, text) in records() {
        let doc = convert::document(&text, 1, VerifyOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = convert::read_json(&convert::to_json(&doc)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, std::slice::from_ref(&doc), "{name}");
        let canonical = convert::canonical_of(&doc).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (before, after) =
            (verify_source(&text, VerifyOptions::default()), verify_source(&canonical, VerifyOptions::default()));
        let gist =
            |v: &referee::verdict::Verdict| (v.status, v.moves, v.game_over, v.winner.clone(), v.position.clone());
        assert_eq!(gist(&before[0]), gist(&after[0]), "{name}:\n{canonical}");
    }
}

/// Every position of a record's replay read back from its code: the same position (its search key),
/// the same legal moves, the same end; the code URL-safe. Gives how many positions were read.
struct CodesReadBack;

impl<'r> WithOpenRecord<'r> for CodesReadBack {
    type Output = Result<usize, String>;

    fn run<F: OpenRecord<'r>>(self, record: F) -> Self::Output {
        fn read_back<G: Game + Coded + SearchKey>(p: &G) -> Result<(), String> {
            let code = p.code();
            if !code.bytes().all(|b| b.is_ascii_alphanumeric() || b"_/.-".contains(&b)) {
                return Err(format!("{code} is not URL-safe"));
            }
            let back = G::from_code(&code).map_err(|e| format!("{code}: {e}"))?;
            if back.key() != p.key() || back.code() != code {
                return Err(format!("{code} reads back as another position"));
            }
            if back.legal_moves() != p.legal_moves() || back.is_over() != p.is_over() {
                return Err(format!("{code} reads back with other legal moves or another end"));
            }
            Ok(())
        }
        let start = record.start().map_err(|p| p.message)?;
        read_back(&start)?;
        let (mut read, mut fault) = (1, None);
        replay_observed(start, record.tokens(), ReplayOptions::default(), |event| {
            if let (Event::Played { position }, None) = (event, &fault) {
                read += 1;
                fault = read_back(position).err();
            }
        });
        fault.map_or(Ok(read), Err)
    }
}

/// The game of `text` (one record) cut after `cut` of its moves (one at least), written as a record
/// from its document: no result claimed (no result token, no `[Result]` tag), the replay's board
/// as its final diagram.
fn cut_record(text: &str, cut: prop::sample::Index) -> Result<String, String> {
    let mut doc = convert::document(text, 1, VerifyOptions::default()).map_err(|e| e.to_string())?;
    let k = 1 + cut.index(doc.moves.len().max(1));
    doc.moves.truncate(k);
    doc.result = None;
    doc.tags.retain(|(name, _)| !name.eq_ignore_ascii_case("Result"));
    doc.final_position.clear();
    doc.outcome = None;
    convert::canonical_of(&doc).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_game_of_any_setup_verifies_reads_back_from_its_codes_and_converts_cut_anywhere(
        setup in prop::sample::select(setups()),
        seed in any::<u64>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let (game, size, players) = setup;
        let name = format!("{game} size {size}, {players} players, seed {seed}");
        let text = random_record(game, Some(size), Some(players), seed).map_err(TestCaseError::fail)?;
        let v = &verify_source(&text, VerifyOptions::default())[0];
        prop_assert_eq!(v.status, Status::Valid, "{}: {:?}\n{}", name, v.problems, text);
        prop_assert!(v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "{}: {:?}", name, v.claims);

        let found = record::read(&text, None).next().expect("one record");
        let read = with_found(&text, &found, VerifyOptions::default(), CodesReadBack)
            .map_err(|u| TestCaseError::fail(u.why.message))?
            .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        prop_assert_eq!(read, v.moves + 1, "{}", name);

        let cut = cut_record(&text, cut).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        let v = &verify_source(&cut, VerifyOptions::default())[0];
        prop_assert_eq!(v.status, Status::Valid, "{}: {:?}\n{}", name, v.problems, cut);
        let doc = convert::document(&cut, 1, VerifyOptions::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let canonical = convert::canonical_of(&doc).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(canonical, cut, "{}: not its own canonical layout", name);
        let json = convert::read_json(&convert::to_json(&doc)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&json, std::slice::from_ref(&doc));
        let reread = convert::reread(&json[0]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(reread, doc, "{}", name);
    }
}

/// A word that reads as no move stops the record before replay, wherever it stands: also after an
/// illegal move, which the replay meets first (the syntax is read on its own only when the replay
/// meets a fault, so that a valid record is read once). For every game: the second move of a
/// random record written as its first (illegal in every game: the first move's cells have
/// changed), then a word that is no move after it.
#[test]
fn a_word_that_is_no_move_stops_the_record_even_after_an_illegal_move() {
    use referee::record::{Found, TokenKind};
    use referee::verdict::ProblemKind;
    for game in GameKind::ALL {
        let mut tried = 0;
        for (name, _, text) in records().into_iter().filter(|r| r.1 == game) {
            let found = record::read(&text, None).next().expect("a record");
            let tokens = match &found {
                Found::Published(r) => &r.tokens,
                Found::Common(r) => &r.tokens,
            };
            let mut moves = tokens.iter().filter(|t| matches!(t.kind, TokenKind::Step(..) | TokenKind::Written));
            let (Some(first), Some(second)) = (moves.next(), moves.next()) else { continue };
            let twice = format!("{}{}{}", &text[..second.span.start], first.text, &text[second.span.end..]);
            let illegal = &verify_source(&twice, VerifyOptions::default())[0];
            assert_eq!(illegal.status, Status::Illegal, "{name}: {:?}\n{twice}", illegal.problems);
            let end = second.span.start + first.text.len();
            let broken = format!("{} @@{}", &twice[..end], &twice[end..]);
            for lenient in [false, true] {
                let v = &verify_source(&broken, VerifyOptions { lenient, ..VerifyOptions::default() })[0];
                assert_eq!(v.status, Status::SyntaxError, "{name}: {:?}\n{broken}", v.problems);
                assert!(v.problems.iter().all(|p| p.kind == ProblemKind::Syntax), "{name}: {:?}", v.problems);
                assert!(v.problems.iter().any(|p| p.token == "@@"), "{name}: {:?}", v.problems);
            }
            tried += 1;
        }
        assert!(tried > 0, "{game}: no record with two moves");
    }
}

/// A game played move by move on a new record, as the web page's board plays it, is written into
/// the record in the game's own notation and layout and verifies as valid, with every move it was
/// given; a move played instead of one of the record's is a variation, and the record's main line
/// is unchanged. Each move is an insertion: the text before it is kept exactly. For every game, on
/// its smallest board with each player count, random moves up to 80 (a whole game on most).
#[test]
fn a_game_played_into_a_new_record_is_written_in_its_notation_and_verifies() {
    use referee::moves::play_move;
    use referee::random::new_record_in;
    for game in GameKind::ALL {
        let about = game.about();
        let mut stays = 0;
        for players in about.players.0..=about.players.1 {
            for seed in 0..2u64 {
                let name = format!("{} size {} players {players} seed {seed}", about.name, about.sizes.smallest);
                let mut text =
                    new_record_in(referee::judge::Registry, about, Some(about.sizes.smallest), Some(players))
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                let mut played = Vec::new();
                let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                while played.len() < 80 {
                    let replayed = record_moves(&text, 1, VerifyOptions::default()).expect("the record replays");
                    assert_eq!(replayed.moves.len(), played.len(), "{name}\n{text}");
                    if replayed.next.is_empty() {
                        break;
                    }
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let m = replayed.next[(state >> 33) as usize % replayed.next.len()].written.clone();
                    let p = play_move(&text, 1, played.len(), &m, VerifyOptions::default())
                        .unwrap_or_else(|e| panic!("{name}: {m}: {e}\n{text}"));
                    assert_eq!(&p.text[p.token.clone()], m, "{name}");
                    // One insertion that holds the move (and its number, its spaces).
                    let inserted = p.text.len() - text.len();
                    let mut splits = p.token.end.saturating_sub(inserted)..=p.token.start;
                    assert!(
                        splits.any(|i| p.text.as_bytes()[..i] == text.as_bytes()[..i]
                            && p.text.as_bytes()[i + inserted..] == text.as_bytes()[i..]),
                        "{name}: more than the move was written\n{text}\n{}",
                        p.text
                    );
                    stays += usize::from(m == "----");
                    played.push(m);
                    text = p.text;
                }
                let v = &verify_source(&text, VerifyOptions::default())[0];
                assert_eq!(v.status, Status::Valid, "{name}: {:?}\n{text}", v.problems);
                assert_eq!(v.moves, played.len(), "{name}\n{text}");
                let replayed = record_moves(&text, 1, VerifyOptions::default()).expect("the record replays");
                let written: Vec<&str> = replayed.moves.iter().map(|m| m.written.as_str()).collect();
                assert_eq!(written, played, "{name}\n{text}");
                // Another move instead of the second: a variation, the main line as it was.
                let Some(other) = record_moves(&text, 1, VerifyOptions::default())
                    .ok()
                    .and_then(|_| referee::moves::moves_after(&text, 1, 1, VerifyOptions::default()).ok())
                    .and_then(|next| next.into_iter().find(|m| played.get(1) != Some(&m.written)))
                else {
                    continue;
                };
                let varied = play_move(&text, 1, 1, &other.written, VerifyOptions::default())
                    .unwrap_or_else(|e| panic!("{name}: {}: {e}", other.written));
                assert!(!varied.same, "{name}");
                let v = &verify_source(&varied.text, VerifyOptions::default())[0];
                assert_eq!(
                    (v.status, v.moves),
                    (Status::Valid, played.len()),
                    "{name}: {:?}\n{}",
                    v.problems,
                    varied.text
                );
                let found = record::read(&varied.text, None).next().expect("a record");
                let notes = match &found {
                    record::Found::Published(r) => r.notes().variations.len(),
                    record::Found::Common(r) => r.notes().variations.len(),
                };
                assert_eq!(notes, 1, "{name}: the variation is read as one\n{}", varied.text);
                // The record's own move there is only stepped to.
                let own = play_move(&text, 1, 1, &played[1], VerifyOptions::default()).expect("its own move");
                assert!(own.same && own.text == text, "{name}");
            }
        }
        if about.name.ends_with("phages") {
            assert!(stays > 0, "{}: no `----` was played", about.name);
        }
    }
}

/// The glyphs of a text diagram (as `ascii::diagram` draws it), in reading order: the rows are the
/// lines that end with their number.
fn diagram_cells(diagram: &str) -> Vec<String> {
    let mut cells = Vec::new();
    for line in diagram.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((last, glyphs)) = tokens.split_last() else { continue };
        if last.trim_end_matches('.').parse::<u32>().is_ok() {
            cells.extend(glyphs.iter().map(|g| g.to_string()));
        }
    }
    cells
}

/// A start set up on the board editor's board (the web page's) is written as a record that reads
/// back as that very position, in every game: its start unchanged, and with a cell changed to
/// each glyph the board offers, either the changed position or the reason the game cannot have
/// it. A diagram with a glyph no cell may show is refused with its cell named.
#[test]
fn a_start_set_up_on_the_board_reads_back_the_same_or_is_refused_with_its_reason() {
    use referee::judge::Registry;
    use referee::random::{setup_board_in, setup_record_in};
    for game in GameKind::ALL {
        let about = game.about();
        let size = Some(about.sizes.smallest);
        let board = setup_board_in(Registry, about, size, None).unwrap_or_else(|e| panic!("{}: {e}", about.name));
        assert_eq!(board.cells.len(), board.start.len(), "{}", about.name);
        assert!(board.glyphs.len() >= 2, "{}: {:?}", about.name, board.glyphs);
        let read_back = |cells: &[String]| -> Result<Vec<String>, String> {
            let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
            let text = setup_record_in(Registry, about, size, None, &refs)?;
            let v = &verify_source(&text, VerifyOptions::default())[0];
            assert!(matches!(v.status, Status::Valid), "{}: {:?}\n{text}", about.name, v.problems);
            let replayed = record_moves(&text, 1, VerifyOptions::default()).expect("the record replays");
            Ok(diagram_cells(&replayed.start))
        };
        assert_eq!(read_back(&board.start).as_ref(), Ok(&board.start), "{}", about.name);
        let (mut kept, mut refused) = (0, 0);
        for glyph in &board.glyphs[1..] {
            // The first empty cell, showing `glyph`.
            let Some(k) = board.start.iter().position(|g| g == &board.glyphs[0]) else { continue };
            let mut cells = board.start.clone();
            cells[k] = glyph.clone();
            match read_back(&cells) {
                Ok(back) => {
                    assert_eq!(back, cells, "{}: {glyph} on {}", about.name, board.cells[k]);
                    kept += 1;
                }
                Err(why) => {
                    assert!(!why.is_empty(), "{}", about.name);
                    refused += 1;
                }
            }
        }
        assert!(kept + refused > 0, "{}", about.name);
        let mut wrong = board.start.clone();
        wrong[0] = "@".to_string();
        let refs: Vec<&str> = wrong.iter().map(String::as_str).collect();
        let why = setup_record_in(Registry, about, size, None, &refs).expect_err("no game shows @");
        assert!(why.contains('@'), "{}: {why}", about.name);
    }
}

/// Any position of a game, given by its code in the board editor (the side to move, marks, a turn
/// under way), is written as a record with no move yet that starts there, and reads back as that
/// very position, in every game; a code that gives no position is refused with where.
#[test]
fn a_start_given_by_its_code_reads_back_the_same() {
    use referee::judge::Registry;
    use referee::random::code_record_in;
    for (name, game, text) in records().into_iter().take(40) {
        let replayed = record_moves(&text, 1, VerifyOptions::default()).expect("the record replays");
        let start = (replayed.start_code.clone(), replayed.start.clone());
        let codes =
            std::iter::once(start).chain(replayed.moves.iter().take(5).map(|m| (m.code.clone(), m.board.clone())));
        for (code, board) in codes {
            let (record, cells) = match code_record_in(Registry, game.about(), &code) {
                Ok(made) => made,
                // The published notation writes a game under way only with its moves.
                Err(why) if game.about().format == referee::game::Format::Published => {
                    assert!(why.contains("a game under way"), "{name}: {why}");
                    continue;
                }
                Err(why) => panic!("{name}: {why}\n{code}"),
            };
            let v = &verify_source(&record, VerifyOptions::default())[0];
            assert_eq!((v.status, v.moves), (Status::Valid, 0), "{name}: {:?}\n{record}", v.problems);
            let back = record_moves(&record, 1, VerifyOptions::default()).expect("the record replays");
            assert_eq!(back.start_code, code, "{name}\n{record}");
            assert_eq!(diagram_cells(&board), cells, "{name}");
        }
        let refused = code_record_in(Registry, game.about(), "nonsense").expect_err("no position");
        assert!(refused.contains("at character"), "{name}: {refused}");
    }
}
