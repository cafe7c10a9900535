//! One line per problem, `file:line:col: status: message`, as compilers print them, for editors
//! and CI logs. A valid record prints nothing.

use super::{escaped, painted, status_name, FileProblem, Source, Tone};
use crate::verdict::Verdict;

/// A line per problem of the record; none when it is valid.
pub fn short_lines(source: &Source, v: &Verdict, color: bool) -> String {
    let status = painted(status_name(v.status), v.status.into(), color);
    let line = |offset: usize, message: &str| {
        let (line, column) = source.line_col(offset);
        format!("{}:{line}:{column}: {status}: {}\n", escaped(source.name()), one_line(message))
    };
    if v.problems.is_empty() && v.status != crate::verdict::Status::Valid {
        return line(v.span.start, &format!("record {}", v.index));
    }
    v.problems.iter().map(|p| line(p.span.start, &p.said())).collect()
}

/// The line for a file that could not be read or holds no record.
pub fn file_short_line(p: &FileProblem, color: bool) -> String {
    let status = painted(p.status.name(), Tone::Bad, color);
    match p.at {
        Some((line, column)) => format!("{}:{line}:{column}: {status}: {}\n", escaped(&p.file), one_line(&p.message)),
        None => format!("{}: {status}: {}\n", escaped(&p.file), one_line(&p.message)),
    }
}

/// A message on one line, whatever it holds, its hidden characters escaped.
fn one_line(message: &str) -> String {
    escaped(&message.replace(['\r', '\n'], " ")).into_owned()
}
