//! `referee convert`: a record in its notation's canonical layout, or as JSON, and back.

use std::cell::OnceCell;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use crate::convert::{self, ConvertError, GameDocument};
use crate::judge::Games;
use crate::report::{self, Source};
use crate::verify::VerifyOptions;

use super::file::{Name, OutFile};
use super::out::{note, Out};
use super::GameParser;
use crate::files;

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
    #[arg(long, value_parser = super::record_number)]
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
    game: Option<&'static crate::game::About>,
    /// Write to this file rather than to standard output: whole or not at all, keeping its other
    /// names (hard links); a read-only file is refused.
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

pub fn run<S: Games>(args: ConvertArgs, games: S) -> ExitCode {
    let name = files::display_name(&args.file);
    let src = match files::read(&args.file) {
        Ok(s) => Arc::new(s),
        Err(p) => {
            note(&format!("{name}: {}", p.message));
            return ExitCode::from(2);
        }
    };
    let options = VerifyOptions { game: args.game, ..VerifyOptions::default() }.with_games(games);
    // Each record (or JSON document) asked for, with its 1-based index, read, converted and
    // written one at a time: a large collection is never held whole in memory, as documents or as
    // output. JSON that is no document stops the run where it is met.
    let docs: Box<dyn Iterator<Item = (usize, Result<GameDocument, ConvertError>)>> = match (args.from, args.record) {
        (InputKind::Record, Some(index)) => Box::new(std::iter::once((index, convert::document(&src, index, options)))),
        (InputKind::Record, None) => Box::new((1..).zip(convert::documents(&src, options))),
        (InputKind::Json, Some(index)) => Box::new(std::iter::once((index, nth_document(&src, index, games)))),
        (InputKind::Json, None) => Box::new(
            (1..)
                .zip(convert::json_documents(&src).map(move |doc| doc.and_then(|doc| convert::reread_in(&doc, games)))),
        ),
    };
    let mut sink = Sink::new(args.out.as_deref(), &args.file);
    // One source for every refused record's report: its lines are found once, not once per record.
    let source = OnceCell::new();
    let (mut code, mut seen) = (ExitCode::SUCCESS, false);
    for (index, doc) in docs {
        seen = true;
        let text = doc.and_then(|doc| match args.to {
            Target::Canonical => convert::canonical_in(&doc, games),
            Target::Json => Ok(convert::to_json(&doc)),
            Target::Code => Ok(format!("{}\n", convert::last_code(&doc))),
        });
        match text {
            // Records one after the other, a blank line between two; JSON objects and codes one
            // after the other, as `--from json` reads them.
            Ok(text) => {
                let gap = if args.to == Target::Canonical && sink.written { "\n" } else { "" };
                if let Err(failed) = sink.write(gap).and_then(|()| sink.write(&text)) {
                    return failed;
                }
            }
            Err(e) => match refuse(&name, &source, &src, index, e) {
                stop if stop == ExitCode::from(2) => return stop,
                refused => code = refused,
            },
        }
    }
    if !seen {
        note(&format!("{name}: no game record found"));
        return ExitCode::from(1);
    }
    match sink.finish() {
        Ok(()) => code,
        Err(failed) => failed,
    }
}

/// Document `index` (1-based) of those a JSON text holds, replayed as a record would be; those
/// before it are read and let go of.
fn nth_document<S: Games>(src: &str, index: usize, games: S) -> Result<GameDocument, ConvertError> {
    let mut count = 0;
    for doc in convert::json_documents(src) {
        let doc = doc?;
        count += 1;
        if count == index {
            return convert::reread_in(&doc, games);
        }
    }
    Err(ConvertError::NoRecord { index, count })
}

/// Where the converted records go: standard output, or the `-o` file, begun at the first record
/// converted (when none is, no file is made) and put in place when every record is written.
struct Sink<'p> {
    path: Option<&'p Path>,
    input: &'p Path,
    out: Option<Opened>,
    written: bool,
}

enum Opened {
    Stdout(Out),
    File(OutFile),
}

impl<'p> Sink<'p> {
    fn new(path: Option<&'p Path>, input: &'p Path) -> Sink<'p> {
        Sink { path, input, out: None, written: false }
    }

    /// Writes `text`; `Err` holds the exit code of a failed write (0 for a pipe its reader closed).
    fn write(&mut self, text: &str) -> Result<(), ExitCode> {
        let out = match (&mut self.out, self.path) {
            (Some(out), _) => out,
            (None, None) => self.out.insert(Opened::Stdout(Out::new())),
            (None, Some(path)) => match OutFile::create(path, self.input, Name::Given) {
                Ok(file) => self.out.insert(Opened::File(file)),
                Err(message) => return Err(file_failed(&message)),
            },
        };
        self.written = true;
        match out {
            Opened::Stdout(out) => out.write(text).map_err(|closed| closed.exit_code()),
            Opened::File(file) => file.write_bytes(text.as_bytes()).map_err(|message| file_failed(&message)),
        }
    }

    fn finish(self) -> Result<(), ExitCode> {
        match self.out {
            None => Ok(()),
            Some(Opened::Stdout(mut out)) => out.flush().map_err(|closed| closed.exit_code()),
            Some(Opened::File(file)) => file.commit().map_err(|message| file_failed(&message)),
        }
    }
}

/// A write to the `-o` file failed: the run stops (exit code 2), and the file is as it was.
fn file_failed(message: &str) -> ExitCode {
    note(message);
    ExitCode::from(2)
}

/// Says why a record was not converted: exit code 1 for a record or document that does not
/// replay to its end (with its problems as `verify --format short` gives them), 2 when there was
/// nothing to convert (no such record, JSON that is no game document).
fn refuse(name: &str, source: &OnceCell<Source>, src: &Arc<String>, index: usize, e: ConvertError) -> ExitCode {
    match e {
        ConvertError::NotReplayed(verdict) => {
            let source = source.get_or_init(|| Source::new(name, src.clone()));
            // Standard error closed or full must not stop the records after this one.
            let _ = io::stderr().write_all(report::short_lines(source, &verdict, false).as_bytes());
            note(&format!("{name}: record {index} does not replay to its end, so it is not converted"));
            ExitCode::from(1)
        }
        ConvertError::Document { .. } => {
            note(&format!("{name}: record {index}: {e}"));
            ExitCode::from(1)
        }
        ConvertError::Json { .. } | ConvertError::NoRecord { .. } => {
            note(&format!("{name}: {e}"));
            ExitCode::from(2)
        }
    }
}
