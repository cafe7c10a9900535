//! What a run reads (feature `files`): the paths it is given, folders walked to the files below
//! them, each file once, in a fixed order; and reading one input as text. The command line's
//! `verify` and the Python package's `referee.verify` read the same files in the same order, and
//! verify them by the same [`run`].

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::report::{self, FileProblem, FileStatus};

pub mod run;

/// Largest input read from one file or from standard input.
pub const MAX_INPUT: u64 = 256 * 1024 * 1024;

/// One step of a run, in the order the paths were given and, within a folder, by path.
#[derive(Debug)]
pub enum Input {
    /// A file to verify: named on the command line (whatever its kind), or found in a folder.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// Something that could not be read: a missing path, a folder that may not be listed.
    Problem(FileProblem),
    /// Something passed over, and why: said on standard error.
    Note(String),
}

impl Input {
    /// Whether this input is read (a file or standard input), rather than only said.
    pub fn is_read(&self) -> bool {
        matches!(self, Input::File(_) | Input::Stdin)
    }
}

/// Where a file lives, whatever path reaches it: a file reached twice (through a link to a
/// folder, or named twice) is read once.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

fn file_id(path: &Path, meta: &std::fs::Metadata) -> FileId {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        FileId::Inode(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        FileId::Path(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// The name a report gives an input.
pub fn display_name(p: &Path) -> String {
    if p == Path::new("-") {
        "<stdin>".into()
    } else {
        p.display().to_string()
    }
}

fn unreadable(path: &Path, message: String) -> Input {
    Input::Problem(FileProblem { file: display_name(path), status: FileStatus::Unreadable, message, at: None })
}

/// The inputs of a run. `extensions` are lower case, without the dot.
pub fn collect(paths: &[PathBuf], extensions: &[String]) -> Vec<Input> {
    let mut walk = Walk { extensions, seen: HashSet::new(), inputs: Vec::new() };
    for path in paths {
        if path == Path::new("-") {
            walk.inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => walk.inputs.push(unreadable(path, format!("cannot open: {e}"))),
            Ok(meta) if meta.is_dir() => walk.folder(path),
            Ok(meta) => {
                if walk.seen.insert(file_id(path, &meta)) {
                    walk.inputs.push(Input::File(path.clone()));
                }
            }
        }
    }
    walk.inputs
}

struct Walk<'a> {
    extensions: &'a [String],
    seen: HashSet<FileId>,
    inputs: Vec<Input>,
}

impl Walk<'_> {
    fn wanted(&self, path: &Path) -> bool {
        path.extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| self.extensions.iter().any(|e| e.eq_ignore_ascii_case(x)))
    }

    /// Every wanted file below `root`, following links; hidden files and folders (`.git`) are
    /// passed over. A folder reached again (a link to a parent or to a sibling) is not walked
    /// again.
    fn folder(&mut self, root: &Path) {
        let mut found = false;
        let mut entries = WalkDir::new(root).follow_links(true).sort_by_file_name().into_iter();
        while let Some(entry) = entries.next() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    found = true;
                    self.error(root, &e);
                    continue;
                }
            };
            let path = entry.path();
            let hidden = hidden(path, entry.depth());
            let kind = entry.file_type();
            if kind.is_dir() {
                let first_time = match entry.metadata() {
                    Ok(m) => self.seen.insert(file_id(path, &m)),
                    Err(e) => {
                        self.inputs.push(unreadable(path, format!("cannot read: {e}")));
                        false
                    }
                };
                // A folder already walked (named twice, or inside one named before) is no news.
                found |= !first_time && entry.depth() == 0;
                if hidden || !first_time {
                    entries.skip_current_dir();
                }
            } else if hidden || (kind.is_file() && !self.wanted(path)) {
                continue;
            } else if !kind.is_file() {
                found = true;
                self.inputs.push(Input::Note(format!("{}: {}, not a file: skipped", path.display(), special(&kind))));
            } else {
                found = true;
                match entry.metadata() {
                    Err(e) => self.inputs.push(unreadable(path, format!("cannot read: {e}"))),
                    Ok(m) if self.seen.insert(file_id(path, &m)) => self.inputs.push(Input::File(entry.into_path())),
                    Ok(_) => {}
                }
            }
        }
        if !found {
            let wanted: Vec<String> = self.extensions.iter().map(|e| format!(".{e}")).collect();
            self.inputs.push(Input::Problem(FileProblem {
                file: display_name(root),
                status: FileStatus::NoRecord,
                message: format!("no {} file in this folder", wanted.join(" or ")),
                at: None,
            }));
        }
    }

    fn error(&mut self, root: &Path, e: &walkdir::Error) {
        let path = e.path().unwrap_or(root);
        if let Some(ancestor) = e.loop_ancestor() {
            self.inputs.push(Input::Note(format!(
                "{}: a link back to {}, a loop: not followed",
                path.display(),
                ancestor.display()
            )));
            return;
        }
        if hidden(path, e.depth()) {
            return;
        }
        let dangling = e.io_error().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
            && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if dangling && !self.wanted(path) {
            self.inputs.push(Input::Note(format!("{}: a link to nothing: skipped", path.display())));
            return;
        }
        let why = e.io_error().map_or_else(|| e.to_string(), |io| io.to_string());
        let what = if dangling { "a link to nothing" } else { "cannot read" };
        self.inputs.push(unreadable(path, format!("{what}: {why}")));
    }
}

/// Whether a folder entry is hidden (`.git`, `.notes.txt`); the folder named on the command line
/// never is.
fn hidden(path: &Path, depth: usize) -> bool {
    depth > 0 && path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'))
}

/// What a folder entry that is neither a file nor a folder is.
fn special(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        } else if kind.is_socket() {
            return "a socket";
        } else if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    let _ = kind;
    "a special file"
}

/// Why a file's text cannot be had, as [`read_text`] says it.
#[derive(Debug)]
pub enum Unreadable {
    /// The system refused to open or read it (missing, not permitted, a folder): the words, and
    /// the system's error number where it gives one.
    System(String, Option<i32>),
    /// Larger than [`MAX_INPUT`] bytes.
    TooLarge,
    /// A byte that is not UTF-8, at this 1-based line and column (of the text before it).
    NotUtf8 {
        /// The byte.
        byte: u8,
        /// Its line.
        line: usize,
        /// Its column.
        column: usize,
    },
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::System(words, _) => f.write_str(words),
            Unreadable::TooLarge => {
                write!(f, "larger than {} MiB: split it into smaller files", MAX_INPUT / (1024 * 1024))
            }
            Unreadable::NotUtf8 { byte, line, column } => {
                write!(f, "not valid UTF-8: byte 0x{byte:02X} at line {line}, column {column}")
            }
        }
    }
}

/// The text of the file at `path` (`-`: standard input), at most [`MAX_INPUT`] bytes of UTF-8, or
/// why it cannot be had.
pub fn read_text(input: &Path) -> Result<String, Unreadable> {
    let system = |what: &str, e: std::io::Error| Unreadable::System(format!("{what}: {e}"), e.raw_os_error());
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if input == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(input).map_err(|e| system("cannot open", e))?;
        // A file known to be too large is refused before any of it is read.
        if file.metadata().is_ok_and(|m| m.is_file() && m.len() > MAX_INPUT) {
            return Err(Unreadable::TooLarge);
        }
        Box::new(file)
    };
    reader.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| system("cannot read", e))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(Unreadable::TooLarge);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = std::str::from_utf8(&e.as_bytes()[..good]).unwrap_or_default();
        let (line, column) = report::line_col(text, good);
        Unreadable::NotUtf8 { byte: e.as_bytes()[good], line, column }
    })
}

/// The text of an input, or why it cannot be had, as a report says it.
pub fn read(input: &Path) -> Result<String, FileProblem> {
    read_text(input).map_err(|why| FileProblem {
        file: display_name(input),
        status: FileStatus::Unreadable,
        message: why.to_string(),
        at: match why {
            Unreadable::NotUtf8 { line, column, .. } => Some((line, column)),
            _ => None,
        },
    })
}
