//! Replays a record move by move, prints each move with the board after it, and writes an SVG
//! picture of the position after a given move.
//!
//! `cargo run --example draw_position -- FILE [RECORD [PLY]] > board.svg` (record 1 and its last
//! position by default; the moves go to standard error)

use referee::picture::pictures;
use referee::render::svg::{svg, SvgOptions};
use referee::{record_moves, VerifyOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: draw_position FILE [RECORD [PLY]]")?;
    let index: usize = args.next().map_or(Ok(1), |s| s.parse())?;
    let ply: Option<usize> = args.next().map(|s| s.parse()).transpose()?;
    let text = std::fs::read_to_string(&file)?;
    let options = VerifyOptions::default();

    let replayed = record_moves(&text, index, options).map_err(|(_, why)| why)?;
    eprintln!("{} record {index}, {}:\n{}", file, replayed.game.title, replayed.start);
    for m in &replayed.moves {
        eprintln!("{}. {} {}\n{}", m.ply, m.player, m.written, m.board);
    }
    if let Some(v) = &replayed.illegal {
        eprintln!("stopped at {}: {}", v.token, v.message);
    }
    eprintln!("score: {}", replayed.score);

    let drawn = pictures(&text, index, options).map_err(|(_, why)| why)?;
    print!("{}", svg(drawn.scene(ply), &SvgOptions::default()));
    Ok(())
}
