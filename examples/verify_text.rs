//! Verifies the records in the files named on the command line (or in standard input) and prints
//! one line per record: its game, its status, and its first problem with line and column.
//!
//! `cargo run --example verify_text -- samples/quarod/random-size-4.txt`

use std::io::Read;

use referee::{report, verify_source, VerifyOptions};

fn main() -> std::io::Result<()> {
    let mut inputs: Vec<(String, String)> = Vec::new();
    for name in std::env::args().skip(1) {
        inputs.push((name.clone(), std::fs::read_to_string(&name)?));
    }
    if inputs.is_empty() {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        inputs.push(("<stdin>".to_string(), text));
    }
    for (name, text) in &inputs {
        for verdict in verify_source(text, VerifyOptions::default()) {
            let game = verdict.game.map_or("unknown game", |g| g.title);
            let status = report::status_name(verdict.status);
            print!("{name} record {}: {game}, {status}, {} moves", verdict.index, verdict.moves);
            if let Some(p) = verdict.problems.first() {
                let (line, col) = report::line_col(text, p.span.start);
                print!(" ({line}:{col}: {})", p.message);
            }
            println!();
        }
    }
    Ok(())
}
