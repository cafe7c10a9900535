//! Generated Quarod and Petrify games: written in the common record format they verify as valid
//! with their result confirmed, and they round-trip through parse and print.

use proptest::prelude::*;

use referee::game::CommonFormat;
use referee::games::petrify::Petrify;
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::random::random_game;
use referee::record::{common, TokenKind};
use referee::verdict::{ClaimStatus, Status};
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;

fn check_game<G: CommonFormat>(size: u8, seed: u64) -> Result<(), TestCaseError> {
    check_players::<G>(size, None, seed)
}

fn check_players<G: CommonFormat>(size: u8, players: Option<u8>, seed: u64) -> Result<(), TestCaseError> {
    let start = G::start(Some(size), players).expect("size in range");
    let moves = random_game(&start, seed, 100_000);
    let text = write_common_record(&start, &moves, &[]);
    let verdicts = verify_source(&text, VerifyOptions::default());
    prop_assert_eq!(verdicts.len(), 1);
    let v = &verdicts[0];
    if start.no_game().is_some() {
        // A board too small for the default start holds no game to judge.
        prop_assert_eq!(v.status, Status::Undecided, "{}\n{:?}", text, v.problems);
        return Ok(());
    }
    prop_assert_eq!(v.status, Status::Valid, "{}\n{:?}", text, v.problems);
    prop_assert!(v.game_over, "{}", text);
    prop_assert_eq!(v.moves, moves.len());
    prop_assert_eq!(v.claims.len(), 2);
    prop_assert!(v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "{:?}", v.claims);
    // Every move token reads back as the move that was written.
    let records = common::parse(&text);
    let read: Vec<&str> = records[0].tokens.iter().filter(|t| t.kind == TokenKind::Written).map(|t| t.text).collect();
    let mut p = start.clone();
    let written: Vec<String> = moves
        .iter()
        .map(|&m| {
            let w = p.write_move(m);
            p.play_unchecked(m);
            w
        })
        .collect();
    prop_assert_eq!(read, written.iter().map(String::as_str).collect::<Vec<_>>());
    prop_assert_eq!(write_common_record(&start, &moves, &[]), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn generated_quarod_games_verify_and_round_trip(size in 2u8..=9, seed in any::<u64>()) {
        check_game::<Quarod>(size, seed)?;
    }

    #[test]
    fn generated_petrify_games_verify_and_round_trip(size in 6u8..=10, seed in any::<u64>()) {
        check_game::<Petrify>(size, seed)?;
    }

    #[test]
    fn generated_vadrantir_games_verify_and_round_trip(side in 5u8..=7, seed in any::<u64>()) {
        check_game::<Vadrantir>(side, seed)?;
    }

    #[test]
    fn generated_splinter_games_verify_and_round_trip(players in 2u8..=4, size in 8u8..=13, seed in any::<u64>()) {
        check_players::<Splinter>(size, Some(players), seed)?;
    }
}

/// Random, mostly illegal, move tokens: verification (lenient or not) never panics and locates
/// every problem inside the text.
#[test]
fn random_tokens_never_panic_even_when_lenient() {
    let mut rng = fastrand::Rng::with_seed(11);
    let cell = |rng: &mut fastrand::Rng| format!("{}{}", (b'a' + rng.u8(0..11)) as char, rng.u8(0..12));
    for game in ["Quarod", "Petrify", "Vadrantir", "Splinter Quad"] {
        for _ in 0..400 {
            let size = rng.u8(1..12);
            let mut text = format!("[Game \"{game}\"]\n[Size \"{size}\"]\n\n");
            for i in 0..rng.usize(0..60) {
                let token = match rng.u8(0..6) {
                    0 => "pass".to_string(),
                    1 => "swap".to_string(),
                    2 => format!("{}x{}", cell(&mut rng), cell(&mut rng)),
                    3 => format!("{}{}", cell(&mut rng), cell(&mut rng)),
                    _ => cell(&mut rng),
                };
                if i % 2 == 0 {
                    text.push_str(&format!("{}. ", i / 2 + 1));
                }
                text.push_str(&token);
                text.push(' ');
            }
            for lenient in [false, true] {
                for v in verify_source(&text, VerifyOptions { lenient, ..VerifyOptions::default() }) {
                    for p in &v.problems {
                        assert!(p.span.start <= p.span.end && p.span.end <= text.len(), "{text}");
                    }
                }
            }
        }
    }
}
