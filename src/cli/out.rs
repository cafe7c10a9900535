//! Standard output and error, every write checked: a closed pipe (`| head -1`) ends the run
//! quietly, a full disk (`> /dev/full`) with one line on standard error; nothing panics.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

use anstream::{AutoStream, ColorChoice};

/// Standard output, buffered, or written by a thread of its own ([`Out::behind`]).
pub enum Out {
    /// Written by the thread that writes, through a buffer.
    Buffered(BufWriter<io::Stdout>),
    /// Handed to a thread that writes.
    Behind(Writer),
}

/// A thread that writes standard output, so that the threads that verify need not wait for a
/// slow reader of a pipe.
pub struct Writer {
    /// The text written since the last flush, which hands it to the thread.
    held: Vec<u8>,
    to: SyncSender<Vec<u8>>,
    thread: JoinHandle<io::Result<()>>,
}

/// Pieces of output a [`Writer`] holds at most before the next one waits: output stays bounded
/// when its reader is slower than verification.
const PIECES_AHEAD: usize = 4;

/// Standard output failed: the run stops.
#[derive(Debug)]
pub struct Closed(io::Error);

impl Out {
    /// The reports write colour codes only when colour is wanted, so text goes straight through
    /// rather than byte by byte through a filter that would strip them.
    pub fn new() -> Out {
        Out::Buffered(BufWriter::with_capacity(1 << 16, io::stdout()))
    }

    /// Standard output written by a thread of its own, when it is no terminal (a pipe, a file):
    /// `verify` hands each window's text on and goes on verifying, where a write to a pipe whose
    /// reader lagged held every thread still. A terminal is written to at once, between the
    /// progress bar's frames. Each [`Out::flush`] hands on what was written since, which the
    /// thread writes and flushes as it comes; [`Out::close`] waits for it to end.
    pub fn behind() -> Out {
        if io::stdout().is_terminal() {
            return Out::new();
        }
        let (to, from) = sync_channel::<Vec<u8>>(PIECES_AHEAD);
        let thread = std::thread::spawn(move || {
            let mut out = io::stdout().lock();
            for piece in from {
                out.write_all(&piece)?;
                out.flush()?;
            }
            Ok(())
        });
        Out::Behind(Writer { held: Vec::new(), to, thread })
    }

    pub fn write(&mut self, text: &str) -> Result<(), Closed> {
        match self {
            Out::Buffered(stream) => stream.write_all(text.as_bytes()).map_err(Closed),
            Out::Behind(writer) => {
                writer.held.extend_from_slice(text.as_bytes());
                Ok(())
            }
        }
    }

    pub fn flush(&mut self) -> Result<(), Closed> {
        match self {
            Out::Buffered(stream) => stream.flush().map_err(Closed),
            Out::Behind(writer) => {
                let held = std::mem::take(&mut writer.held);
                if held.is_empty() || writer.to.send(held).is_ok() {
                    return Ok(());
                }
                // The thread stopped at a failed write: its error.
                Err(self.close().err().unwrap_or_else(|| Closed(io::Error::other("standard output stopped"))))
            }
        }
    }

    /// Writes `text` and flushes: the whole output of a command that prints once.
    pub fn finish(mut self, text: &str) -> Result<(), Closed> {
        self.write(text)?;
        self.close()
    }

    /// Writes what is left; for output written [`behind`](Out::behind), waits for the writing
    /// thread to end, and gives its failure if it failed. What is written after is written at once.
    pub fn close(&mut self) -> Result<(), Closed> {
        match std::mem::replace(self, Out::new()) {
            Out::Behind(writer) => writer.end(),
            buffered => {
                *self = buffered;
                self.flush()
            }
        }
    }
}

impl Writer {
    /// Hands on what is held and waits for the thread to write it and end: its failure, if any.
    fn end(self) -> Result<(), Closed> {
        let Writer { held, to, thread } = self;
        // A send fails only when the thread has stopped: its failure is told below.
        if !held.is_empty() {
            let _ = to.send(held);
        }
        drop(to);
        match thread.join() {
            Ok(result) => result.map_err(Closed),
            Err(_) => Err(Closed(io::Error::other("the thread writing standard output failed"))),
        }
    }
}

impl Closed {
    /// The exit code of a run whose output failed: 0 when the reader closed the pipe (it has
    /// what it wanted, as ripgrep judges it), else 2 with a line on standard error.
    pub fn exit_code(self) -> ExitCode {
        if self.0.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
        note(&format!("cannot write to standard output: {}", self.0));
        ExitCode::from(2)
    }
}

/// A line on standard error, `referee: ` first, what it quotes of a record or a file name escaped
/// as reports escape it. Never fails: there is nowhere left to say so.
pub fn note(message: &str) {
    let _ = writeln!(io::stderr(), "referee: {}", crate::report::escaped(message));
}

/// Whether colour is wanted on standard output: `--color always|never`, or for `auto` what the
/// environment says (NO_COLOR, CLICOLOR_FORCE, CLICOLOR, TERM) and whether it is a terminal.
pub fn color_wanted(when: ColorWhen) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => AutoStream::choice(&io::stdout()) != ColorChoice::Never,
    }
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}
