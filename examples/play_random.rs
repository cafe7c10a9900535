//! Plays a random game of each of the six games from code, writes its record, verifies the record
//! and prints it with its verdict.
//!
//! `cargo run --example play_random -- 7` (the seed; 1 by default)

use referee::format::published::notation;
use referee::format::{AsPlayable, WithPlayable};
use referee::games::phages::Phages;
use referee::random::random_game;
use referee::write::write_common_record;
use referee::{verify_source, GameKind, Playable, Status};

/// Plays a game of the common record format's engine `G` and writes its record.
struct PlayCommon {
    seed: u64,
}

impl WithPlayable for PlayCommon {
    type Output = String;
    fn run<G: Playable>(self) -> String {
        let start = G::start(None, None).expect("every game has a default board");
        let moves = random_game(&start, self.seed, 400);
        write_common_record(&start, &moves, &[("Seed", self.seed.to_string())])
    }
}

fn main() {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    for kind in GameKind::ALL {
        let record = match kind {
            GameKind::Quadraphages | GameKind::Hexaphages => {
                let start = if kind == GameKind::Quadraphages {
                    Phages::quadraphages()
                } else {
                    Phages::hexaphages(4).expect("the blog's board of side 4")
                };
                notation::write_record(&start, &random_game(&start, seed, 10_000))
            }
            _ => kind.with_game(AsPlayable(PlayCommon { seed })).expect("a game of the common format"),
        };
        let verdict = &verify_source(&record, Default::default())[0];
        println!("== {}: {} moves, {:?}", kind.title(), verdict.moves, verdict.status);
        println!("{record}");
        assert_eq!(verdict.status, Status::Valid, "a game played by the engine verifies");
    }
}
