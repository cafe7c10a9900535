//! `referee show`: a position of a record as a diagram.

use std::path::Path;
use std::process::ExitCode;

use referee::game::GameKind;
use referee::report;
use referee::verify::{self, VerifyOptions};

use super::inputs;
use super::out::{note, Out};

pub fn run(file: &Path, index: usize, ply: Option<usize>, game: Option<GameKind>) -> ExitCode {
    let name = inputs::display_name(file);
    let src = match inputs::read(file) {
        Ok(s) => s,
        Err(p) => {
            note(&format!("{name}: {}", p.message));
            return ExitCode::from(2);
        }
    };
    let options = VerifyOptions { game, ..VerifyOptions::default() };
    match verify::position_diagram(&src, index, ply, options) {
        Err((span, message)) => {
            let (line, col) = report::line_col(&src, span.start);
            if span.is_empty() && span.start == 0 {
                note(&format!("{name}: {message}"));
            } else {
                note(&format!("{name}:{line}:{col}: {message}"));
            }
            ExitCode::from(2)
        }
        Ok((diagram, shown)) => {
            match shown {
                Some(verify::ShowNote::StoppedAt { span, message }) => {
                    let (line, col) = report::line_col(&src, span.start);
                    note(&format!(
                        "{name}: stopped at an illegal move at {line}:{col} ({message}); showing the position before it"
                    ));
                }
                Some(verify::ShowNote::Short { moves }) => {
                    note(&format!("{name}: the record has only {moves} moves; showing the last position"));
                }
                None => {}
            }
            match Out::new().finish(&diagram) {
                Ok(()) => ExitCode::SUCCESS,
                Err(closed) => closed.exit_code(),
            }
        }
    }
}
