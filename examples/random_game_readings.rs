//! Random games on every board with a default start, verified: `referee random`'s games (stays
//! last in each phase) must be valid with every claim confirmed; games with stays anywhere in a
//! phase, as the engine allows, must be valid, a claim that is not confirmed depending on which
//! stuck stone a `----` names (RULINGS 5b). Prints the counts; exits 1 on a game that fails.
//!
//! `cargo run --release --example random_game_readings -- 10000` (games per board; 1000 by default)

use referee::format::published::notation;
use referee::format::published::random_game as random_phages_game;
use referee::games::phages::Phages;
use referee::random::random_game;
use referee::verdict::{ClaimStatus, Status, Unchecked};
use referee::verify_source;

fn main() -> std::process::ExitCode {
    let count: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let boards = [
        ("quadraphages 9x9", Phages::quadraphages()),
        ("hexaphages side 4", Phages::hexaphages(4).expect("side 4")),
        ("hexaphages side 5", Phages::hexaphages(5).expect("side 5")),
    ];
    let mut failed = false;
    for (name, start) in boards {
        for (player, stays_last) in [("referee random", true), ("engine play", false)] {
            let (mut valid, mut confirmed, mut depends) = (0, 0, 0);
            for seed in 0..count {
                let moves = if stays_last {
                    random_phages_game(&start, seed, 10_000)
                } else {
                    random_game(&start, seed, 10_000)
                };
                let text = notation::write_record(&start, &moves);
                let v = &verify_source(&text, Default::default())[0];
                valid += usize::from(v.status == Status::Valid);
                if v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed) {
                    confirmed += 1;
                } else if v.claims.iter().all(|c| {
                    c.status == ClaimStatus::Confirmed
                        || c.status == ClaimStatus::Unchecked(Unchecked::Open) && c.detail.contains("depends on which")
                }) {
                    depends += 1;
                } else {
                    println!("seed {seed}: a claim neither confirmed nor depending on the reading:\n{text}");
                    failed = true;
                }
                if v.status != Status::Valid || stays_last && confirmed as u64 != seed + 1 {
                    println!("seed {seed}: {:?}\n{text}", v.status);
                    failed = true;
                }
            }
            println!(
                "{name}, {player}: {count} games, {valid} valid, {confirmed} with every claim confirmed, {depends} with a claim that depends on the reading"
            );
        }
    }
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
