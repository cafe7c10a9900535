//! A run over the inputs of [`collect`](super::collect): every record of every input verified in
//! input order, each verdict made into its report on the thread that judged it and handed to a
//! [`Sink`] in order. The command line's `verify` prints what it is handed; the Python package's
//! `referee.verify` hands it to Python. One run, so that both give the same verdicts in the same
//! order whatever the number of threads.
//!
//! Its shape: runs of small files are verified side by side, one per thread; a larger file (or
//! standard input) one at a time, as a stream whose records are verified side by side. The claims'
//! searches share the run's budget, spent in input order.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::{mpsc, Arc};

use rayon::prelude::*;

use crate::judge::Games;
use crate::report::{FileProblem, FileStatus, Source};
use crate::search::SearchBudget;
use crate::stream::{verify_stream_with, InputError, Judged, StreamError, StreamOptions, Waiting};
use crate::verdict::{Status, Verdict};
use crate::verify::VerifyOptions;

use super::{display_name, Input};

/// Where a run's findings go, in input order. `T` is a record's report, made by the run's
/// `report` function on the thread that judged the record.
pub trait Sink<T> {
    /// Why the sink wants no more (a closed output, a dropped iterator): the run stops with it.
    type Stop;

    /// An input's turn has come (before anything of it is handed on).
    fn started(&mut self, _input: &Input) {}

    /// The input could be opened: it counts as a file read.
    fn opened(&mut self) {}

    /// A record's status and report.
    fn record(&mut self, status: Status, report: T) -> Result<(), Self::Stop>;

    /// A problem with a whole input (it cannot be read, it holds no record), or with a part of it
    /// too long to hold (the input read on).
    fn problem(&mut self, problem: FileProblem) -> Result<(), Self::Stop>;

    /// Something passed over ([`Input::Note`]), and why.
    fn note(&mut self, _note: &str) {}

    /// A window of an input has been handed on: what the sink holds may go out now (a stream's
    /// verdicts must not wait for the next window, as with `tail -f games.log`).
    fn window(&mut self) -> Result<(), Self::Stop> {
        Ok(())
    }

    /// An input is done.
    fn done(&mut self, _input: &Input) -> Result<(), Self::Stop> {
        Ok(())
    }
}

/// Inputs at most this large are verified side by side, one per thread, their findings held until
/// it is their turn; larger ones one at a time, their records verified side by side as they are
/// read.
const SMALL: u64 = 1 << 20;

/// What verifying an input gives, in order.
enum Piece<S: Games, T> {
    Opened,
    Record(Status, T),
    /// A record whose claims wait for the run's budget, and the window it is reported from: judged
    /// when its turn comes, in input order.
    Waiting(Waiting<S>, Arc<Source>),
    Problem(FileProblem),
    Window,
}

/// A record as the thread that judged it hands it on.
enum Written<S: Games, T> {
    Record(Status, T),
    Waiting(Waiting<S>, Arc<Source>),
}

/// Verifies every input in order, handing what it finds to `sink`; `report` makes a record's
/// report from its verdict, on the thread that judged it. Runs on the current rayon pool: on all
/// its threads when it has more than one.
pub fn verify_inputs<S, T, F, K>(
    inputs: &[Input],
    options: VerifyOptions<S>,
    report: F,
    sink: &mut K,
) -> Result<(), K::Stop>
where
    S: Games,
    T: Send,
    F: Fn(&Source, &Verdict) -> T + Sync,
    K: Sink<T>,
{
    let mut run = Run {
        options,
        parallel: rayon::current_num_threads() > 1,
        budget: options.run_budget(),
        report: &report,
        sink,
    };
    run.all(inputs)
}

struct Run<'a, S: Games, F, K> {
    options: VerifyOptions<S>,
    /// Whether records and files are verified on all of rayon's threads.
    parallel: bool,
    /// What the run's searches may still spend, all its files together, in input order: the same
    /// verdicts whatever the number of threads.
    budget: SearchBudget,
    report: &'a F,
    sink: &'a mut K,
}

impl<S, T, F, K> Run<'_, S, F, K>
where
    S: Games,
    T: Send,
    F: Fn(&Source, &Verdict) -> T + Sync,
    K: Sink<T>,
{
    /// Verifies the inputs in order: runs of small files side by side, the rest one at a time.
    fn all(&mut self, inputs: &[Input]) -> Result<(), K::Stop> {
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
            let (options, report) = (self.options, self.report);
            let stream = StreamOptions { parallel: false, ..StreamOptions::default() };
            // Files verified side by side cannot spend the run's budget in input order: their
            // records whose claims need a search wait, to be judged in turn (`apply`). Once the
            // budget is spent nothing changes what it says, and they are judged at once.
            let spent = (self.budget.left == 0).then(|| self.budget.clone());
            let outcomes: Vec<Vec<Piece<S, T>>> = now
                .par_iter()
                .map(|input| {
                    let mut pieces = Vec::new();
                    let mut spent = spent.clone();
                    if let Input::File(path) = input {
                        let _ = verify_input(path, options, stream, spent.as_mut(), report, &mut |p| {
                            pieces.push(p);
                            Ok::<(), ()>(())
                        });
                    }
                    pieces
                })
                .collect();
            for (input, pieces) in now.iter().zip(outcomes) {
                self.sink.started(input);
                for p in pieces {
                    self.apply(p)?;
                }
                self.sink.done(input)?;
            }
        }
        Ok(())
    }

    fn step(&mut self, input: &Input) -> Result<(), K::Stop> {
        self.sink.started(input);
        match input {
            Input::Note(note) => self.sink.note(note),
            Input::Problem(p) => self.sink.problem(p.clone())?,
            Input::File(path) => self.stream(path)?,
            Input::Stdin => self.stream(Path::new("-"))?,
        }
        self.sink.done(input)
    }

    fn stream(&mut self, path: &Path) -> Result<(), K::Stop> {
        let stream = StreamOptions { parallel: self.parallel, ..StreamOptions::default() };
        // Lent to the file, whose records are judged in file order as they come, and taken back.
        let mut budget = self.budget.clone();
        let (options, report) = (self.options, self.report);
        let done = verify_input(path, options, stream, Some(&mut budget), report, &mut |p| self.apply(p));
        self.budget = budget;
        done
    }

    /// Hands on one piece of an input's verification, in input order.
    fn apply(&mut self, piece: Piece<S, T>) -> Result<(), K::Stop> {
        match piece {
            Piece::Opened => {
                self.sink.opened();
                Ok(())
            }
            Piece::Record(status, report) => self.sink.record(status, report),
            Piece::Waiting(waiting, source) => {
                let v = waiting.finish(&mut self.budget);
                self.sink.record(v.status, (self.report)(&source, &v))
            }
            Piece::Problem(p) => self.sink.problem(p),
            Piece::Window => self.sink.window(),
        }
    }
}

/// Verifies one input (a file, or `-` for standard input) as a stream, handing what it gives to
/// `emit` window by window. The claims that need a search are judged within `budget`, in file
/// order; without one, their records are handed on waiting ([`Piece::Waiting`]).
fn verify_input<S, T, F, E>(
    path: &Path,
    options: VerifyOptions<S>,
    mut stream: StreamOptions,
    mut budget: Option<&mut SearchBudget>,
    report: &F,
    emit: &mut dyn FnMut(Piece<S, T>) -> Result<(), E>,
) -> Result<(), E>
where
    S: Games,
    T: Send,
    F: Fn(&Source, &Verdict) -> T + Sync,
{
    let name = display_name(path);
    let problem = |message: String, at: Option<(usize, usize)>| {
        Piece::Problem(FileProblem { file: name.clone(), status: FileStatus::Unreadable, message, at })
    };
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
    // A window's lines are found once, before its first verdict; each verdict is reported where it
    // was judged, side by side, and let go of there.
    let result = verify_stream_with(
        input,
        options,
        stream,
        |stretch| Arc::new(Source::window(name.clone(), stretch.text.clone(), stretch.first_line)),
        |source, judged| match judged {
            Judged::Verdict(v) => Written::Record(v.status, report(source, &v)),
            Judged::Waiting(w) => Written::Waiting(w, Arc::clone(source)),
        },
        |stretch, written| {
            // A part too long to hold is said where it stands, and the file read on.
            if let Some(skipped) = stretch.skipped {
                emit(problem(skipped.to_string(), Some((skipped.line, 1))))?;
            }
            for w in written {
                match (w, budget.as_deref_mut()) {
                    (Written::Record(status, r), _) => emit(Piece::Record(status, r))?,
                    (Written::Waiting(waiting, source), Some(budget)) => {
                        let v = waiting.finish(budget);
                        emit(Piece::Record(v.status, report(&source, &v)))?;
                    }
                    (Written::Waiting(waiting, source), None) => emit(Piece::Waiting(waiting, source))?,
                }
            }
            emit(Piece::Window)
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
        Err(StreamError::Sink(stop)) => Err(stop),
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
