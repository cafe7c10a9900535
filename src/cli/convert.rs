//! `referee convert`: a record in its notation's canonical layout, or as JSON, and back.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use referee::convert::{self, ConvertError, GameDocument};
use referee::game::GameKind;
use referee::report::{self, Source};
use referee::verify::VerifyOptions;

use super::out::{note, Out};
use super::{inputs, picture, GameParser};

pub const EXIT_CODES: &str = "\
Exit codes:
  0  every record asked for was converted (a claim it makes is kept as written, even one the replay
     refutes)
  1  a record does not replay to its end (syntax error, illegal move, undecided), nor does a JSON
     document's game: its problems go to standard error and the others are still converted; or
     the file holds no record
  2  the run could not do its job: an input could not be read or the output written, there is no
     record N, the JSON is no game document, or a usage error";

/// `referee convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The file holding the record (`-` reads standard input).
    file: PathBuf,
    /// Which record of the file (1-based); of a JSON input, which document (objects one after the
    /// other, as in JSON Lines). Default: every one, in file order.
    #[arg(long)]
    record: Option<usize>,
    /// canonical: the record in its notation's canonical layout; json: the whole game as one JSON
    /// object (docs/json.md); code: the position code of the last position (grammar.md, Part V;
    /// `show --ply N --format code` gives any other).
    #[arg(long, value_enum)]
    to: Target,
    /// What the file holds: records in either notation, or JSON documents that `--to json` wrote.
    #[arg(long, value_enum, default_value_t = InputKind::Record)]
    from: InputKind,
    /// Read the record as this game (see `verify --game`); a JSON document names its own.
    #[arg(long, value_parser = GameParser)]
    game: Option<GameKind>,
    /// Write to this file rather than to standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `--to`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Target {
    Canonical,
    Json,
    Code,
}

/// `--from`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
#[value(rename_all = "lower")]
enum InputKind {
    Record,
    Json,
}

pub fn run(args: ConvertArgs) -> ExitCode {
    let name = inputs::display_name(&args.file);
    let src = match inputs::read(&args.file) {
        Ok(s) => s,
        Err(p) => {
            note(&format!("{name}: {}", p.message));
            return ExitCode::from(2);
        }
    };
    let options = VerifyOptions { game: args.game, ..Default::default() };
    // Each record (or JSON document) asked for, with its 1-based index.
    let docs: Vec<(usize, Result<GameDocument, ConvertError>)> = match (args.from, args.record) {
        (InputKind::Record, Some(index)) => vec![(index, convert::document(&src, index, options))],
        (InputKind::Record, None) => (1..).zip(convert::documents(&src, options)).collect(),
        (InputKind::Json, record) => match convert::read_json(&src) {
            Err(e) => vec![(record.unwrap_or(1), Err(e))],
            Ok(all) => match record {
                Some(index) => vec![(index, nth_document(&all, index))],
                None => (1..).zip(all.iter().map(convert::reread)).collect(),
            },
        },
    };
    if docs.is_empty() {
        note(&format!("{name}: no game record found"));
        return ExitCode::from(1);
    }
    let mut out = String::new();
    let mut code = ExitCode::SUCCESS;
    for (index, doc) in docs {
        let text = doc.and_then(|doc| match args.to {
            Target::Canonical => convert::canonical_of(&doc),
            Target::Json => Ok(convert::to_json(&doc)),
            Target::Code => Ok(format!("{}\n", convert::last_code(&doc))),
        });
        match text {
            Ok(text) => {
                // Records one after the other, a blank line between two; JSON objects and codes
                // one after the other, as `--from json` reads them.
                if args.to == Target::Canonical && !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&text);
            }
            Err(e) => {
                let refused = refuse(&name, &src, index, e);
                if refused == ExitCode::from(2) {
                    return refused;
                }
                code = refused;
            }
        }
    }
    if out.is_empty() {
        return code;
    }
    match write(&out, args.out.as_deref()) {
        written if written == ExitCode::SUCCESS => code,
        failed => failed,
    }
}

/// Document `index` (1-based) of those a JSON text holds, replayed as a record would be.
fn nth_document(docs: &[GameDocument], index: usize) -> Result<GameDocument, ConvertError> {
    let doc = docs.get(index.wrapping_sub(1)).ok_or(ConvertError::NoRecord { index, count: docs.len() })?;
    convert::reread(doc)
}

fn write(text: &str, out: Option<&Path>) -> ExitCode {
    if let Some(path) = out {
        return picture::write_file(path, text.as_bytes());
    }
    match Out::new().finish(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(closed) => closed.exit_code(),
    }
}

/// Says why nothing was converted: exit code 1 for a record or document that does not replay to
/// its end (with its problems as `verify --format short` gives them), 2 when there was nothing to
/// convert (no such record, JSON that is no game document).
fn refuse(name: &str, src: &str, index: usize, e: ConvertError) -> ExitCode {
    match e {
        ConvertError::NotReplayed(verdict) => {
            let source = Source::new(name, Arc::new(src.to_string()));
            eprint!("{}", report::short_lines(&source, &verdict, false));
            note(&format!("{name}: record {index} does not replay to its end, so it is not converted"));
            ExitCode::from(1)
        }
        ConvertError::Document { .. } => {
            note(&format!("{name}: record {index}: {e}"));
            ExitCode::from(1)
        }
        ConvertError::Json(_) | ConvertError::NoRecord { .. } => {
            note(&format!("{name}: {e}"));
            ExitCode::from(2)
        }
    }
}
