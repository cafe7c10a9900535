//! `referee verify`: every input in order, its records verified and printed by one printer, a
//! summary on standard error, and the exit code.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use referee::report::{self, FileProblem, FileStatus, HumanStyle, Source};
use referee::verdict::{Status, Verdict};
use referee::verify::{verify_records, VerifyOptions};

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
/// second: short runs and pipes never see it. A timer shows it, so that one long file shows it
/// too.
struct Progress {
    bar: ProgressBar,
    /// Set when the run is over: the timer must not show the bar after that.
    over: Arc<Mutex<bool>>,
}

impl Progress {
    const AFTER: Duration = Duration::from_secs(1);

    fn new(files: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(files), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} files  {wide_msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        let over = Arc::new(Mutex::new(false));
        if std::io::stderr().is_terminal() {
            let (bar, over) = (bar.clone(), over.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Self::AFTER);
                if !*over.lock().unwrap_or_else(|e| e.into_inner()) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        Progress { bar, over }
    }

    /// Runs `f` with the bar out of the way, so that what it prints is not drawn over.
    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    fn finish(&self) {
        let mut over = self.over.lock().unwrap_or_else(|e| e.into_inner());
        *over = true;
        self.bar.finish_and_clear();
    }
}

/// A run of `verify`: its printer, what it has found so far, its progress bar.
struct Run {
    options: VerifyOptions,
    printer: Printer,
    tally: Tally,
    progress: Progress,
}

impl Run {
    fn step(&mut self, input: &Input) -> Result<(), Closed> {
        match input {
            Input::Note(note) => self.progress.suspend(|| out::note(note)),
            Input::Problem(p) => self.file_problem(p)?,
            Input::File(path) => self.file(path)?,
            Input::Stdin => self.file(Path::new("-"))?,
        }
        if input.is_read() {
            self.progress.bar.inc(1);
        }
        self.progress.suspend(|| self.printer.out.flush())
    }

    fn file_problem(&mut self, p: &FileProblem) -> Result<(), Closed> {
        self.tally.file_problem(p.status);
        self.progress.suspend(|| self.printer.file_problem(p))
    }

    fn file(&mut self, path: &Path) -> Result<(), Closed> {
        let name = inputs::display_name(path);
        self.progress.bar.set_message(name.clone());
        let text = match inputs::read(path) {
            Ok(text) => Arc::new(text),
            Err(p) => return self.file_problem(&p),
        };
        self.tally.files += 1;
        // Each verdict is printed as soon as its record is read and judged.
        let source = Source::new(name.clone(), text.clone());
        let mut found = false;
        for v in verify_records(&text, self.options) {
            found = true;
            self.tally.record(v.status);
            self.progress.suspend(|| self.printer.record(&source, &v))?;
        }
        if !found {
            return self.file_problem(&FileProblem {
                file: name,
                status: FileStatus::NoRecord,
                message: "no game record found: a record is a run of numbered move lines like \
                          `1. .... .... 1 a7a8 i3i2`, or PGN-style tags such as [Game \"Quarod\"] followed by \
                          numbered moves"
                    .into(),
                at: None,
            });
        }
        Ok(())
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
    let files = inputs.iter().filter(|i| i.is_read()).count();
    let mut run = Run {
        options: VerifyOptions { lenient: args.lenient, game: args.game, search_limit: args.search_limit },
        printer: Printer {
            format: args.format,
            quiet: args.quiet,
            style: HumanStyle { color, width: 80 },
            out: Out::new(color),
        },
        tally: Tally::default(),
        progress: Progress::new(files as u64),
    };
    for input in &inputs {
        if let Err(closed) = run.step(input) {
            run.progress.finish();
            return closed.exit_code();
        }
    }
    run.progress.finish();
    out::note(&run.tally.summary(started.elapsed()));
    run.tally.exit_code()
}
