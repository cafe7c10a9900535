//! `referee random`: random legal games written as records, to standard output or one file each.

use std::path::Path;
use std::process::ExitCode;

use crate::judge::Games;
use crate::random::random_record_in;

use super::file;
use super::out::{note, Out};
use super::RandomArgs;

pub fn run<S: Games>(args: RandomArgs, games: S) -> ExitCode {
    // A seed nobody chose is still written into the record, so the game can be played again;
    // kept small enough to read and type.
    let first = args.seed.unwrap_or_else(|| u64::from(fastrand::u32(..)));
    let seeds = (0..args.count).map(|k| first.wrapping_add(k));
    let written = match &args.out {
        None => to_stdout(&args, games, seeds),
        Some(dir) => to_folder(&args, games, dir, seeds),
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
fn to_stdout<S: Games>(args: &RandomArgs, games: S, seeds: impl Iterator<Item = u64>) -> Result<ExitCode, String> {
    let mut out = Out::new();
    for (k, seed) in seeds.enumerate() {
        let text = random_record_in(games, args.game, args.size, args.players, seed)?;
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
    let mut name = args.game.name.to_string();
    if let Some(size) = args.size {
        name += &format!("-size{size}");
    }
    if let Some(players) = args.players {
        name += &format!("-players{players}");
    }
    format!("{name}-{seed}.txt")
}

/// One file per game, `DIR/<file_name>`; a file already there is not overwritten: the run stops.
fn to_folder<S: Games>(
    args: &RandomArgs,
    games: S,
    dir: &Path,
    seeds: impl Iterator<Item = u64>,
) -> Result<ExitCode, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
    let mut count = 0;
    let written =
        |count: usize| format!("{count} game{} written to {}", if count == 1 { "" } else { "s" }, dir.display());
    for seed in seeds {
        let text = random_record_in(games, args.game, args.size, args.players, seed)?;
        let path = dir.join(file_name(args, seed));
        if let Err(message) = file::create_new(&path, text.as_bytes()) {
            return Err(format!("{message}; {}", written(count)));
        }
        count += 1;
    }
    note(&written(count));
    Ok(ExitCode::SUCCESS)
}
