// The chess anchor: the reference that issue 20 ("verify faster than the best chess verifier, per
// core") measures referee against. Copied unchanged (only this header is added) from the project's
// shared benchmark folder, where it was written for that comparison; it is a separate crate, not
// part of referee's workspace, and referee depends on nothing here.
//
// What it measures: pgn-reader 0.29 + shakmaty 0.30, the usual Rust chess stack, reading random
// legal chess games (`gen`) and resolving and playing every SAN move (`validate`: MiB/s and
// plies/s over the bytes already in memory: no process start-up, no file reading), and
// shakmaty's perft from the start position (`perft`: nodes/s, counted in bulk at the last ply).
// benches/throughput.py and benches/perft.py build it in release and print it beside referee.

//! Performance anchor: how fast do `pgn-reader` + `shakmaty` parse and
//! legality-check PGN game records?
//!
//!   chess-anchor gen OUT.pgn MEGABYTES SEED   (1 MB = 1,000,000 bytes)
//!   chess-anchor validate FILE.pgn

use std::{env, fs, io::Write, ops::ControlFlow, process, time::Instant};

use pgn_reader::{Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, Position};

/// SplitMix64: tiny, deterministic PRNG, so the corpus depends only on the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift, bias negligible for n < 2^32).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Appends a movetext token, wrapping lines below 80 columns as PGN exporters do.
fn push_wrapped(text: &mut String, line_len: &mut usize, token: &str) {
    if *line_len > 0 {
        let wrap = *line_len + 1 + token.len() > 79;
        text.push(if wrap { '\n' } else { ' ' });
        *line_len = if wrap { 0 } else { *line_len + 1 };
    }
    *line_len += token.len();
    text.push_str(token);
}

/// One random playout (up to 200 plies) rendered as a PGN game.
fn random_game(rng: &mut Rng, index: u64) -> String {
    let mut pos = Chess::default();
    let mut movetext = String::new();
    let mut line_len = 0;
    for ply in 0..200 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_insufficient_material() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let white = pos.turn() == Color::White;
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        let token = if white {
            format!("{}. {san}", ply / 2 + 1)
        } else {
            san.to_string()
        };
        push_wrapped(&mut movetext, &mut line_len, &token);
    }
    let result = pos.outcome().as_str();
    push_wrapped(&mut movetext, &mut line_len, result);
    format!(
        "[Event \"Random playout {index}\"]\n[Site \"chess-anchor\"]\n\
         [White \"Random A\"]\n[Black \"Random B\"]\n[Result \"{result}\"]\n\n{movetext}\n\n"
    )
}

fn generate(path: &str, megabytes: u64, seed: u64) -> std::io::Result<()> {
    let target = megabytes * 1_000_000;
    let mut file = std::io::BufWriter::new(fs::File::create(path)?);
    let (mut rng, mut written, mut games) = (Rng(seed), 0u64, 0u64);
    while written < target {
        let game = random_game(&mut rng, games + 1);
        file.write_all(game.as_bytes())?;
        written += game.len() as u64;
        games += 1;
    }
    file.flush()?;
    println!("wrote {games} games, {written} bytes to {path}");
    Ok(())
}

/// Resolves each SAN against the current position and plays it.
/// An unresolvable (illegal or ambiguous) SAN counts as illegal and ends
/// validation of that game; the reader then skips the rest of its movetext.
#[derive(Default)]
struct Validator {
    games: u64,
    plies: u64,
    illegal: u64,
}

impl Visitor for Validator {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        self.games += 1;
        ControlFlow::Continue(())
    }

    // Every generated game starts from the standard position (no FEN tag).
    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), Chess> {
        ControlFlow::Continue(Chess::default())
    }

    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<()> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m); // safe: to_move only returns legal moves
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                self.illegal += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Chess) {}
}

fn validate(path: &str) -> std::io::Result<()> {
    // The whole file is read into memory first; only parsing + validation of
    // the in-memory bytes is timed (no disk I/O inside the timed region).
    let data = fs::read(path)?;
    let start = Instant::now();
    let mut validator = Validator::default();
    Reader::new(&data[..]).visit_all_games(&mut validator)?;
    let secs = start.elapsed().as_secs_f64();
    let Validator {
        games,
        plies,
        illegal,
    } = validator;
    println!(
        "games={games} plies={plies} illegal={illegal} bytes={} secs={secs:.3} \
         games_per_s={:.0} mib_per_s={:.1} plies_per_s={:.0}",
        data.len(),
        games as f64 / secs,
        data.len() as f64 / (1024.0 * 1024.0) / secs,
        plies as f64 / secs
    );
    Ok(())
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = env::args().collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args[1..] {
        ["gen", out, mb, seed] => match (mb.parse(), seed.parse()) {
            (Ok(mb), Ok(seed)) => generate(out, mb, seed),
            _ => usage(),
        },
        ["validate", file] => validate(file),
        ["perft", depth] => match depth.parse() {
            Ok(depth) => {
                perft(depth);
                Ok(())
            }
            _ => usage(),
        },
        _ => usage(),
    }
}

/// Counts the leaf nodes of the move tree from the chess start, as engine writers check move
/// generators (shakmaty's own perft, bulk counting at the last ply).
fn perft(depth: u32) {
    let start = Instant::now();
    let nodes = shakmaty::perft(&Chess::default(), depth);
    let secs = start.elapsed().as_secs_f64();
    println!("depth={depth} nodes={nodes} secs={secs:.3} nodes_per_s={:.0}", nodes as f64 / secs);
}

fn usage() -> ! {
    eprintln!(
        "usage: chess-anchor gen OUT.pgn MEGABYTES SEED | chess-anchor validate FILE.pgn | chess-anchor perft DEPTH"
    );
    process::exit(2);
}
