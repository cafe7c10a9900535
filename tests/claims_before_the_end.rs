//! A result claimed before a game of the common format is over (RULINGS 9): random games on small
//! boards, cut a few moves before their end and claimed every possible way, judged against a plain
//! enumeration of every continuation (no table, no bound); and the bounds that stop a search.

use std::collections::BTreeSet;

use referee::game::{Game, Playable};
use referee::games::petrify::Petrify;
use referee::games::quarod::Quarod;
use referee::games::splinter::{Splinter, SplinterMove};
use referee::games::vadrantir::Vadrantir;
use referee::random::random_game;
use referee::search::claims::{reachable_words, winners};
use referee::search::{Limits, DEFAULT_SEARCH_BYTES};
use referee::stream::{verify_stream, StreamOptions};
use referee::verdict::{ClaimCheck, ClaimKind, ClaimStatus, Status, Unchecked, Verdict};
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;

/// Most positions the enumeration visits before it gives up on a cut: it has no table, so a cut
/// must be close enough to the end for its whole tree to be walked.
const NODES: usize = 20_000;

/// The enumeration met more than [`NODES`] positions.
struct TooBig;

/// How much `mover` likes a winner (`None`: nobody wins): a win, then nobody, then anybody else.
fn rank(mover: usize, winner: Option<u8>) -> u8 {
    match winner {
        Some(w) if usize::from(w) == mover => 2,
        None => 1,
        Some(_) => 0,
    }
}

/// Walks every continuation of `p`, adding to `reached` the winner of each game it ends in; gives
/// the winner of best play, each player taking the winner they like best ([`rank`]; only meant
/// for two players).
fn walk<G: Playable>(p: &G, reached: &mut BTreeSet<Option<u8>>, nodes: &mut usize) -> Result<Option<u8>, TooBig> {
    if *nodes == 0 {
        return Err(TooBig);
    }
    *nodes -= 1;
    if let Some(o) = p.outcome() {
        let winner = o.winner.map(|w| w as u8);
        reached.insert(winner);
        return Ok(winner);
    }
    let mover = p.to_move();
    let mut best = None;
    for m in p.legal_moves() {
        let mut child = p.clone();
        child.play(m).expect("a legal move plays");
        let v = walk(&child, reached, nodes)?;
        if best.is_none_or(|b| rank(mover, v) > rank(mover, b)) {
            best = Some(v);
        }
    }
    Ok(best.expect("a game that is not over has a move"))
}

/// A written record of a game that is not over, its result (`*`) replaced by `token`.
fn claiming(record: &str, token: &str) -> String {
    let (moves, diagram) = record.split_once("\n\nFinal Position:\n").expect("a final diagram");
    let moves = moves.strip_suffix('*').expect("an unfinished game ends with *");
    format!("{moves}{token}\n\nFinal Position:\n{diagram}").replacen(
        "[Result \"*\"]",
        &format!("[Result \"{token}\"]"),
        1,
    )
}

/// The result token naming `winner` among `players` (all zeros: nobody wins).
fn token(players: usize, winner: Option<u8>) -> String {
    (0..players).map(|i| if winner == Some(i as u8) { "1" } else { "0" }).collect::<Vec<_>>().join("-")
}

fn result_claim(v: &Verdict) -> &ClaimCheck {
    v.claims.iter().find(|c| c.kind == ClaimKind::Result).expect("a result claim")
}

/// What the verdicts said, over all cuts and claims of one game.
#[derive(Default, Debug)]
struct Tally {
    cuts: usize,
    confirmed: usize,
    refuted: usize,
    open: usize,
    /// Claims settled without a search: a win claimed for a player who is out.
    settled: usize,
}

/// Random games of `G` from its start on a `size` board, one a seed.
fn random_games<G: Playable>(
    size: u8,
    players: Option<u8>,
    seeds: std::ops::Range<u64>,
) -> impl Iterator<Item = (u64, G, Vec<G::Move>)> {
    seeds.map(move |seed| {
        let start = G::start(Some(size), players).expect("a start");
        let moves = random_game(&start, seed, 100_000);
        (seed, start, moves)
    })
}

/// Cuts each game 1 to 6 moves before its end (where the enumeration can walk every
/// continuation), and claims every result: each verdict must be what the enumeration says.
fn claims_before_the_end<G: Playable>(games: impl Iterator<Item = (u64, G, Vec<G::Move>)>) -> Tally {
    let mut tally = Tally::default();
    for (seed, start, moves) in games {
        for back in 1..=6.min(moves.len() - 1) {
            let cut = moves.len() - back;
            let mut p = start.clone();
            for &m in &moves[..cut] {
                p.play(m).expect("random games are legal");
            }
            let mut reached = BTreeSet::new();
            let Ok(best) = walk(&p, &mut reached, &mut NODES.clone()) else { continue };
            tally.cuts += 1;
            let reached: Vec<Option<u8>> = reached.into_iter().collect();
            let names = p.player_names();
            let n = names.len();
            // The search itself: the same winners, and the same result of best play.
            let found = winners(&p, Limits::new(1_000_000, DEFAULT_SEARCH_BYTES)).expect("small");
            assert_eq!(found.results, reached, "seed {seed}, {back} moves before the end");
            assert_eq!(found.best, (n == 2).then_some(best), "seed {seed}, {back} moves before the end");
            let record = write_common_record(&start, &moves[..cut], &[]);
            for winner in (0..n as u8).map(Some).chain([None]) {
                let text = claiming(&record, &token(n, winner));
                let v = &verify_source(&text, VerifyOptions::default())[0];
                let claim = result_claim(v);
                let want = if reached == [winner] {
                    tally.confirmed += 1;
                    ClaimStatus::Confirmed
                } else if !reached.contains(&winner) {
                    tally.refuted += 1;
                    ClaimStatus::Refuted
                } else {
                    tally.open += 1;
                    ClaimStatus::Unchecked(Unchecked::Open)
                };
                assert_eq!(claim.status, want, "{text}\n{}", claim.detail);
                let status = if want == ClaimStatus::Refuted { Status::Refuted } else { Status::Valid };
                assert_eq!(v.status, status, "{text}\n{:?}", v.problems);
                assert!(!v.game_over && v.winner.is_none());
                // A win claimed for a player who is out is refuted without a search, and says
                // why; what play can still reach is said whenever a searched claim is not
                // confirmed.
                let out = winner.and_then(|w| p.cannot_win(usize::from(w)));
                assert_eq!(claim.detail.ends_with("(no search needed)"), out.is_some(), "{}", claim.detail);
                if let Some(why) = out {
                    assert!(claim.detail.contains(&why), "{why:?} not in {:?}", claim.detail);
                    tally.settled += 1;
                } else if want != ClaimStatus::Confirmed {
                    let words = reachable_words(names, &reached);
                    assert!(claim.detail.contains(&words), "{words:?} not in {:?}", claim.detail);
                }
            }
        }
    }
    tally
}

/// Each game's cuts must be many, and its claims judged every way somewhere.
fn judged_every_way(tally: Tally) {
    eprintln!("{tally:?}");
    assert!(tally.cuts >= 10, "{tally:?}");
    assert!(tally.confirmed > 0 && tally.refuted > 0 && tally.open > 0, "{tally:?}");
}

#[test]
fn quarod_claims_before_the_end_match_an_enumeration() {
    judged_every_way(claims_before_the_end(random_games::<Quarod>(4, None, 0..12)));
}

#[test]
fn petrify_claims_before_the_end_match_an_enumeration() {
    judged_every_way(claims_before_the_end(random_games::<Petrify>(6, None, 0..8)));
}

#[test]
fn vadrantir_claims_before_the_end_match_an_enumeration() {
    judged_every_way(claims_before_the_end(random_games::<Vadrantir>(5, None, 0..6)));
}

/// Games of Splinter Quad whose end can be enumerated. A random game ends when pieces leave the
/// board, and a few moves before that end every continuation that does not end at once may go on
/// for up to 100 quiet moves (the quiet-move rule, grammar.md): no tree walk gets through that. So
/// these games start from single kings on a small board (a king leaving the board puts its player
/// out), are played at random until two players are left, and then at random among the moves that
/// take nothing off the board, as long as there are any, until the quiet-move rule ends them. A
/// few moves before that end, every continuation ends within those few moves: by the rule, or by
/// a king leaving the board, which leaves one player standing.
fn quiet_games(
    size: u8,
    setup: &'static str,
    players: u8,
    seeds: std::ops::Range<u64>,
) -> impl Iterator<Item = (u64, Splinter, Vec<SplinterMove>)> {
    seeds.map(move |seed| {
        let cells: Vec<&str> = setup.split_whitespace().collect();
        let start = Splinter::start(Some(size), Some(players)).and_then(|s| s.with_setup(&cells)).expect("a setup");
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut p, mut moves) = (start.clone(), Vec::new());
        while !p.is_over() {
            let legal = p.legal_moves();
            let quiet: Vec<SplinterMove> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = p.clone();
                    after.play_unchecked(m);
                    after.quiet_moves() > p.quiet_moves()
                })
                .collect();
            let pool = if p.players_in().len() > 2 || quiet.is_empty() { &legal } else { &quiet };
            let m = pool[rng.usize(..pool.len())];
            p.play(m).expect("a legal move");
            moves.push(m);
        }
        (seed, start, moves)
    })
}

#[test]
fn two_player_splinter_claims_before_the_end_match_an_enumeration() {
    // On 2x2 every square touches every other, so the kings never part: a king leaves only when
    // the other pushes it off, and the last mover cannot lose. On 3x3 a king that steps away from
    // the other leaves two groups of one, and its player chooses which stays.
    let games = quiet_games(2, "1K 2K  .. ..", 2, 0..8).chain(quiet_games(3, "1K .. ..  .. 2K ..  .. .. ..", 2, 0..16));
    judged_every_way(claims_before_the_end(games));
}

#[test]
fn three_player_splinter_claims_before_the_end_match_an_enumeration() {
    let setup = ".. .. .. ..  .. 1K 2K ..  .. 3K .. ..  .. .. .. ..";
    let tally = claims_before_the_end(quiet_games(4, setup, 3, 0..6));
    assert!(tally.settled > 0, "a player is out in some cut: {tally:?}");
    judged_every_way(tally);
}

/// Verifies `text` with a search bound of one position, which no claim that needs a search gets
/// through: what it settles, it settles without one. Gives the verdict and its human report.
fn without_a_search(text: &str) -> (Verdict, String) {
    let v = verify_source(text, VerifyOptions { search_limit: 1, ..VerifyOptions::default() }).remove(0);
    let source = referee::report::Source::new("record.txt", std::sync::Arc::new(text.to_string()));
    let human = referee::report::human(&source, &v, referee::report::HumanStyle::default());
    (v, human)
}

/// Three players on 6x6: Red's b2b3 splinters off Blue's king and rook (a1, b1), Blue's only
/// types, so Blue is out with two knockouts while Red and Green play on. A win claimed for Blue
/// is refuted at once: a player who is out never wins. Searching the continuations instead (what
/// referee did) stops at its bound, and the claim stayed unchecked.
const BLUE_IS_OUT: &str = "[Game \"Splinter Quad\"]
[Size \"6\"]
[Players \"3\"]

Setup:
a  b  c  d  e  f
2K 2R .. .. .. .. 1.
.. 1K .. .. .. .. 2.
.. 1P 3K .. .. .. 3.
.. .. 3P .. .. .. 4.
.. .. .. .. .. .. 5.
.. .. .. .. .. .. 6.

1. b2b3 RESULT
";

#[test]
fn a_win_claimed_for_a_player_who_is_out_is_refuted_without_a_search() {
    let (v, human) = without_a_search(&BLUE_IS_OUT.replace("RESULT", "0-1-0"));
    let claim = result_claim(&v);
    assert_eq!(claim.status, ClaimStatus::Refuted, "{}", claim.detail);
    assert_eq!(
        claim.detail,
        "the record stops before the game is over, but Blue is out of the game (2 knockouts), and a player who is \
         out never wins: no continuation gives Blue wins (no search needed)"
    );
    assert_eq!((v.status, v.game_over), (Status::Refuted, false));
    // The players still in are left to the search, which its bound stops here.
    for token in ["1-0-0", "0-0-1", "0-0-0"] {
        let (v, _) = without_a_search(&BLUE_IS_OUT.replace("RESULT", token));
        assert_eq!(result_claim(&v).status, ClaimStatus::Unchecked(Unchecked::SearchLimit), "{token}");
    }
    insta::assert_snapshot!(human);
}

/// Quadraphages from a start code late in a game: X 39 and O 37 marked cells, one empty cell
/// (a3), O to move in phase (a) with 8 in force, and no O stone can move 8: `----`.
const ONE_EMPTY_CELL: &str = "Startup: quadraphages_xooxoXxxo/xxoooxxoX/1xoxooxox/ooxooxxxx/xoooOxxox/xxxxoxxoo/\
                              xoxooxxoo/xxxoooxoO/oxxooxoox_oa8_i2.f1-e5.i8\n1. ---- ";

#[test]
fn a_claim_the_marks_left_to_make_settle_is_judged_without_a_search() {
    let no_empty = ONE_EMPTY_CELL.replace("/1xoxooxox/", "/xxoxooxox/");
    let cases = [
        // A step marks one cell and lands on an empty one: X keeps 39, O ends with 38 at most.
        (ONE_EMPTY_CELL.to_string(), "X wins", ClaimStatus::Confirmed),
        (ONE_EMPTY_CELL.to_string(), "O wins", ClaimStatus::Refuted),
        // Neither 50-30 nor, counting the stones under each side, 48-28 is in reach.
        (ONE_EMPTY_CELL.to_string(), "X wins 50-30", ClaimStatus::Refuted),
        // 40-37 and 39-38 both are: only a search can tell.
        (ONE_EMPTY_CELL.to_string(), "X wins 40-37", ClaimStatus::Unchecked(Unchecked::SearchLimit)),
        // No empty cell: no stone moves again, and the score stands at 40-37.
        (no_empty.clone(), "X wins 40-37", ClaimStatus::Confirmed),
        (no_empty.clone(), "X wins 42-39", ClaimStatus::Confirmed),
        (no_empty, "X wins 40-36", ClaimStatus::Refuted),
    ];
    let mut log = String::new();
    for (start, claim, want) in cases {
        let (v, human) = without_a_search(&format!("{start}{claim}\n"));
        let c = result_claim(&v);
        assert_eq!(c.status, want, "{claim}: {}", c.detail);
        assert!(!v.game_over);
        assert_eq!(v.status, if want == ClaimStatus::Refuted { Status::Refuted } else { Status::Valid }, "{claim}");
        if want != ClaimStatus::Unchecked(Unchecked::SearchLimit) {
            assert!(c.detail.ends_with("(no search needed)"), "{}", c.detail);
        }
        log.push_str(&format!("`{claim}`: {}: {}\n", c.status.name(), c.detail));
        if claim == "O wins" {
            log.push_str(&human);
        }
    }
    insta::assert_snapshot!(log);
}

/// A Quarod game on an 8x8 board cut after two moves, claiming `token`: far too open to search.
fn quarod_opening(seed: u64, token: &str) -> String {
    let start = Quarod::start(Some(8), None).expect("8x8");
    let moves = random_game(&start, seed, 2);
    claiming(&write_common_record(&start, &moves, &[]), token)
}

#[test]
fn a_search_stopped_by_its_position_bound_says_so() {
    let options = VerifyOptions { search_limit: 100, ..VerifyOptions::default() };
    let v = &verify_source(&quarod_opening(1, "1-0"), options)[0];
    let claim = result_claim(v);
    assert_eq!(claim.status, ClaimStatus::Unchecked(Unchecked::SearchLimit));
    assert!(claim.detail.contains("the search of every continuation stopped at 100 positions / "), "{}", claim.detail);
    assert!(claim.detail.ends_with(", its bound of 100 positions (raise it with --search-limit)"), "{}", claim.detail);
    // Stopping proves nothing about the claim.
    assert_eq!(v.status, Status::Valid);
}

/// The positions and MiB a stopped search reports: `stopped at N positions / M MiB`.
fn stopped_at(detail: &str) -> (usize, f64) {
    let rest = detail.split("stopped at ").nth(1).expect("stopped at");
    let (positions, rest) = rest.split_once(" positions / ").expect("positions");
    let (mib, _) = rest.split_once(" MiB").expect("MiB");
    (positions.parse().expect("a count"), mib.parse().expect("a size"))
}

/// A Quadraphages record on a 26x26 board, one turn in: the largest board there is.
fn quadraphages_26x26() -> String {
    let letters: Vec<char> = ('a'..='z').collect();
    let stones = [("c", 1, 'O'), ("x", 26, 'O'), ("a", 20, 'X'), ("z", 7, 'X')];
    let mut text =
        format!("QUADRAPHAGES\nStartup:{}\n", letters.iter().map(char::to_string).collect::<Vec<_>>().join(" "));
    for row in 1..=26 {
        let cells: Vec<String> = letters
            .iter()
            .map(|c| {
                let stone = stones.iter().find(|s| s.0 == c.to_string() && s.1 == row);
                stone.map_or(".".to_string(), |s| s.2.to_string())
            })
            .collect();
        text.push_str(&format!("{} {row}.\n", cells.join(" ")));
    }
    text + "_xx_ _oo_\n1. .... .... 1 a20a21 z7z6 X wins\n"
}

#[test]
fn the_byte_budget_stops_a_search_whatever_the_position_bound() {
    // The largest position bound the command line takes, and a small byte budget so that the test
    // is quick: the budget stops the search, within itself, and the report says which bound it was.
    for (text, budget) in [(quadraphages_26x26(), 4usize << 20), (quarod_opening(2, "0-1"), 1 << 20)] {
        let options =
            VerifyOptions { search_limit: 1_000_000_000_000, search_bytes: budget, ..VerifyOptions::default() };
        let v = &verify_source(&text, options)[0];
        let claim = result_claim(v);
        assert_eq!(claim.status, ClaimStatus::Unchecked(Unchecked::SearchLimit), "{}", claim.detail);
        let ceiling = format!("memory ceiling of {} MiB, whatever --search-limit says", budget >> 20);
        assert!(claim.detail.contains(&ceiling), "{}", claim.detail);
        let (positions, mib) = stopped_at(&claim.detail);
        assert!(positions > 100 && mib <= (budget >> 20) as f64, "{}", claim.detail);
        assert_eq!(v.status, Status::Valid);
    }
}

#[test]
fn the_searches_of_a_file_share_one_budget_in_file_order_however_it_is_read() {
    // Six hopeless claims at 50 positions each: the file's budget of 200 covers four.
    let text: String = (0..6).map(|seed| quarod_opening(seed, "1-0") + "\n").collect();
    let options = VerifyOptions { search_limit: 50, ..VerifyOptions::default() };
    let whole = verify_source(&text, options);
    let details: Vec<&str> = whole.iter().map(|v| result_claim(v).detail.as_str()).collect();
    assert_eq!(details.len(), 6);
    assert!(
        details[..4].iter().all(|d| d.ends_with("its bound of 50 positions (raise it with --search-limit)")),
        "{details:?}"
    );
    assert!(
        details[4..].iter().all(|d| d.contains("this file's searches have used up their budget of 200 positions")),
        "{details:?}"
    );
    // Read as a stream in small chunks, records judged side by side: the same verdicts.
    let mut streamed = Vec::new();
    let stream = StreamOptions { parallel: true, chunk: 300, read_ahead: true, ..StreamOptions::default() };
    verify_stream(text.as_bytes(), options, stream, |_, verdicts| {
        streamed.extend(verdicts.into_iter().map(|v| (v.status, result_claim(&v).clone())));
        Ok::<(), ()>(())
    })
    .expect("reads");
    let expected: Vec<_> = whole.iter().map(|v| (v.status, result_claim(v).clone())).collect();
    let strip = |v: Vec<(Status, ClaimCheck)>| v.into_iter().map(|(s, c)| (s, c.status, c.detail)).collect::<Vec<_>>();
    assert_eq!(strip(streamed), strip(expected));
}

#[test]
fn a_lenient_replay_past_a_violation_is_searched_as_replayed() {
    // A pass written where a placement was possible, a few moves before the end (random games end
    // in two passes): lenient replay goes past it, and the claim is searched from the game as
    // replayed, and says so.
    let mut searched = 0;
    for seed in 0..6 {
        let start = Quarod::start(Some(4), None).expect("4x4");
        let moves = random_game(&start, seed, 100);
        let record = claiming(&write_common_record(&start, &moves[..moves.len() - 4], &[]), "1-0");
        let text = record.replacen(" 1-0\n", " pass 1-0\n", 1);
        let options = VerifyOptions { lenient: true, ..VerifyOptions::default() };
        let v = &verify_source(&text, options)[0];
        let claim = result_claim(v);
        if v.problems.iter().filter(|p| p.kind == referee::verdict::ProblemKind::Illegal).count() != 1 || v.game_over {
            continue;
        }
        assert!(
            claim.detail.starts_with("as replayed, past 1 violation: the record stops before the game is over, and "),
            "{}",
            claim.detail
        );
        assert!(claim.detail.ends_with("positions searched)"), "{}", claim.detail);
        assert_eq!(claim.violations_accepted, 1);
        searched += 1;
    }
    assert!(searched > 0, "no record had the one violation");
}
