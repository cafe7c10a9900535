//! `referee random`: random legal games written as records, to standard output or one file each.

use std::path::Path;
use std::process::ExitCode;

use referee::game::{Recorded, WithRecorded};
use referee::games::phages;
use referee::games::GameKind;
use referee::geometry::Geometry;
use referee::write;

use super::file;
use super::out::{note, Out};
use super::RandomArgs;

/// The record of the random game of `seed`. The common format keeps the seed in a `[Seed]` tag;
/// the published Quadraphages/Hexaphages notation has no tags, so a line of prose before the
/// record (which the reader passes over) says it.
fn record(game: GameKind, size: Option<u8>, players: Option<u8>, seed: u64) -> Result<String, String> {
    struct Random {
        size: Option<u8>,
        players: Option<u8>,
        seed: u64,
    }
    impl WithRecorded for Random {
        type Output = Result<String, String>;
        fn run<G: Recorded>(self) -> Self::Output {
            let start = G::start(self.size, self.players)?;
            if let Some(why) = start.no_game() {
                return Err(format!("{why}: choose a larger --size"));
            }
            let moves = referee::random::random_game(&start, self.seed, 1_000_000);
            Ok(write::write_common_record(&start, &moves, &[("Seed", self.seed.to_string())]))
        }
    }
    if let Some(text) = game.with_recorded(Random { size, players, seed }) {
        return text;
    }
    if players.is_some_and(|p| p != 2) {
        return Err(format!("{game} is a game for two players"));
    }
    let geometry = match game {
        GameKind::Quadraphages => Geometry::Square { size: size.unwrap_or(9) },
        _ => Geometry::Hex { side: size.unwrap_or(4) },
    };
    let start = phages::notation::default_start(geometry)
        .ok_or_else(|| format!("no start position is known for {game} of size {}", size.unwrap_or(0)))?;
    let moves = referee::random::random_phages_game(&start, seed, 1_000_000);
    Ok(format!("Seed: {seed}\n{}", phages::notation::write_record(&start, &moves)))
}

pub fn run(args: RandomArgs) -> ExitCode {
    // A seed nobody chose is still written into the record, so the game can be played again;
    // kept small enough to read and type.
    let first = args.seed.unwrap_or_else(|| u64::from(fastrand::u32(..)));
    let seeds = (0..args.count).map(|k| first.wrapping_add(k));
    let written = match &args.out {
        None => to_stdout(&args, seeds),
        Some(dir) => to_folder(&args, dir, seeds),
    };
    match written {
        Ok(code) => code,
        Err(message) => {
            note(&message);
            ExitCode::from(2)
        }
    }
}

/// The games one after the other, a blank line between two.
fn to_stdout(args: &RandomArgs, seeds: impl Iterator<Item = u64>) -> Result<ExitCode, String> {
    let mut out = Out::new();
    for (k, seed) in seeds.enumerate() {
        let text = record(args.game, args.size, args.players, seed)?;
        let separator = if k == 0 { "" } else { "\n" };
        if let Err(closed) = out.write(separator).and_then(|()| out.write(&text)) {
            return Ok(closed.exit_code());
        }
    }
    Ok(out.flush().map_or_else(|closed| closed.exit_code(), |()| ExitCode::SUCCESS))
}

/// The file name of a game: every input of the generator that was given is in it, so that two
/// different games never share a name.
fn file_name(args: &RandomArgs, seed: u64) -> String {
    let mut name = args.game.name().to_string();
    if let Some(size) = args.size {
        name += &format!("-size{size}");
    }
    if let Some(players) = args.players {
        name += &format!("-players{players}");
    }
    format!("{name}-{seed}.txt")
}

/// One file per game, `DIR/<file_name>`; a file already there is not overwritten: the run stops.
fn to_folder(args: &RandomArgs, dir: &Path, seeds: impl Iterator<Item = u64>) -> Result<ExitCode, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
    let mut count = 0;
    let written =
        |count: usize| format!("{count} game{} written to {}", if count == 1 { "" } else { "s" }, dir.display());
    for seed in seeds {
        let text = record(args.game, args.size, args.players, seed)?;
        let path = dir.join(file_name(args, seed));
        if let Err(message) = file::create_new(&path, text.as_bytes()) {
            return Err(format!("{message}; {}", written(count)));
        }
        count += 1;
    }
    note(&written(count));
    Ok(ExitCode::SUCCESS)
}
