//! The files the commands write (`show -o`, `convert -o`, `render --out`, `random -o`, and
//! `repair --write`): written to a hidden temporary file beside the target and renamed
//! into place only when complete, so a failed run leaves the target as it was. A path the run did
//! not create is never removed. A target that is not a regular file (a device, a FIFO), or a name
//! under `/dev` or `/proc` (`/dev/stdout`, which may be a file the shell opened), cannot be
//! replaced by a rename: it is written directly, appending, and left alone when a write fails.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tempfile::NamedTempFile;

use super::out::note;

/// An output file being written.
pub struct OutFile {
    path: PathBuf,
    sink: Sink,
}

enum Sink {
    /// The temporary file, renamed onto `target` by [`OutFile::commit`]; removed when dropped.
    Temp { file: BufWriter<NamedTempFile>, target: PathBuf },
    /// A device, FIFO or other file that is not a regular file.
    Direct(BufWriter<File>),
}

impl OutFile {
    /// Starts writing `path`, refusing when it is `input` (the file the run reads): the output
    /// would overwrite the record. The message is ready for standard error.
    pub fn create(path: &Path, input: &Path) -> Result<OutFile, String> {
        if same_file(path, input) {
            return Err(format!(
                "{}: is the input file: writing there would overwrite the record; choose another output",
                path.display()
            ));
        }
        OutFile::open(path)
    }

    /// Starts writing `path`, which may be the run's input: `repair --write` replaces its input
    /// so, whole or not at all.
    pub fn open(path: &Path) -> Result<OutFile, String> {
        let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
        let sink = match fs::metadata(path) {
            // Appending: `-o /dev/stdout >> log` adds to the log, as a redirection would.
            Ok(meta) if (!meta.is_file() && !meta.is_dir()) || system_path(path) => {
                Sink::Direct(BufWriter::new(fs::OpenOptions::new().append(true).open(path).map_err(failed)?))
            }
            found => {
                // Through a link, the file it names is replaced, and the link kept.
                let target = match found {
                    Ok(_) => fs::canonicalize(path).map_err(failed)?,
                    Err(_) => path.to_path_buf(),
                };
                let dir = match target.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".referee-").suffix(".tmp");
                // The file gets the permissions a new file would, or those of the file it replaces.
                match found {
                    Ok(meta) => {
                        builder.permissions(meta.permissions());
                    }
                    Err(_) => new_file_permissions(&mut builder),
                }
                let file = builder.tempfile_in(dir).map_err(failed)?;
                Sink::Temp { file: BufWriter::new(file), target }
            }
        };
        Ok(OutFile { path: path.to_path_buf(), sink })
    }

    /// Writes all of `bytes`; the error is ready for standard error.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.write_all(bytes).map_err(|e| self.failed(&e))
    }

    /// Says that writing the file failed, and why.
    pub fn failed(&self, e: &dyn std::fmt::Display) -> String {
        format!("cannot write {}: {e}", self.path.display())
    }

    /// Finishes the file: flushed, and the temporary file renamed into place. On `Err` the
    /// temporary file is gone and the target is as it was.
    pub fn commit(self) -> Result<(), String> {
        let failed = |e: io::Error| format!("cannot write {}: {e}", self.path.display());
        match self.sink {
            Sink::Direct(mut file) => file.flush().map_err(failed),
            Sink::Temp { file, target } => {
                let file = file.into_inner().map_err(|e| failed(e.into_error()))?;
                file.as_file().sync_all().map_err(failed)?;
                file.persist(&target).map(drop).map_err(|e| failed(e.error))
            }
        }
    }
}

/// For encoders that write into an [`io::Write`] (the GIF's); [`OutFile::commit`] still puts the
/// file in place.
impl Write for OutFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Temp { file, .. } => file.write(bytes),
            Sink::Direct(file) => file.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Temp { file, .. } => file.flush(),
            Sink::Direct(file) => file.flush(),
        }
    }
}

/// Whether `path`, or a link on the way to what it names, is under `/dev` or `/proc`: a name for
/// a stream the run was given (`/dev/stdout`, `/dev/fd/1`), which may be a regular file the shell
/// opened, and which must not be replaced by another file.
fn system_path(path: &Path) -> bool {
    let mut at = path.to_path_buf();
    // Links are followed as far as the system follows them (40 on Linux).
    for _ in 0..40 {
        if at.starts_with("/dev") || at.starts_with("/proc") {
            return true;
        }
        match fs::read_link(&at) {
            Ok(to) => at = at.parent().map_or(to.clone(), |dir| dir.join(&to)),
            Err(_) => return false,
        }
    }
    false
}

/// Writes a whole file with [`OutFile`]; the exit code says how it went (2, said on standard
/// error, when it could not be written).
pub fn write_file(path: &Path, input: &Path, bytes: &[u8]) -> ExitCode {
    let written = OutFile::create(path, input).and_then(|mut file| {
        file.write_bytes(bytes)?;
        file.commit()
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            note(&message);
            ExitCode::from(2)
        }
    }
}

/// Writes a new file at `path`, complete or not at all; a file already there is left as it is, and
/// named in the error.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".referee-").suffix(".tmp");
    new_file_permissions(&mut builder);
    let mut file = builder.tempfile_in(dir).map_err(failed)?;
    file.write_all(bytes).and_then(|()| file.as_file().sync_all()).map_err(failed)?;
    match file.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
            Err(format!("{}: the file exists already: not overwritten", path.display()))
        }
        Err(e) => Err(failed(e.error)),
    }
}

/// Whether `a` and `b` name the same existing file (by device and inode, or the file index on
/// Windows, so links and `./F` are caught); standard input (`-`) is no file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == Path::new("-") || b == Path::new("-") {
        return false;
    }
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// Read and write for everyone, less the umask (applied when the file is opened), as
/// `File::create` makes a file; the temporary file's own default is the owner only.
#[cfg(unix)]
fn new_file_permissions(builder: &mut tempfile::Builder<'_, '_>) {
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(fs::Permissions::from_mode(0o666));
}

#[cfg(not(unix))]
fn new_file_permissions(_: &mut tempfile::Builder<'_, '_>) {}
