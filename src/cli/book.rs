//! `referee book`: a PDF booklet of the records of files and folders, wired to [`crate::book`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::book::pdf::{self, Look, Paper};
use crate::book::{entries, Entry, Plan};
use crate::files::{self, Input};
use crate::game::About;
use crate::judge::Games;
use crate::render::svg::StyleName;
use crate::verify::VerifyOptions;

use super::file::{self, Name};
use super::out::note;

pub const EXIT_CODES: &str = "\
Exit codes:
  0  the booklet is written, and every input was read
  1  the booklet is written, but some input could not be read or held no record (said on
     standard error)
  2  no booklet: no record to put in it, an output that cannot be written, or a usage error";

#[derive(Args, Debug)]
pub struct BookArgs {
    /// Files, folders or `-`, read as `verify` reads them: every record of each, in order.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The PDF file to write (`-`: standard output, when it is not a terminal).
    #[arg(short, long, value_name = "FILE")]
    out: PathBuf,
    /// A numbered diagram after every N move numbers (the record's own: the published notation's
    /// move lines, the common format's rounds), each numbering the moves since the one before,
    /// with those moves and their comments beside it; 0: one diagram of the whole game. Diagrams
    /// also stand after the moves whose comments draw markup, and at --at.
    #[arg(long, value_name = "N", default_value_t = 20)]
    every: u32,
    /// A diagram after these plies too (moves played from the start), comma-separated.
    #[arg(long, value_name = "PLY,...", value_delimiter = ',')]
    at: Vec<usize>,
    /// The paper: a4 (210 x 297 mm) or letter (8.5 x 11 in).
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    paper: PaperArg,
    /// The diagrams' colours: print (black and white, told apart by fill and shape, as a
    /// photocopier keeps them), light or dark.
    #[arg(long, value_enum, default_value_t = StyleArg::Print)]
    style: StyleArg,
    /// The diagrams' width in millimetres (30 to the text's width, 174 mm on A4).
    #[arg(long, value_name = "MM", default_value_t = 70.0, value_parser = millimetres)]
    diagram_width: f32,
    /// The booklet's title: on its contents page and in its metadata (default: the inputs' names).
    #[arg(long)]
    title: Option<String>,
    /// Extensions of the files read in folders, any case, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "txt,pgn", value_name = "EXT,...")]
    ext: Vec<String>,
    /// Read every record as this game, whatever its text suggests.
    #[arg(long, value_parser = super::GameParser)]
    game: Option<&'static About>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum PaperArg {
    A4,
    Letter,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum StyleArg {
    Print,
    Light,
    Dark,
}

fn millimetres(text: &str) -> Result<f32, String> {
    let text = text.strip_suffix("mm").unwrap_or(text);
    match text.parse::<f32>() {
        Ok(mm) if (30.0..=300.0).contains(&mm) => Ok(mm),
        Ok(_) => Err("a diagram is 30 to 300 mm wide (at most the text's width is used)".into()),
        Err(_) => Err("a width in millimetres, such as 70 or 70mm".into()),
    }
}

pub fn run<S: Games>(args: BookArgs, games: S) -> ExitCode {
    let options = VerifyOptions { game: args.game, ..VerifyOptions::default() }.with_games(games);
    let plan = Plan { every: args.every, at: args.at.clone() };
    if args.out == Path::new("-") && std::io::stdout().is_terminal() {
        // Said before the records are read and drawn, not after.
        note("a PDF is not for a terminal: name a file with -o, or redirect standard output");
        return ExitCode::from(2);
    }
    let mut all: Vec<Entry> = Vec::new();
    let mut missed = false;
    let inputs = files::collect(&args.paths, &args.ext);
    for input in &inputs {
        let path = match input {
            Input::File(path) => path.as_path(),
            Input::Stdin => Path::new("-"),
            Input::Note(message) => {
                note(message);
                continue;
            }
            Input::Problem(p) => {
                note(&format!("{}: {}: not in the booklet", p.file, p.message));
                missed = true;
                continue;
            }
        };
        if args.out != Path::new("-") && file::same_file(&args.out, path) {
            note(&format!(
                "{}: is an input: writing there would overwrite its records; choose another output",
                args.out.display()
            ));
            return ExitCode::from(2);
        }
        let name = files::display_name(path);
        match files::read(path) {
            Ok(text) => {
                let before = all.len();
                // A record takes a page at least: past the most pages, no booklet, and no more
                // records read and drawn.
                all.extend(entries(&name, &text, options, &plan).take(pdf::MAX_PAGES + 1 - before.min(pdf::MAX_PAGES)));
                if all.len() > pdf::MAX_PAGES {
                    note(&format!("no booklet: {}", pdf::BookError::TooLong));
                    return ExitCode::from(2);
                }
                if all.len() == before {
                    note(&format!("{name}: holds no record: not in the booklet"));
                    missed = true;
                }
            }
            Err(p) => {
                let at = p.at.map(|(line, column)| format!(":{line}:{column}")).unwrap_or_default();
                note(&format!("{}{at}: {}: not in the booklet", p.file, p.message));
                missed = true;
            }
        }
    }
    let title = args.title.clone().unwrap_or_else(|| {
        let names: Vec<String> = args.paths.iter().map(|p| files::display_name(p)).collect();
        format!("Records of {}", names.join(", "))
    });
    let style = match args.style {
        StyleArg::Print => StyleName::Print,
        StyleArg::Light => StyleName::Light,
        StyleArg::Dark => StyleName::Dark,
    };
    let paper = match args.paper {
        PaperArg::A4 => Paper::A4,
        PaperArg::Letter => Paper::Letter,
    };
    let look = Look { paper, style, diagram_mm: args.diagram_width, title };
    let bytes = match pdf::book(&all, &look) {
        Ok(bytes) => bytes,
        Err(e) => {
            note(&format!("no booklet: {e}"));
            return ExitCode::from(2);
        }
    };
    let written = if args.out == Path::new("-") {
        file::write_stdout(&bytes, Some("a PDF"))
    } else {
        // Every input was checked against the output above: none is passed on here.
        file::write_file(&args.out, Path::new("-"), &bytes, Name::Given)
    };
    if written != ExitCode::SUCCESS {
        return written;
    }
    let records = all.len();
    let illegal = all.iter().filter(|e| e.status != "valid").count();
    note(&format!(
        "{}: {records} record{} ({illegal} not valid), {} KB",
        files::display_name(&args.out),
        if records == 1 { "" } else { "s" },
        bytes.len().div_ceil(1024)
    ));
    if missed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
