//! `referee man`: the manual pages in roff (clap_mangen), one for the program and one for each
//! command. The program's page lists the commands as `referee-verify(1)` and so on, and each
//! command's page names `referee(1)` under SEE ALSO, so the pages `--dir` writes together refer
//! only to one another.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory};
use clap_mangen::roff::{bold, roman, Roff};

use super::file::{Name, OutFile};
use super::out::note;

pub const EXIT_CODES: &str = "\
Exit codes:
  0  the page is printed, or the pages are written
  2  the run could not do its job: the folder could not be made or a page written (the pages before
     it are written), or a usage error";

#[derive(Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print (`referee man verify`); default: the program's page, which
    /// lists the commands.
    #[arg(value_parser = CommandParser, value_name = "COMMAND")]
    command: Option<String>,
    /// Write the pages into this folder (created if missing) instead of printing one: referee.1
    /// and referee-<command>.1 for every command, or only the page of the command named. A page
    /// already there is replaced, each page whole or not at all; a link at a page's name is never
    /// followed, and it, or a read-only page, is refused.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub fn run(args: ManArgs) -> ExitCode {
    let program = program();
    let commands: Vec<&clap::Command> = match &args.command {
        Some(name) => program.find_subcommand(name).into_iter().collect(),
        None if args.dir.is_some() => std::iter::once(&program).chain(program.get_subcommands()).collect(),
        None => vec![&program],
    };
    let pages: Result<Vec<Page>, String> =
        commands.iter().map(|command| page(command, command.get_name() != program.get_name())).collect();
    let done = pages.and_then(|pages| match (&args.dir, pages.as_slice()) {
        (Some(dir), _) => write_pages(dir, &pages),
        (None, [page]) => Ok(super::print_bytes(&page.text)),
        // The command's name was checked against the commands while the arguments were read.
        (None, _) => Err(format!("no command {}", args.command.as_deref().unwrap_or_default())),
    });
    done.unwrap_or_else(|message| {
        note(&message);
        ExitCode::from(2)
    })
}

/// The program as the pages describe it: built, so that each command is named
/// `referee-<command>` and shown as invoked (`referee verify`); without clap's `help` command,
/// which has no page of its own.
fn program() -> clap::Command {
    let mut program = super::Cli::command().disable_help_subcommand(true);
    program.build();
    program
}

/// A manual page: its file name (`referee-verify.1`) and its roff text.
struct Page {
    name: String,
    text: Vec<u8>,
}

/// The page of the program or of one of its commands: clap_mangen's page, with the `Exit codes:`
/// text of `--help` as an EXIT STATUS section (where clap_mangen would print it under EXTRA, its
/// lines run together by roff), and for a command (not the program) SEE ALSO.
fn page(command: &clap::Command, is_command: bool) -> Result<Page, String> {
    let exit_codes = command.get_after_help().map(ToString::to_string);
    // A command has no version of its own: every page's footer names the program's.
    let man = clap_mangen::Man::new(command.clone().after_help(None::<&str>))
        .source(format!("referee {}", env!("CARGO_PKG_VERSION")));
    let mut text = Vec::new();
    man.render(&mut text).map_err(|e| format!("cannot write the manual page: {e}"))?;
    let mut more = Roff::new();
    if let Some(codes) = exit_codes {
        exit_status(&mut more, &codes);
    }
    // The program's page names every command's page already, under SUBCOMMANDS.
    if is_command {
        more.control("SH", ["SEE ALSO"]);
        more.text([bold("referee"), roman("(1)")]);
    }
    // Each rendering begins with the same preamble, which the page has already.
    let preamble = Roff::new().render();
    let more = more.render();
    text.extend_from_slice(more.strip_prefix(preamble.as_str()).unwrap_or(&more).as_bytes());
    Ok(Page { name: man.get_filename(), text })
}

/// `Exit codes:` then `  0  meaning`, the meaning's further lines indented: one tagged paragraph
/// per code.
fn exit_status(roff: &mut Roff, codes: &str) {
    roff.control("SH", ["EXIT STATUS"]);
    for line in codes.lines().filter(|line| !line.ends_with(':')) {
        let line = line.trim();
        match line.split_once("  ") {
            Some((code, meaning)) if !code.is_empty() && code.bytes().all(|b| b.is_ascii_digit()) => {
                roff.control("TP", []);
                roff.text([bold(code)]);
                roff.text([roman(meaning.trim_start())]);
            }
            _ => {
                roff.text([roman(line)]);
            }
        }
    }
}

/// Writes each page into `dir` (created if missing), each whole or not at all; a page that cannot
/// be written stops the run there.
fn write_pages(dir: &Path, pages: &[Page]) -> Result<ExitCode, String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
    for page in pages {
        let mut file = OutFile::open(&dir.join(&page.name), Name::MadeUp)?;
        file.write_bytes(&page.text)?;
        file.commit()?;
    }
    let count = pages.len();
    note(&format!("{count} manual page{} written to {}", if count == 1 { "" } else { "s" }, dir.display()));
    Ok(ExitCode::SUCCESS)
}

/// Reads the name of a command that has a page, and offers the commands to `--help` and to shell
/// completion, taken from the commands themselves so that a new one has its page.
#[derive(Clone, Copy, Debug)]
struct CommandParser;

impl CommandParser {
    fn values() -> impl Iterator<Item = PossibleValue> {
        // Their names only: `referee --help` says what each does.
        let commands: Vec<PossibleValue> = super::Cli::command()
            .get_subcommands()
            .map(|command| PossibleValue::new(command.get_name().to_string()))
            .collect();
        commands.into_iter()
    }
}

impl TypedValueParser for CommandParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        PossibleValuesParser::new(Self::values()).parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Self::values()))
    }
}
