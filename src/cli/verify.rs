//! `referee verify`: every input in order, its records verified and printed by one printer, a
//! summary on standard error, and the exit code.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::files::run::{verify_inputs, Sink};
use crate::files::{self, Input};
use crate::judge::Games;
use crate::report::{self, FileProblem, FileStatus, HumanStyle, Source};
use crate::verdict::{Status, Verdict};
use crate::verify::VerifyOptions;

use super::out::{self, Closed, Out};
use super::{Format, VerifyArgs};

/// How records and file problems are written in the chosen format; shared by the threads that
/// verify files side by side.
#[derive(Clone, Copy)]
struct Render {
    format: Format,
    quiet: bool,
    style: HumanStyle,
}

impl Render {
    /// A record's report; nothing for a valid record in quiet mode.
    fn record(&self, source: &Source, v: &Verdict) -> String {
        if self.quiet && v.status == Status::Valid {
            return String::new();
        }
        match self.format {
            Format::Human => report::human(source, v, self.style) + "\n",
            Format::Json => report::json_line(source, v) + "\n",
            Format::Short => report::short_lines(source, v, self.style.color),
            Format::Csv => report::csv_row(source, v),
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
    refuted: usize,
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
            Status::Refuted => &mut self.refuted,
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

    /// `212 records in 95 files: 180 valid, 16 illegal, 4 refuted, 10 syntax errors, 2 undecided;
    /// 3 files without records; 0.41 s (517 records/s)`
    fn summary(&self, elapsed: Duration) -> String {
        let n = |count: usize, one: &str, many: &str| format!("{count} {}", if count == 1 { one } else { many });
        let mut s = format!(
            "{} in {}: {} valid, {} illegal, {} refuted, {}, {} undecided",
            n(self.records, "record", "records"),
            n(self.files, "file", "files"),
            self.valid,
            self.illegal,
            self.refuted,
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

/// Where `verify`'s findings go: standard output in the chosen format, the tally, the progress bar.
struct Printer {
    /// The reports of the window being handed on, written out together at its end.
    held: String,
    format: Format,
    style: HumanStyle,
    out: Out,
    tally: Tally,
    progress: Progress,
}

impl Sink<String> for Printer {
    type Stop = Closed;

    fn started(&mut self, input: &Input) {
        match input {
            Input::File(path) => self.progress.bar.set_message(files::display_name(path)),
            Input::Stdin => self.progress.bar.set_message("<stdin>"),
            _ => {}
        }
    }

    fn opened(&mut self) {
        self.tally.files += 1;
    }

    fn record(&mut self, status: Status, report: String) -> Result<(), Closed> {
        self.tally.record(status);
        self.held.push_str(&report);
        Ok(())
    }

    fn problem(&mut self, p: FileProblem) -> Result<(), Closed> {
        self.window()?;
        self.tally.file_problem(p.status);
        let (format, color) = (self.format, self.style.color);
        self.progress.suspend(|| match format {
            Format::Human => {
                out::note(&format!("{}: {}", p.file, p.message));
                Ok(())
            }
            Format::Json => self.out.write(&(report::file_json_line(&p) + "\n")),
            Format::Short => self.out.write(&report::file_short_line(&p, color)),
            Format::Csv => self.out.write(&report::file_csv_row(&p)),
        })
    }

    fn note(&mut self, note: &str) {
        self.progress.suspend(|| out::note(note));
    }

    // Flushed at once: a stream's verdicts must not wait in the buffer for the next window
    // (`tail -f games.log | referee verify -`). A window is a megabyte of input or a file, so this
    // costs one write per window.
    fn window(&mut self) -> Result<(), Closed> {
        let held = std::mem::take(&mut self.held);
        self.progress.suspend(|| self.out.write(&held).and_then(|()| self.out.flush()))
    }

    fn done(&mut self, input: &Input) -> Result<(), Closed> {
        if input.is_read() {
            self.progress.bar.inc(1);
        }
        self.window()
    }
}

pub fn run<S: Games>(args: VerifyArgs, games: S) -> ExitCode {
    let started = Instant::now();
    let extensions: Vec<String> = args
        .ext
        .iter()
        .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .collect();
    let inputs = files::collect(&args.paths, &extensions);
    let color = matches!(args.format, Format::Human | Format::Short) && out::color_wanted(args.color);
    let files = inputs.iter().filter(|i| i.is_read()).count();
    if let Some(jobs) = args.jobs {
        // Only the first pool set up counts; a second call can only fail, harmlessly.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(jobs as usize).build_global();
    }
    let options = VerifyOptions {
        lenient: args.lenient,
        game: args.game,
        search_limit: args.search_limit,
        // Short lines say only what is wrong: where the game stands goes unwritten, and unmade.
        standing: args.format != Format::Short,
        ..VerifyOptions::default()
    }
    .with_games(games);
    let render = Render { format: args.format, quiet: args.quiet, style: HumanStyle { color, width: 80 } };
    let mut printer = Printer {
        held: String::new(),
        format: args.format,
        style: render.style,
        out: Out::behind(),
        tally: Tally::default(),
        progress: Progress::new(files as u64),
    };
    let header = if args.format == Format::Csv { printer.out.write(&report::csv_header()) } else { Ok(()) };
    let done = header
        .and_then(|()| {
            verify_inputs(&inputs, options, |source: &Source, v: &Verdict| render.record(source, v), &mut printer)
        })
        .and_then(|()| printer.out.close());
    printer.progress.finish();
    if let Err(closed) = done {
        return closed.exit_code();
    }
    out::note(&printer.tally.summary(started.elapsed()));
    printer.tally.exit_code()
}
