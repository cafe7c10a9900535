//! Position codes (grammar.md, "Position codes"): every position of generated games reads back
//! from its code equal in all its state; the codes of known positions and the errors of malformed
//! codes are pinned by snapshots; records start from a code in a `[Position]` tag or after
//! `Startup:`.

use proptest::prelude::*;

use referee::code::{game_of, Coded};
use referee::game::{Game, Recorded};
use referee::games::petrify::Petrify;
use referee::games::phages::notation::default_start;
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::geometry::Geometry;
use referee::random::random_game;

/// Plays `moves` from `start`, and at every ply (the start and the end included) reads the
/// position back from its code.
fn round_trip_every_ply<G: Game + Coded + PartialEq>(start: &G, moves: &[G::Move]) -> Result<(), TestCaseError> {
    let mut p = start.clone();
    for ply in 0..=moves.len() {
        let code = p.code();
        prop_assert!(code.bytes().all(|b| b.is_ascii_alphanumeric() || b"_/.-".contains(&b)), "not URL-safe: {}", code);
        prop_assert_eq!(game_of(&code).ok(), Some(p.kind()));
        let back = G::from_code(&code).map_err(|e| TestCaseError::fail(format!("ply {ply}: {code}: {e}")))?;
        prop_assert!(back == p, "ply {}: {} reads back as another position", ply, code);
        prop_assert_eq!(back.code(), code.clone());
        prop_assert_eq!(back.legal_moves(), p.legal_moves(), "ply {}: {}", ply, code);
        prop_assert_eq!(back.is_over(), p.is_over());
        if let Some(&m) = moves.get(ply) {
            p.play_unchecked(m);
        }
    }
    Ok(())
}

fn recorded<G: Recorded + PartialEq>(size: u8, players: Option<u8>, seed: u64) -> Result<(), TestCaseError> {
    let start = G::start(Some(size), players).expect("size in range");
    let moves = random_game(&start, seed, 2_000);
    round_trip_every_ply(&start, &moves)
}

fn phages(geometry: Geometry, seed: u64) -> Result<(), TestCaseError> {
    let start = default_start(geometry).expect("a default start");
    let moves = random_game(&start, seed, 2_000);
    round_trip_every_ply(&start, &moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn quadraphages_codes_round_trip_at_every_ply(seed in any::<u64>()) {
        phages(Geometry::Square { size: 9 }, seed)?;
    }

    #[test]
    fn hexaphages_codes_round_trip_at_every_ply(side in 4u8..=5, seed in any::<u64>()) {
        phages(Geometry::Hex { side }, seed)?;
    }

    #[test]
    fn quarod_codes_round_trip_at_every_ply(size in 2u8..=9, seed in any::<u64>()) {
        recorded::<Quarod>(size, None, seed)?;
    }

    #[test]
    fn petrify_codes_round_trip_at_every_ply(size in 6u8..=10, seed in any::<u64>()) {
        recorded::<Petrify>(size, None, seed)?;
    }

    #[test]
    fn vadrantir_codes_round_trip_at_every_ply(side in 5u8..=7, seed in any::<u64>()) {
        recorded::<Vadrantir>(side, None, seed)?;
    }

    #[test]
    fn splinter_codes_round_trip_at_every_ply(players in 2u8..=4, extra in 0u8..=3, seed in any::<u64>()) {
        let size = if players == 3 { 9 + extra } else { 6 + extra };
        recorded::<Splinter>(size, Some(players), seed)?;
    }
}
