//! Standard output and error, every write checked: a closed pipe (`| head -1`) ends the run
//! quietly, a full disk (`> /dev/full`) with one line on standard error; nothing panics.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anstream::{AutoStream, ColorChoice};

/// Standard output, buffered.
pub struct Out {
    stream: Box<dyn Write>,
}

/// Standard output failed: the run stops.
#[derive(Debug)]
pub struct Closed(io::Error);

impl Out {
    /// The reports write colour codes only when colour is wanted, so text goes straight through
    /// rather than byte by byte through a filter that would strip them.
    pub fn new() -> Out {
        Out { stream: Box::new(BufWriter::with_capacity(1 << 16, io::stdout())) }
    }

    pub fn write(&mut self, text: &str) -> Result<(), Closed> {
        self.stream.write_all(text.as_bytes()).map_err(Closed)
    }

    pub fn flush(&mut self) -> Result<(), Closed> {
        self.stream.flush().map_err(Closed)
    }

    /// Writes `text` and flushes: the whole output of a command that prints once.
    pub fn finish(mut self, text: &str) -> Result<(), Closed> {
        self.write(text)?;
        self.flush()
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
