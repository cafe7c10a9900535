//! `referee repair`: the best repairs of a file's records with an illegal move, as a report, JSON
//! lines, or the repaired record's text.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use referee::game::GameKind;
use referee::repair::{self, RepairOptions, DEFAULT_MAX_BYTES, DEFAULT_MAX_EDITS, DEFAULT_MAX_POSITIONS};
use referee::report::{self, HumanStyle, Source};
use referee::verify::{VerifyOptions, DEFAULT_SEARCH_LIMIT};

use super::out::{self, note, Out};
use super::{inputs, GameParser};

#[derive(Args, Debug)]
pub struct RepairArgs {
    /// The file holding the records (`-` reads standard input).
    file: PathBuf,
    /// Repair this record of the file (1-based); default: every record with an illegal move.
    #[arg(long)]
    record: Option<usize>,
    /// Most edits in one repair.
    #[arg(long, default_value_t = DEFAULT_MAX_EDITS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_edits: usize,
    /// human: a report per record; json: one JSON object per record per line.
    #[arg(long, value_enum, default_value_t = RepairFormat::Human)]
    format: RepairFormat,
    /// Print the text of each repaired record (its best repair) instead of the report.
    #[arg(long)]
    write: bool,
    /// Repairs shown per record, best first.
    #[arg(long, default_value_t = 3, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    candidates: usize,
    /// Candidates carried from one level of the search to the next: those that replay furthest.
    #[arg(long, default_value_t = RepairOptions::default().beam, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    beam: usize,
    /// Most tokens replayed in the search of one record.
    #[arg(long, default_value_t = DEFAULT_MAX_POSITIONS)]
    max_positions: u64,
    /// Most memory the search of one record may hold, in MiB, whatever --beam and --max-positions
    /// say (the searches that judge claims have their own ceiling, as in `verify`).
    #[arg(long, default_value_t = DEFAULT_MAX_BYTES >> 20, value_name = "MIB", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20))]
    max_memory: usize,
    /// Most seconds spent on the search of one record.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    time_limit: f64,
    /// Read every record as this game, whatever its text suggests.
    #[arg(long, value_parser = GameParser)]
    game: Option<GameKind>,
    /// Most positions searched to judge a result claimed before the game is over (see `verify`).
    #[arg(long, default_value_t = DEFAULT_SEARCH_LIMIT)]
    search_limit: usize,
    /// Colour the status words: auto, always or never (see `verify --color`).
    #[arg(long, value_enum, default_value_t = out::ColorWhen::Auto)]
    color: out::ColorWhen,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum RepairFormat {
    Human,
    Json,
}

pub fn run(args: RepairArgs) -> ExitCode {
    let name = inputs::display_name(&args.file);
    let src = match inputs::read(&args.file) {
        Ok(s) => s,
        Err(p) => {
            note(&format!("{name}: {}", p.message));
            return ExitCode::from(2);
        }
    };
    if !(args.time_limit > 0.0 && args.time_limit.is_finite()) {
        note("--time-limit must be a positive number of seconds");
        return ExitCode::from(2);
    }
    let options = VerifyOptions { game: args.game, search_limit: args.search_limit, ..VerifyOptions::default() };
    let repair = RepairOptions {
        max_edits: args.max_edits,
        max_positions: args.max_positions,
        time_limit: Some(Duration::from_secs_f64(args.time_limit)),
        shown: args.candidates,
        beam: args.beam,
        max_bytes: args.max_memory << 20,
    };
    let records = match repair::repair_source(&src, options, repair, args.record) {
        Ok(r) => r,
        Err(message) => {
            note(&format!("{name}: {message}"));
            return ExitCode::from(2);
        }
    };
    if records.is_empty() {
        note(&format!("{name}: no game record found"));
        return ExitCode::from(1);
    }
    let source = Source::new(name, Arc::new(src));
    let style = HumanStyle { color: out::color_wanted(args.color), ..HumanStyle::default() };
    let mut text = String::new();
    for r in &records {
        // By default, only the records that need a repair; a record asked for is always reported.
        let asked = args.record.is_some();
        if args.write {
            if let Some(best) = r.search.as_ref().and_then(|s| s.candidates.first()) {
                text.push_str(&repair::repaired_text(source.text(), &r.verdict.span, &best.changes));
                text.push('\n');
            }
            continue;
        }
        if !asked && r.verdict.status == referee::verdict::Status::Valid {
            continue;
        }
        match args.format {
            RepairFormat::Human => {
                text.push_str(&report::repair_human(&source, r, style));
                text.push('\n');
            }
            RepairFormat::Json => {
                text.push_str(&report::repair_json(&source, r));
                text.push('\n');
            }
        }
    }
    if let Err(closed) = Out::new().finish(&text) {
        return closed.exit_code();
    }
    if records.iter().all(|r| r.stands()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
