//! `referee verify`: every input in order, its records verified and printed by one printer, a
//! summary on standard error, and the exit code.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use referee::report::{self, FileProblem, FileStatus, HumanStyle, Source};
use referee::verdict::{Status, Verdict};
use referee::verify::{verify_source, VerifyOptions};

use super::inputs::{self, Input};
use super::out::{self, Closed, Out};
use super::{Format, VerifyArgs};

/// Writes records and file problems in the chosen format.
struct Printer {
    format: Format,
    quiet: bool,
    style: HumanStyle,
    out: Out,
}

impl Printer {
    fn record(&mut self, source: &Source, v: &Verdict) -> Result<(), Closed> {
        if self.quiet && v.status == Status::Valid {
            return Ok(());
        }
        let text = match self.format {
            Format::Human => report::human(source, v, self.style) + "\n",
            Format::Json => report::json_line(source, v) + "\n",
            Format::Short => report::short_lines(source, v, self.style.color),
        };
        self.out.write(&text)
    }

    /// A file that could not be read or holds no record: on standard error in the human report
    /// (as before any record), on standard output in the formats made for programs.
    fn file_problem(&mut self, p: &FileProblem) -> Result<(), Closed> {
        match self.format {
            Format::Human => {
                out::note(&format!("{}: {}", p.file, p.message));
                Ok(())
            }
            Format::Json => self.out.write(&(report::file_json_line(p) + "\n")),
            Format::Short => self.out.write(&report::file_short_line(p, self.style.color)),
        }
    }
}

/// What the run found, for the summary and the exit code.
#[derive(Default)]
struct Tally {
    files: usize,
    records: usize,
    valid: usize,
    illegal: usize,
    syntax_errors: usize,
    undecided: usize,
    without_records: usize,
    unreadable: usize,
}

impl Tally {
    fn record(&mut self, status: Status) {
        self.records += 1;
        *match status {
            Status::Valid => &mut self.valid,
            Status::Illegal => &mut self.illegal,
            Status::SyntaxError => &mut self.syntax_errors,
            Status::Undecided => &mut self.undecided,
        } += 1;
    }

    fn file_problem(&mut self, status: FileStatus) {
        match status {
            FileStatus::Unreadable => self.unreadable += 1,
            FileStatus::NoRecord => self.without_records += 1,
        }
    }

    /// 0 when every record is valid, 1 when a record is not or a file holds none, 2 when an
    /// input could not be read.
    fn exit_code(&self) -> ExitCode {
        if self.unreadable > 0 {
            ExitCode::from(2)
        } else if self.valid < self.records || self.without_records > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// `212 records in 95 files: 180 valid, 20 illegal, 10 syntax errors, 2 undecided; 3 files
    /// without records; 0.41 s (517 records/s)`
    fn summary(&self, elapsed: Duration) -> String {
        let n = |count: usize, one: &str, many: &str| format!("{count} {}", if count == 1 { one } else { many });
        let mut s = format!(
            "{} in {}: {} valid, {} illegal, {}, {} undecided",
            n(self.records, "record", "records"),
            n(self.files, "file", "files"),
            self.valid,
            self.illegal,
            n(self.syntax_errors, "syntax error", "syntax errors"),
            self.undecided,
        );
        if self.without_records > 0 {
            s.push_str(&format!("; {} without records", n(self.without_records, "file", "files")));
        }
        if self.unreadable > 0 {
            s.push_str(&format!("; {} unreadable", n(self.unreadable, "input", "inputs")));
        }
        let secs = elapsed.as_secs_f64();
        s.push_str(&format!("; {secs:.2} s"));
        if secs > 0.0 && self.records > 0 {
            s.push_str(&format!(" ({:.0} records/s)", self.records as f64 / secs));
        }
        s
    }
}

/// A progress bar on standard error, drawn only when it is a terminal and the run has lasted a
/// second (or has many files): short runs and pipes never see it.
struct Progress {
    bar: ProgressBar,
    started: Instant,
    terminal: bool,
}

impl Progress {
    const AFTER: Duration = Duration::from_secs(1);
    const MANY_FILES: u64 = 200;

    fn new(files: u64, started: Instant) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(files), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} files  {wide_msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        let progress = Progress { bar, started, terminal: std::io::stderr().is_terminal() };
        if files >= Self::MANY_FILES {
            progress.show();
        }
        progress
    }

    fn show(&self) {
        if self.terminal && self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// Starting on the file `name`.
    fn file(&self, name: &str) {
        if self.started.elapsed() >= Self::AFTER {
            self.show();
        }
        self.bar.set_message(name.to_string());
    }

    /// Runs `f` with the bar out of the way, so that what it prints is not drawn over.
    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }
}

pub fn run(args: VerifyArgs) -> ExitCode {
    let started = Instant::now();
    let extensions: Vec<String> = args
        .ext
        .iter()
        .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .collect();
    let inputs = inputs::collect(&args.paths, &extensions);
    let color = args.format != Format::Json && out::color_wanted(args.color);
    let mut printer = Printer {
        format: args.format,
        quiet: args.quiet,
        style: HumanStyle { color, width: 80 },
        out: Out::new(color),
    };
    let options = VerifyOptions { lenient: args.lenient, game: args.game, search_limit: args.search_limit };
    let files = inputs.iter().filter(|i| matches!(i, Input::File(_) | Input::Stdin)).count();
    let progress = Progress::new(files as u64, started);
    let mut tally = Tally::default();
    for input in &inputs {
        let done = match input {
            Input::Note(note) => {
                progress.suspend(|| out::note(note));
                Ok(())
            }
            Input::Problem(p) => {
                tally.file_problem(p.status);
                progress.suspend(|| printer.file_problem(p))
            }
            Input::File(path) => verify_file(path, options, &mut printer, &mut tally, &progress),
            Input::Stdin => verify_file(Path::new("-"), options, &mut printer, &mut tally, &progress),
        };
        if let Err(closed) = done.and_then(|()| progress.suspend(|| printer.out.flush())) {
            progress.bar.finish_and_clear();
            return closed.exit_code();
        }
        if matches!(input, Input::File(_) | Input::Stdin) {
            progress.bar.inc(1);
        }
    }
    progress.bar.finish_and_clear();
    out::note(&tally.summary(started.elapsed()));
    tally.exit_code()
}

fn verify_file(
    path: &Path,
    options: VerifyOptions,
    printer: &mut Printer,
    tally: &mut Tally,
    progress: &Progress,
) -> Result<(), Closed> {
    let name = inputs::display_name(path);
    progress.file(&name);
    let text = match inputs::read(path) {
        Ok(text) => Arc::new(text),
        Err(p) => {
            tally.file_problem(p.status);
            return progress.suspend(|| printer.file_problem(&p));
        }
    };
    tally.files += 1;
    let verdicts = verify_source(&text, options);
    if verdicts.is_empty() {
        let p = FileProblem {
            file: name,
            status: FileStatus::NoRecord,
            message: "no game record found: a record is a run of numbered move lines like `1. .... .... 1 a7a8 i3i2`, \
                      or PGN-style tags such as [Game \"Quarod\"] followed by numbered moves"
                .into(),
            at: None,
        };
        tally.file_problem(p.status);
        return progress.suspend(|| printer.file_problem(&p));
    }
    let source = Source::new(name, text.clone());
    for v in &verdicts {
        tally.record(v.status);
        progress.suspend(|| printer.record(&source, v))?;
    }
    Ok(())
}
