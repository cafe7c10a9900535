//! `referee verify`: every input in order, its records verified and printed by one printer, a
//! summary on standard error, and the exit code.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::judge::Games;
use crate::report::{self, FileProblem, FileStatus, HumanStyle, Source};
use crate::search::SearchBudget;
use crate::stream::{verify_stream_with, InputError, Judged, StreamError, StreamOptions, Waiting};
use crate::verdict::{Status, Verdict};
use crate::verify::VerifyOptions;

use super::out::{self, Closed, Out};
use super::{Format, VerifyArgs};
use crate::files::{self, Input};

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

/// What verifying an input gives, in order: text for standard output, the status of each record,
/// a problem with the whole input.
enum Piece<S: Games> {
    /// The input could be opened: it counts as a file read.
    Opened,
    Text(String),
    Record(Status),
    /// A record whose claims wait for the run's budget, and the window it is reported from: judged
    /// when its turn comes, in input order.
    Waiting(Waiting<S>, Arc<Source>),
    Problem(FileProblem),
}

/// A record as the thread that judged it hands it on: its report and status, or the record waiting
/// for the search of its claims.
enum Written<S: Games> {
    Record(String, Status),
    Waiting(Waiting<S>, Arc<Source>),
}

/// Inputs at most this large are verified side by side, one per thread, their output held until
/// it is their turn; larger ones one at a time, their records verified side by side as they are
/// read.
const SMALL: u64 = 1 << 20;

/// Verifies one input (a file, or `-` for standard input) as a stream, handing what it gives to
/// `emit` window by window. The claims that need a search are judged within `budget`, in file
/// order; without one, their records are handed on waiting ([`Piece::Waiting`]).
fn verify_input<S: Games>(
    path: &Path,
    options: VerifyOptions<S>,
    stream: StreamOptions,
    mut budget: Option<&mut SearchBudget>,
    render: Render,
    emit: &mut dyn FnMut(Piece<S>) -> Result<(), Closed>,
) -> Result<(), Closed> {
    let name = files::display_name(path);
    let problem = |message: String, at: Option<(usize, usize)>| {
        Piece::Problem(FileProblem { file: name.clone(), status: FileStatus::Unreadable, message, at })
    };
    let mut stream = stream;
    let input: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(Arrived::stdin())
    } else {
        match File::open(path) {
            Ok(f) => {
                // A regular file's reads never wait for a writer (a named pipe's may): the next
                // window is read while this one is judged.
                stream.read_ahead = f.metadata().is_ok_and(|m| m.is_file());
                Box::new(f)
            }
            Err(e) => return emit(problem(format!("cannot open: {e}"), None)),
        }
    };
    emit(Piece::Opened)?;
    // A window's lines are found once, before its first verdict; each verdict is written where it
    // was judged, side by side, and let go of there.
    let result = verify_stream_with(
        input,
        options,
        stream,
        |stretch| Arc::new(Source::window(name.clone(), stretch.text.clone(), stretch.first_line)),
        |source, judged| match judged {
            Judged::Verdict(v) => Written::Record(render.record(source, &v), v.status),
            Judged::Waiting(w) => Written::Waiting(w, Arc::clone(source)),
        },
        |stretch, written| {
            // A part too long to hold is said where it stands, and the file read on.
            if let Some(skipped) = stretch.skipped {
                emit(problem(skipped.to_string(), Some((skipped.line, 1))))?;
            }
            let reports = written.iter().map(|w| if let Written::Record(r, _) = w { r.len() } else { 0 });
            let mut text = String::with_capacity(reports.sum());
            for w in written {
                match (w, budget.as_deref_mut()) {
                    (Written::Record(record, status), _) => {
                        emit(Piece::Record(status))?;
                        text.push_str(&record);
                    }
                    (Written::Waiting(waiting, source), Some(budget)) => {
                        let v = waiting.finish(budget);
                        emit(Piece::Record(v.status))?;
                        text.push_str(&render.record(&source, &v));
                    }
                    (Written::Waiting(waiting, source), None) => {
                        if !text.is_empty() {
                            emit(Piece::Text(std::mem::take(&mut text)))?;
                        }
                        emit(Piece::Waiting(waiting, source))?;
                    }
                }
            }
            emit(Piece::Text(text))
        },
    );
    match result {
        Ok(0) => emit(Piece::Problem(FileProblem {
            file: name.clone(),
            status: FileStatus::NoRecord,
            message: "no game record found: a record is a run of numbered move lines like \
                      `1. .... .... 1 a7a8 i3i2`, or PGN-style tags such as [Game \"Quarod\"] followed by \
                      numbered moves"
                .into(),
            at: None,
        })),
        Ok(_) => Ok(()),
        Err(StreamError::Sink(closed)) => Err(closed),
        Err(StreamError::Input(e)) => {
            let at = match e {
                InputError::NotUtf8 { line, column, .. } => Some((line, column)),
                _ => None,
            };
            emit(problem(e.to_string(), at))
        }
    }
}

/// Standard input, read on a thread of its own so that a read returns short only when the input
/// has nothing more for now: everything that has arrived is handed over at once, so a fast pipe
/// (`cat big.txt | referee verify -`) fills whole chunks as a file does, and a short read means
/// the writer is waiting (`tail -f games.log`), which is when the stream judges what it holds.
/// A pipe alone gives a short read every 64 KiB, which would cut a fast stream into small
/// windows, too small to keep every core busy.
struct Arrived {
    pieces: mpsc::Receiver<io::Result<Vec<u8>>>,
    piece: Vec<u8>,
    at: usize,
    /// An error that came after some bytes: given by the next read.
    failed: Option<io::Error>,
}

impl Arrived {
    fn stdin() -> Arrived {
        // A few pieces in flight: the reader stays ahead of the verifier without holding the input.
        let (send, pieces) = mpsc::sync_channel(16);
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            loop {
                let mut buf = vec![0; 1 << 16];
                let piece = match stdin.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        buf.truncate(n);
                        Ok(buf)
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let failed = piece.is_err();
                // The verifier has stopped (a closed output): nothing more is wanted.
                if send.send(piece).is_err() || failed {
                    break;
                }
            }
        });
        Arrived { pieces, piece: Vec::new(), at: 0, failed: None }
    }
}

impl Read for Arrived {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let mut n = 0;
        while n < buf.len() {
            if self.at == self.piece.len() {
                // Wait for the first bytes only; after them, take what has already arrived.
                let next = if n == 0 { self.pieces.recv().ok() } else { self.pieces.try_recv().ok() };
                match next {
                    Some(Ok(piece)) => (self.piece, self.at) = (piece, 0),
                    Some(Err(e)) if n == 0 => return Err(e),
                    Some(Err(e)) => {
                        self.failed = Some(e);
                        break;
                    }
                    None => break,
                }
            }
            let k = (self.piece.len() - self.at).min(buf.len() - n);
            buf[n..n + k].copy_from_slice(&self.piece[self.at..self.at + k]);
            (self.at, n) = (self.at + k, n + k);
        }
        Ok(n)
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

/// A run of `verify`: its output, what it has found so far, its progress bar.
struct Run<S: Games> {
    options: VerifyOptions<S>,
    render: Render,
    /// Whether records and files are verified on all of rayon's threads.
    parallel: bool,
    /// What the run's searches may still spend, all its files together, in input order: the same
    /// verdicts whatever the number of threads.
    budget: SearchBudget,
    out: Out,
    tally: Tally,
    progress: Progress,
}

impl<S: Games> Run<S> {
    /// Verifies the inputs in order: runs of small files side by side, the rest one at a time.
    fn all(&mut self, inputs: &[Input]) -> Result<(), Closed> {
        let small = |i: &Input| match i {
            Input::File(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= SMALL),
            _ => false,
        };
        let batch = if self.parallel { 4 * rayon::current_num_threads() } else { 1 };
        let mut rest = inputs;
        while let Some(first) = rest.first() {
            let run = if small(first) { rest.iter().take(batch).take_while(|i| small(i)).count() } else { 1 };
            let (now, later) = rest.split_at(run.max(1));
            rest = later;
            if let [one] = now {
                self.step(one)?;
                continue;
            }
            let (options, render) = (self.options, self.render);
            let stream = StreamOptions { parallel: false, ..StreamOptions::default() };
            // Files verified side by side cannot spend the run's budget in input order: their
            // records whose claims need a search wait, to be judged here in turn (`apply`). Once
            // the budget is spent nothing changes what it says, and they are judged at once.
            let spent = (self.budget.left == 0).then(|| self.budget.clone());
            let outcomes: Vec<Vec<Piece<S>>> = now
                .par_iter()
                .map(|input| {
                    let mut pieces = Vec::new();
                    let mut spent = spent.clone();
                    if let Input::File(path) = input {
                        let _ = verify_input(path, options, stream, spent.as_mut(), render, &mut |p| {
                            pieces.push(p);
                            Ok(())
                        });
                    }
                    pieces
                })
                .collect();
            for (input, pieces) in now.iter().zip(outcomes) {
                self.file_started(input);
                for p in pieces {
                    self.apply(p)?;
                }
                self.file_done(input)?;
            }
        }
        Ok(())
    }

    fn step(&mut self, input: &Input) -> Result<(), Closed> {
        self.file_started(input);
        match input {
            Input::Note(note) => self.progress.suspend(|| out::note(note)),
            Input::Problem(p) => self.apply(Piece::Problem(p.clone()))?,
            Input::File(path) => self.stream(path)?,
            Input::Stdin => self.stream(Path::new("-"))?,
        }
        self.file_done(input)
    }

    fn stream(&mut self, path: &Path) -> Result<(), Closed> {
        let stream = StreamOptions { parallel: self.parallel, ..StreamOptions::default() };
        let (options, render) = (self.options, self.render);
        // Lent to the file, whose records are judged in file order as they come, and taken back.
        let mut budget = self.budget.clone();
        let done = verify_input(path, options, stream, Some(&mut budget), render, &mut |p| self.apply(p));
        self.budget = budget;
        done
    }

    fn file_started(&mut self, input: &Input) {
        match input {
            Input::File(path) => self.progress.bar.set_message(files::display_name(path)),
            Input::Stdin => self.progress.bar.set_message("<stdin>"),
            _ => {}
        }
    }

    fn file_done(&mut self, input: &Input) -> Result<(), Closed> {
        if input.is_read() {
            self.progress.bar.inc(1);
        }
        self.progress.suspend(|| self.out.flush())
    }

    /// Prints and counts one piece of an input's verification, in input order.
    fn apply(&mut self, piece: Piece<S>) -> Result<(), Closed> {
        match piece {
            Piece::Opened => {
                self.tally.files += 1;
                Ok(())
            }
            // Flushed at once: a stream's verdicts must not wait in the buffer for the next
            // window (`tail -f games.log | referee verify -`). A window is a megabyte of input
            // or a file, so this costs one write per window.
            Piece::Text(text) => self.progress.suspend(|| self.out.write(&text).and_then(|()| self.out.flush())),
            Piece::Record(status) => {
                self.tally.record(status);
                Ok(())
            }
            Piece::Waiting(waiting, source) => {
                let v = waiting.finish(&mut self.budget);
                self.tally.record(v.status);
                let text = self.render.record(&source, &v);
                self.apply(Piece::Text(text))
            }
            Piece::Problem(p) => {
                self.tally.file_problem(p.status);
                let render = self.render;
                self.progress.suspend(|| match render.format {
                    Format::Human => {
                        out::note(&format!("{}: {}", p.file, p.message));
                        Ok(())
                    }
                    Format::Json => self.out.write(&(report::file_json_line(&p) + "\n")),
                    Format::Short => self.out.write(&report::file_short_line(&p, render.style.color)),
                    Format::Csv => self.out.write(&report::file_csv_row(&p)),
                })
            }
        }
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
        ..VerifyOptions::default()
    }
    .with_games(games);
    let mut run = Run {
        options,
        budget: options.run_budget(),
        render: Render { format: args.format, quiet: args.quiet, style: HumanStyle { color, width: 80 } },
        parallel: rayon::current_num_threads() > 1,
        out: Out::behind(),
        tally: Tally::default(),
        progress: Progress::new(files as u64),
    };
    let header = if args.format == Format::Csv { run.out.write(&report::csv_header()) } else { Ok(()) };
    let done = header.and_then(|()| run.all(&inputs)).and_then(|()| run.out.close());
    run.progress.finish();
    if let Err(closed) = done {
        return closed.exit_code();
    }
    out::note(&run.tally.summary(started.elapsed()));
    run.tally.exit_code()
}
