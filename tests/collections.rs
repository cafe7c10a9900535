//! Any concatenation of generated records of any games, with prose between them, yields exactly
//! those records, in order, each with the verdict it has on its own.

use proptest::prelude::*;

use referee::game::{GameKind, Recorded};
use referee::games::petrify::Petrify;
use referee::games::phages::{notation, Phages};
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::random::random_game;
use referee::verdict::{Status, Verdict};
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;

/// Text a collection holds between records: none of it may read as a record.
const PROSE: &[&str] = &[
    "",
    "Some words about the game.\n",
    "Game 12, played on the club's board.\n\n",
    "1. 2 eggs\n2. 3 apples\n\n",
    "[citation needed] as they say.\n",
    "Results: 1-0, 0-1 and * are written at the end; ratings 1500-1450.\n",
    "{this is not a comment}\n",
    "QUADRAPHAGES is a game, and so is Hexaphages.\n",
    "   \t\n\n\n",
    "A line with the letters a b c and a row . . o 1.\n",
];

fn record(game: u8, seed: u64) -> String {
    fn common<G: Recorded>(size: u8, players: Option<u8>, seed: u64) -> String {
        let start = G::start(Some(size), players).expect("a start");
        write_common_record(&start, &random_game(&start, seed, 100_000), &[])
    }
    match game % 6 {
        0 => {
            let start = Phages::quadraphages();
            notation::write_record(&start, &random_game(&start, seed, 10_000))
        }
        1 => {
            let start = Phages::hexaphages(4).expect("side 4");
            notation::write_record(&start, &random_game(&start, seed, 10_000))
        }
        2 => common::<Quarod>(4 + (seed % 4) as u8, None, seed),
        3 => common::<Petrify>(6, None, seed),
        4 => common::<Vadrantir>(5, None, seed),
        _ => common::<Splinter>(6, Some(2), seed),
    }
}

/// What a verdict says, without where the record stands in its file.
fn gist(v: &Verdict) -> (Option<GameKind>, Status, usize, bool, Option<String>, Vec<&'static str>) {
    (v.game, v.status, v.moves, v.game_over, v.winner.clone(), v.claims.iter().map(|c| c.status.name()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_collection_yields_exactly_its_records_with_their_verdicts(
        parts in prop::collection::vec((any::<u8>(), 0u64..1000, 0..PROSE.len()), 1..5),
        opening in 0..PROSE.len(),
        crlf in any::<bool>(),
    ) {
        let mut text = PROSE[opening].to_string();
        let mut alone = Vec::new();
        for &(game, seed, prose) in &parts {
            let r = record(game, seed);
            alone.push(verify_source(&r, VerifyOptions::default()));
            text.push_str(&r);
            text.push('\n');
            text.push_str(PROSE[prose]);
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let found = verify_source(&text, VerifyOptions::default());
        prop_assert_eq!(found.len(), parts.len(), "{}", text);
        for (i, (v, own)) in found.iter().zip(&alone).enumerate() {
            prop_assert_eq!(own.len(), 1);
            prop_assert_eq!(v.index, i + 1);
            prop_assert_eq!(gist(v), gist(&own[0]), "record {} of\n{}", i + 1, text);
            prop_assert_eq!(v.status, Status::Valid);
        }
    }
}
