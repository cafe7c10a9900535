//! Generated games: written in the notation they verify as valid with their result confirmed, and
//! they round-trip through parse and print.

use proptest::prelude::*;

use referee::format::published::notation;
use referee::game::Game;
use referee::game::Notation;
use referee::games::phages::Phages;
use referee::random::random_game;
use referee::record::{self, TokenKind};
use referee::verdict::{ClaimStatus, Status};
use referee::verify::{verify_source, VerifyOptions};

fn start(hex: bool) -> Phages {
    if hex {
        Phages::hexaphages(4).expect("side 4 has a start")
    } else {
        Phages::quadraphages()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generated_games_verify_as_valid_with_their_result_confirmed(seed in any::<u64>(), hex in any::<bool>()) {
        let start = start(hex);
        let moves = random_game(&start, seed, 10_000);
        let text = notation::write_record(&start, &moves);
        let verdicts = verify_source(&text, VerifyOptions::default());
        prop_assert_eq!(verdicts.len(), 1);
        let v = &verdicts[0];
        prop_assert_eq!(v.status, Status::Valid, "{}\n{:?}", text, v.problems);
        prop_assert!(v.game_over);
        prop_assert_eq!(v.moves, moves.len());
        prop_assert!(v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "{:?}", v.claims);
    }

    #[test]
    fn records_round_trip_through_parse_and_print(seed in any::<u64>(), hex in any::<bool>()) {
        let start = start(hex);
        let moves = random_game(&start, seed, 10_000);
        let text = notation::write_record(&start, &moves);
        let records = record::parse(&text);
        prop_assert_eq!(records.len(), 1);
        // Every move token reads back as the move that was written, in order.
        let written: Vec<String> = {
            let mut p = start.clone();
            moves.iter().map(|&m| { let w = p.write_move(m); p.play_unchecked(m); w }).collect()
        };
        let read: Vec<&str> = records[0].tokens.iter().filter(|t| !matches!(t.kind, TokenKind::Filler) && !t.kind.is_claim()).map(|t| t.text).collect();
        prop_assert_eq!(read, written.iter().map(String::as_str).collect::<Vec<_>>());
        // Replaying and writing again gives the same text.
        let (s, rep) = referee::format::published::replay_record(&text, &records[0], None, None).expect("replays");
        prop_assert_eq!(rep.moves, moves.len());
        let _ = s;
        let again = notation::write_record(&start, &moves);
        prop_assert_eq!(again, text);
    }
}
