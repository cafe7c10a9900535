//! Standard output and error, every write checked: a closed pipe (`| head -1`) ends the run
//! quietly, a full disk (`> /dev/full`) with one line on standard error; nothing panics.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

use anstream::{AutoStream, ColorChoice};

/// Standard output, buffered.
pub struct Out {
    stream: Box<dyn Write>,
    /// The thread that writes, if one does ([`Out::behind`]).
    writer: Option<Writer>,
}

/// A thread that writes standard output, so that the threads that verify need not wait for a
/// slow reader of a pipe.
struct Writer {
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
        Out { stream: Box::new(BufWriter::with_capacity(1 << 16, io::stdout())), writer: None }
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
        Out { stream: Box::new(io::sink()), writer: Some(Writer { held: Vec::new(), to, thread }) }
    }

    pub fn write(&mut self, text: &str) -> Result<(), Closed> {
        match &mut self.writer {
            Some(writer) => {
                writer.held.extend_from_slice(text.as_bytes());
                Ok(())
            }
            None => self.stream.write_all(text.as_bytes()).map_err(Closed),
        }
    }

    pub fn flush(&mut self) -> Result<(), Closed> {
        let Some(writer) = &mut self.writer else { return self.stream.flush().map_err(Closed) };
        let held = std::mem::take(&mut writer.held);
        if held.is_empty() || writer.to.send(held).is_ok() {
            return Ok(());
        }
        // The thread stopped at a failed write: its error.
        Err(self.stop().err().unwrap_or_else(|| Closed(io::Error::other("standard output stopped"))))
    }

    /// Writes `text` and flushes: the whole output of a command that prints once.
    pub fn finish(mut self, text: &str) -> Result<(), Closed> {
        self.write(text)?;
        self.close()
    }

    /// Writes what is left and, for output written [`behind`](Out::behind), waits for the
    /// writing thread to end: its failure, if it failed.
    pub fn close(mut self) -> Result<(), Closed> {
        self.flush()?;
        self.stop()
    }

    /// Ends the writing thread, if any, and gives its failure.
    fn stop(&mut self) -> Result<(), Closed> {
        let Some(Writer { to, thread, .. }) = self.writer.take() else { return Ok(()) };
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
    let _ = writeln!(io::stderr(), "referee: {}", referee::report::escaped(message));
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
