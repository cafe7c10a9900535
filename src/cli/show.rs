//! `referee show`: a position of a record as a text diagram or a position code, or (see
//! `picture.rs`) a picture.

use std::path::Path;
use std::process::ExitCode;

use crate::judge::Games;
use crate::report;
use crate::verify::{self, VerifyOptions};

use super::out::{note, Out};
use super::picture::{self, ShowFormat};
use super::{file, ShowArgs};
use crate::files;

pub fn run<S: Games>(args: ShowArgs, games: S) -> ExitCode {
    let options = VerifyOptions { game: args.game, ..VerifyOptions::default() }.with_games(games);
    let format = match (args.format, &args.out) {
        (Some(f), _) => f,
        (None, None) => ShowFormat::Ascii,
        (None, Some(path)) => match picture::format_of(path) {
            Some(f) => f,
            None => {
                note(&format!(
                    "cannot tell the format from the name {}: give --format ascii, svg, png or tex",
                    path.display()
                ));
                return ExitCode::from(2);
            }
        },
    };
    if let Some(code) = args.look.tex_without_tex(format == ShowFormat::Tex) {
        return code;
    }
    let numbers = args.numbers.range();
    if numbers.is_some() && format == ShowFormat::Code {
        note("--numbers draws a diagram, and a position code has no numbers: give --format ascii, svg, png or tex");
        return ExitCode::from(2);
    }
    if numbers.is_some() || !matches!(format, ShowFormat::Ascii | ShowFormat::Code) {
        let shown = match numbers {
            Some(range) => picture::Shown::Numbered(range),
            None => picture::Shown::Ply(args.ply),
        };
        return picture::show(&args.file, args.record, shown, options, format, args.out.as_deref(), &args.look);
    }
    let code = format == ShowFormat::Code;
    text(&args.file, args.record, args.ply, options, args.out.as_deref(), code)
}

/// Writes the position as a text diagram, or as its code (`code`).
fn text<S: Games>(
    file: &Path,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions<S>,
    out: Option<&Path>,
    code: bool,
) -> ExitCode {
    let name = files::display_name(file);
    let src = match files::read(file) {
        Ok(s) => s,
        Err(p) => {
            note(&format!("{name}: {}", p.message));
            return ExitCode::from(2);
        }
    };
    if let Some(code) = picture::not_replayable(&name, &src, index, options) {
        return code;
    }
    let shown = if code {
        verify::position_code(&src, index, ply, options)
    } else {
        verify::position_diagram(&src, index, ply, options)
    };
    match shown {
        Err((span, message)) => {
            picture::note_at(&name, &src, &span, &message);
            picture::undrawable(&src, index, options)
        }
        Ok((diagram, shown)) => {
            // The record is not valid up to the position asked for: drawn all the same, but
            // the exit code says so, as `verify`'s would.
            let mut verdict = ExitCode::SUCCESS;
            let mut diagram = diagram;
            // What the text cannot draw of the position shown: the glyphs and markup of the move
            // that led to it, when the record replays that far.
            if !code && !matches!(shown, Some(verify::ShowNote::StoppedAt { .. })) {
                let ply = match &shown {
                    Some(verify::ShowNote::Short { moves }) => *moves,
                    _ => ply.unwrap_or(usize::MAX),
                };
                for line in crate::picture::markup_words(&src, index, ply, options) {
                    diagram.push_str(&line);
                    diagram.push('\n');
                }
            }
            match shown {
                Some(verify::ShowNote::StoppedAt { span, message }) => {
                    let (line, col) = report::line_col(&src, span.start);
                    note(&format!(
                        "{name}: stopped at an illegal move at {line}:{col} ({message}); showing the position before it"
                    ));
                    verdict = ExitCode::from(1);
                }
                Some(verify::ShowNote::Short { moves }) => {
                    note(&format!("{name}: the record has only {moves} moves; showing the last position"));
                }
                None => {}
            }
            let written = match out {
                Some(path) => file::write_file(path, file, diagram.as_bytes(), file::Name::Given),
                None => Out::new().finish(&diagram).map_or_else(|closed| closed.exit_code(), |()| ExitCode::SUCCESS),
            };
            if written == ExitCode::SUCCESS {
                verdict
            } else {
                written
            }
        }
    }
}
