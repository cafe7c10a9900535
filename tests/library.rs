//! The library's front door on all six games: a game played in code is written as a record, and
//! the record reads, replays move by move and verifies as the game that was played.

use referee::format::published::notation;
use referee::format::{AsPlayable, WithPlayable};
use referee::game::code::Coded;
use referee::game::Notation;
use referee::games::phages::Phages;
use referee::random::random_game;
use referee::write::write_common_record;
use referee::{record_moves, verify_source, GameKind, Playable, Status};

/// What a played game should read back as: its record, and each move as its engine writes it.
struct Played {
    record: String,
    written: Vec<String>,
    /// The position code after each move, and of the start.
    codes: Vec<String>,
    start_code: String,
    over: bool,
}

fn played<G: Notation + Coded>(start: &G, moves: &[G::Move], record: String) -> Played {
    let mut position = start.clone();
    let (mut written, mut codes) = (Vec::new(), Vec::new());
    for &m in moves {
        written.push(position.write_move(m));
        position.play(m).expect("a random move is legal");
        codes.push(position.code());
    }
    Played { record, written, codes, start_code: start.code(), over: position.is_over() }
}

struct PlayCommon(u64);

impl WithPlayable for PlayCommon {
    type Output = Played;
    fn run<G: Playable>(self) -> Played {
        let start = G::start(None, None).expect("a default board");
        let moves = random_game(&start, self.0, 300);
        played(&start, &moves, write_common_record(&start, &moves, &[]))
    }
}

fn play(kind: GameKind, seed: u64) -> Played {
    let phages = match kind {
        GameKind::Quadraphages => Phages::quadraphages(),
        GameKind::Hexaphages => Phages::hexaphages(5).expect("the designers' board of side 5"),
        _ => return kind.with_game(AsPlayable(PlayCommon(seed))).expect("a game of the common format"),
    };
    let moves = random_game(&phages, seed, 10_000);
    played(&phages, &moves, notation::write_record(&phages, &moves))
}

#[test]
fn a_game_played_in_code_reads_back_move_by_move_in_all_six_games() {
    for kind in GameKind::ALL {
        for seed in 1..=3 {
            let game = play(kind, seed);
            let replayed = record_moves(&game.record, 1, Default::default())
                .unwrap_or_else(|(_, why)| panic!("{kind} seed {seed}: {why}\n{}", game.record));
            assert_eq!(replayed.game, kind.about());
            assert!(replayed.illegal.is_none(), "{kind} seed {seed}: {:?}", replayed.illegal);
            let written: Vec<_> = replayed.moves.iter().map(|m| m.written.clone()).collect();
            assert_eq!(written, game.written, "{kind} seed {seed}");
            assert_eq!(replayed.start_code, game.start_code, "{kind} seed {seed}");
            // The position code after each move is the position the game played. In the published
            // notation `----` names no stone: when several are stuck, the reader lets them stay in
            // an order of its own, so which of them has acted may differ until the phase ends; there
            // each code reads back to the board drawn.
            for (i, (m, code)) in replayed.moves.iter().zip(&game.codes).enumerate() {
                let at = format!("{kind} seed {seed}: the position after move {}", i + 1);
                match Phages::from_code(&m.code) {
                    Ok(read) => {
                        assert_eq!(read.code(), m.code, "{at}");
                        assert_eq!(referee::render::ascii::diagram(&read), m.board, "{at}");
                    }
                    Err(_) => assert_eq!(&m.code, code, "{at}"),
                }
            }
            assert_eq!(replayed.over, game.over, "{kind} seed {seed}");
            // The record's final diagram is the board after the last move read back.
            let last = replayed.moves.last().map_or(&replayed.start, |m| &m.board);
            let (_, diagram) = game.record.rsplit_once("Final Position:").expect("a final diagram");
            assert_eq!(last.trim_end(), diagram.trim_start_matches('\n').trim_end(), "{kind} seed {seed}");
            let verdicts = verify_source(&game.record, Default::default());
            assert_eq!(verdicts.len(), 1);
            assert_eq!(verdicts[0].status, Status::Valid, "{kind} seed {seed}: {:?}", verdicts[0].problems);
            assert_eq!(verdicts[0].moves, game.written.len());
        }
    }
}

/// The README's example ("Library"), as written there.
#[test]
fn the_readme_library_example_runs() {
    use referee::games::petrify::Petrify;

    let start = Petrify::start(Some(6), None).unwrap();
    let moves = referee::random::random_game(&start, 7, 500);
    let record = referee::write::write_common_record(&start, &moves, &[]);
    assert_eq!(verify_source(&record, Default::default())[0].status, Status::Valid);
    for m in record_moves(&record, 1, Default::default()).unwrap().moves {
        println!("{}. {} {}\n{}", m.ply, m.player, m.written, m.board);
    }
}

/// Options for one game read every record as that game's, through every entry point: movetext with
/// no tags is a record of it, a `[Game]` tag naming another game is a syntax error, a published
/// record's move line is read as its movetext (and refused word by word), and converting and
/// replaying agree.
#[test]
fn options_for_one_game_read_every_record_as_that_games() {
    use referee::games::quarod::Quarod;
    use referee::verify::{verify_records, VerifyOptions};
    let quarod = VerifyOptions::of::<Quarod>();
    let text = "1. c1d1 d3c3 2. b4a4 a3b3 *\n\n[Game \"Petrify\"]\n\n1. c1d1 *\n\nQUADRAPHAGES\n_xx_ _oo_\n1. .... .... 6 i3i9\n";
    let verdicts: Vec<_> = verify_records(text, quarod).collect();
    let said: Vec<(Status, &str)> =
        verdicts.iter().map(|v| (v.status, v.problems.first().map_or("", |p| p.message.as_str()))).collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert_eq!(said[0], (Status::Valid, ""));
    assert_eq!(said[1].0, Status::SyntaxError);
    assert!(said[1].1.contains("Petrify"), "{said:?}");
    assert_eq!(said[2].0, Status::SyntaxError);
    assert!(said[2].1.starts_with("`....` is not a Quarod move"), "{said:?}");
    let doc = referee::convert::document(text, 1, quarod).expect("the untagged record converts");
    assert_eq!((doc.game.as_str(), doc.moves.len()), ("quarod", 4));
    assert_eq!(record_moves(text, 1, quarod).expect("it replays").moves.len(), 4);
    assert!(referee::convert::document(text, 3, quarod).is_err());
}

/// Games added to the registry's (`Registry.and::<G>()`): a record of `G` is known by its tag,
/// the others are the registry's, and an unknown `[Game]` tag is a located syntax error naming
/// every game of the run.
#[test]
fn a_game_added_to_the_registrys_is_known_by_its_tag() {
    use referee::games::quarod::Quarod;
    use referee::judge::{Games, Registry};
    use referee::verify::{verify_records, VerifyOptions};
    let options = VerifyOptions::default().with_games(Registry.and::<Quarod>());
    let text = "[Game \"Chess\"]\n\n1. e4 *\n\n[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 *\n\n\
                QUADRAPHAGES\n_xx_ _oo_\n1. .... .... 6 i3i9 a7a1 g9a9 c1i1 6 a9a3 i1i7\n";
    let verdicts: Vec<_> = verify_records(text, options).collect();
    let statuses: Vec<Status> = verdicts.iter().map(|v| v.status).collect();
    assert_eq!(statuses, [Status::SyntaxError, Status::Valid, Status::Valid]);
    let unknown = &verdicts[0].problems[0];
    assert_eq!(&text[unknown.span.clone()], "Chess");
    assert!(unknown.message.starts_with("unknown game `Chess`: referee knows quadraphages,"), "{}", unknown.message);
    assert_eq!(options.games.abouts().len(), GameKind::ALL.len() + 1);
}

/// A new record of every game, on each board size and player count its `About` declares (a few
/// of each), is a record with no move yet that verifies as valid; a start the game does not have
/// is refused with the reason.
#[test]
fn every_game_starts_a_new_record_that_verifies() {
    use referee::judge::Registry;
    use referee::random::new_record_in;
    for kind in GameKind::ALL {
        let about = kind.about();
        let sizes: Vec<u8> = about.sizes.iter().take(3).collect();
        let mut made = 0;
        for size in sizes.iter().copied().map(Some).chain([None]) {
            for players in (about.players.0..=about.players.1).map(Some).chain([None]) {
                let Ok(text) = new_record_in(Registry, about, size, players) else { continue };
                let v = verify_source(&text, referee::VerifyOptions::default());
                assert_eq!(
                    (v.len(), v[0].status, v[0].moves),
                    (1, Status::Valid, 0),
                    "{kind} {size:?} {players:?}:\n{text}"
                );
                assert_eq!(v[0].game.map(|g| g.name), Some(about.name), "{text}");
                made += 1;
            }
        }
        assert!(made > sizes.len(), "{kind}: {made} new records");
        let refused = new_record_in(Registry, about, None, Some(9)).unwrap_err();
        assert!(refused.contains("players") || refused.contains("two"), "{kind}: {refused}");
    }
    let quarod = new_record_in(Registry, GameKind::Quarod.about(), Some(6), None).expect("a 6x6 board");
    assert_eq!(quarod, "[Game \"Quarod\"]\n[Size \"6\"]\n\n*\n");
}

/// `VerifyOptions::standing` off (what `verify --format short` asks): every verdict of the
/// samples is the same but for where the game stands, which it leaves unwritten.
#[test]
fn verdicts_without_their_standing_differ_in_nothing_else() {
    use referee::verify::{verify_records, VerifyOptions};
    let mut records = 0;
    for entry in walk("samples") {
        let Ok(src) = std::fs::read_to_string(&entry) else { continue };
        let full: Vec<_> = verify_records(&src, VerifyOptions::default()).collect();
        let bare: Vec<_> =
            verify_records(&src, VerifyOptions { standing: false, ..VerifyOptions::default() }).collect();
        assert_eq!(full.len(), bare.len(), "{entry}");
        for (f, b) in full.iter().zip(&bare) {
            assert!(b.position.is_none() && b.score_text.is_none() && !b.standing, "{entry}");
            let told = referee::Verdict { position: None, score_text: None, standing: false, ..f.clone() };
            assert_eq!(&told, b, "{entry}, record {}", f.index);
            records += 1;
        }
    }
    assert!(records > 90, "{records} records");
}

/// The text files under `folder`, in path order.
fn walk(folder: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(path.to_str().unwrap()));
        } else if path.extension().is_some_and(|x| x == "txt") {
            out.push(path.to_str().unwrap().to_string());
        }
    }
    out.sort();
    out
}
