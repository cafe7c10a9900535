//! `referee repair`: the best repairs of a file's records with an illegal move, as a report or JSON
//! lines printed record by record as they are found, or (`--write`) the whole file written again
//! with its records repaired.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::judge::Games;
use crate::repair::{
    self, Left, RecordRepair, RepairOptions, Rewrite, DEFAULT_MAX_BYTES, DEFAULT_MAX_EDITS, DEFAULT_MAX_POSITIONS,
};
use crate::report::{self, HumanStyle, Source};
use crate::search::SearchBudget;
use crate::verify::{VerifyOptions, DEFAULT_SEARCH_LIMIT};

use super::file::{Name, OutFile};
use super::out::{self, note, Out};
use super::GameParser;
use crate::files;

pub const EXIT_CODES: &str = "\
Exit codes:
  0  every record stands: it is valid, or its best repair replays to the end with its final diagram
     and claims confirmed (with --write: that repair was written)
  1  some record does not stand: no repair found makes it stand, or it cannot be judged (syntax
     error, undecided), or (--write) it was left as written, said on standard error; or the file
     holds no record
  2  the run could not do its job: the file could not be read or written, there is no record N, or
     a usage error";

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
    /// Write the whole file again, each record with an illegal move replaced by its best repair
    /// that makes it stand (replays to the end, diagram and claims confirmed) and that the notation
    /// can write; every other byte as it was. Into FILE, whole or not at all, keeping its other
    /// names (hard links), and never into a read-only FILE (standard output for `-`); standard
    /// error names each record repaired or left as written, and why.
    #[arg(long, conflicts_with = "format")]
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
    game: Option<&'static crate::game::About>,
    /// Most positions searched to judge a result claimed before the game is over (see `verify`);
    /// the claims of the records as written, and of the text --write writes, share four times
    /// that, and those of one record's repairs twice that.
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

pub fn run<S: Games>(args: RepairArgs, games: S) -> ExitCode {
    let name = files::display_name(&args.file);
    let src = match files::read(&args.file) {
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
    let options = VerifyOptions { game: args.game, search_limit: args.search_limit, ..VerifyOptions::default() }
        .with_games(games);
    let repair = RepairOptions {
        max_edits: args.max_edits,
        max_positions: args.max_positions,
        time_limit: Some(Duration::from_secs_f64(args.time_limit)),
        shown: args.candidates,
        beam: args.beam,
        max_bytes: args.max_memory << 20,
        ..RepairOptions::default()
    };
    let source = Source::new(name.clone(), Arc::new(src));
    let run = Run { args: &args, source: &source, options, repair };
    if args.write {
        run.write()
    } else {
        run.report()
    }
}

/// One run of `referee repair` on a file read.
struct Run<'a, S: Games> {
    args: &'a RepairArgs,
    source: &'a Source,
    options: VerifyOptions<S>,
    repair: RepairOptions,
}

/// How a run went, for its exit code.
#[derive(Default)]
struct Tally {
    records: usize,
    /// Records that do not stand: the best repair of one with an illegal move does not make it
    /// stand, or (`--write`) it was left as written.
    short: usize,
}

impl<S: Games> Run<'_, S> {
    /// Every record's report, printed as soon as its repair is found.
    fn report(&self) -> ExitCode {
        let style = HumanStyle { color: out::color_wanted(self.args.color), ..HumanStyle::default() };
        let mut out = Out::new();
        let mut closed = None;
        let tally = self.each(|r, tally, _| {
            tally.short += usize::from(!r.stands());
            // By default, only the records that need a repair; a record asked for is always reported.
            if self.args.record.is_none() && r.verdict.status == crate::verdict::Status::Valid {
                return ControlFlow::Continue(());
            }
            let mut text = match self.args.format {
                RepairFormat::Human => report::repair_human(self.source, &r, style),
                RepairFormat::Json => report::repair_json(self.source, &r),
            };
            text.push('\n');
            // Each record as soon as it is found: a record's search may take seconds.
            match out.write(&text).and_then(|()| out.flush()) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    closed = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        if let Some(closed) = closed {
            return closed.exit_code();
        }
        self.exit(tally, out.flush().err())
    }

    /// The whole file again, each record with an illegal move replaced by its repair where one
    /// makes it stand and the notation can write it: into the file, whole or not at all (standard
    /// output for `-`). Standard error says what was done to each record that needed a repair.
    fn write(&self) -> ExitCode {
        let src = self.source.text();
        let mut sink = if self.args.file == Path::new("-") {
            Sink::Out(Out::new())
        } else {
            match OutFile::open(&self.args.file, Name::Given) {
                Ok(f) => Sink::File(f),
                Err(message) => {
                    note(&message);
                    return ExitCode::from(2);
                }
            }
        };
        let (mut at, mut repaired, mut failed) = (0, 0, None);
        let name = self.source.name();
        let tally = self.each(|r, tally, budget| {
            let v = &r.verdict;
            let record = format!("{name}: record {} (line {})", v.index, self.source.line_col(v.span.start).0);
            match repair::rewrite_within(src, &r, self.options, budget) {
                Rewrite::Unchanged => {}
                Rewrite::Left(why) => {
                    tally.short += 1;
                    note(&format!("{record}: left as written: {}", self.left_words(&why, r.search.as_ref())));
                }
                Rewrite::Repaired { text, edits } => {
                    // Records come in file order, one after the other; one that did not would be
                    // left as written rather than write a byte twice.
                    let Some(before) = src.get(at..v.span.start) else { return ControlFlow::Continue(()) };
                    let written = sink.write(before).and_then(|()| sink.write(&text));
                    if let Err(e) = written {
                        failed = Some(e);
                        return ControlFlow::Break(());
                    }
                    at = v.span.end;
                    repaired += 1;
                    note(&format!("{record}: repaired ({edits} edit{})", if edits == 1 { "" } else { "s" }));
                }
            }
            ControlFlow::Continue(())
        });
        if let Some(e) = failed {
            return e.exit_code();
        }
        let done = sink.write(src.get(at..).unwrap_or_default()).and_then(|()| match sink {
            // A file none of whose records changed is left as it is, not rewritten.
            Sink::File(_) if repaired == 0 => Ok(()),
            Sink::File(f) => f.commit().map_err(Failed::File),
            Sink::Out(mut o) => o.flush().map_err(Failed::Out),
        });
        match done {
            Ok(()) => self.exit(tally, None),
            Err(e) => e.exit_code(),
        }
    }

    /// Repairs every record (or the one asked for), handing each to `each` with the tally so far
    /// and what the run's searches may still spend: the claims of the records as written, and of
    /// the text `--write` writes, share one budget, in file order.
    fn each(
        &self,
        mut each: impl FnMut(RecordRepair, &mut Tally, &mut SearchBudget) -> ControlFlow<()>,
    ) -> Result<Tally, String> {
        let mut tally = Tally::default();
        let (text, repair, only) = (self.source.text(), self.repair.clone(), self.args.record);
        let mut budget = self.options.run_budget();
        repair::repair_each_within(text, self.options, repair, only, &mut budget, |r, budget| {
            tally.records += 1;
            each(r, &mut tally, budget)
        })?;
        Ok(tally)
    }

    /// 0 when every record stands (as written, or repaired), 1 when one does not or the file holds
    /// none, 2 when the run could not go on.
    fn exit(&self, tally: Result<Tally, String>, closed: Option<out::Closed>) -> ExitCode {
        if let Some(closed) = closed {
            return closed.exit_code();
        }
        let name = self.source.name();
        match tally {
            Err(message) => {
                note(&format!("{name}: {message}"));
                ExitCode::from(2)
            }
            Ok(t) if t.records == 0 => {
                note(&format!("{name}: no game record found"));
                ExitCode::from(1)
            }
            Ok(t) if t.short > 0 => ExitCode::from(1),
            Ok(_) => ExitCode::SUCCESS,
        }
    }

    /// Why `--write` left a record as written, in words.
    fn left_words(&self, why: &Left, search: Option<&repair::Search>) -> String {
        report::left_words(why, search, |span| {
            let (line, col) = self.source.line_col(span.start);
            format!("{line}:{col}")
        })
    }
}

/// Where `--write` writes: the file, or standard output for `-`.
enum Sink {
    File(OutFile),
    Out(Out),
}

/// A write that failed.
enum Failed {
    File(String),
    Out(out::Closed),
}

impl Failed {
    /// 2 with a line on standard error; a closed pipe ends the run quietly.
    fn exit_code(self) -> ExitCode {
        match self {
            Failed::File(message) => {
                note(&message);
                ExitCode::from(2)
            }
            Failed::Out(closed) => closed.exit_code(),
        }
    }
}

impl Sink {
    fn write(&mut self, text: &str) -> Result<(), Failed> {
        match self {
            Sink::File(f) => f.write_bytes(text.as_bytes()).map_err(Failed::File),
            Sink::Out(o) => o.write(text).map_err(Failed::Out),
        }
    }
}
