//! The files the commands write (`show -o`, `convert -o`, `render --out`, `man --dir`, `random -o`,
//! and `repair --write`): written whole or not at all, and only where the shell's `>` could write.
//!
//! - A file is written to a hidden temporary file beside the target and renamed into place only
//!   when complete, so a failed run leaves the target as it was. A path the run did not create is
//!   never removed.
//! - A file the user named that has other names (hard links) is written in place instead, once its
//!   whole new text is in the temporary file, so that every name shows it: its old text is copied
//!   aside first and copied back if the write fails midway, so it is never left cut short.
//! - A file that may not be written is refused, as `>` refuses it: one the user may not open for
//!   writing (another owner's, read-only for this user), and one nobody may write (no write
//!   permission at all, mode 0444), which root, who may write anything, is refused too: it was
//!   made read-only for a reason. Its folder being writable does not matter.
//! - A name the user gave (`-o FILE`) is followed through a link, as `>` follows it; a name the
//!   run made up (a picture or a page in a folder) is never: a link, or anything but a regular
//!   file, at such a name is refused, and the file it points to is left alone.
//! - A target that is not a regular file (a device, a FIFO), or a name under `/dev` or `/proc`
//!   (`/dev/stdout`, which may be a file the shell opened), cannot be replaced by a rename: it is
//!   written directly, appending, and left alone when a write fails.

use std::fs::{self, File, Metadata};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tempfile::NamedTempFile;

use super::out::note;

/// Who chose an output's name, which decides what is done with a link found there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    /// Named on the command line (`-o FILE`, the file `repair --write` repairs): a link there is
    /// followed, as the shell's `>` follows it, and the file it points to is written.
    Given,
    /// Made up by the run (`render --out`'s pictures, `man --dir`'s pages): a link there, or
    /// anything but a regular file, is refused, never followed.
    MadeUp,
}

/// An output file being written.
pub struct OutFile {
    path: PathBuf,
    sink: Sink,
}

enum Sink {
    /// The temporary file, renamed onto `target` by [`OutFile::commit`]; removed when dropped.
    Temp { file: Counted<NamedTempFile>, target: PathBuf },
    /// The temporary file, whose text [`OutFile::commit`] copies into `target`, a file with other
    /// names, opened for writing.
    InPlace { file: Counted<NamedTempFile>, target: File },
    /// A device, FIFO or other file that is not a regular file.
    Direct(BufWriter<File>),
}

/// A buffered temporary file and the bytes written to it, checked against its length before it is
/// put in place.
struct Counted<F: Write> {
    file: BufWriter<F>,
    written: u64,
}

impl OutFile {
    /// Starts writing `path`, refusing when it is `input` (the file the run reads): the output
    /// would overwrite the record. The message is ready for standard error.
    pub fn create(path: &Path, input: &Path, name: Name) -> Result<OutFile, String> {
        if same_file(path, input) {
            return Err(format!(
                "{}: is the input file: writing there would overwrite the record; choose another output",
                path.display()
            ));
        }
        OutFile::open(path, name)
    }

    /// Starts writing `path`, which may be the run's input: `repair --write` replaces its input
    /// so, whole or not at all.
    pub fn open(path: &Path, name: Name) -> Result<OutFile, String> {
        let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
        let found = match (fs::symlink_metadata(path), name) {
            (Ok(meta), Name::MadeUp) if meta.file_type().is_symlink() => {
                let to = fs::read_link(path).map_or_else(|_| "?".into(), |to| to.display().to_string());
                return Err(format!(
                    "{}: is a link (to {to}): referee does not write through a link at a name it makes up; remove the link, or write into another folder",
                    path.display()
                ));
            }
            (Ok(meta), Name::MadeUp) if !meta.is_file() => {
                return Err(format!("{}: is not a regular file: not replaced", path.display()));
            }
            // Through a link the user named, the file it names.
            (Ok(meta), Name::Given) if meta.file_type().is_symlink() => fs::metadata(path),
            (found, _) => found,
        };
        let sink = match found {
            // Appending: `-o /dev/stdout >> log` adds to the log, as a redirection would.
            Ok(meta) if name == Name::Given && ((!meta.is_file() && !meta.is_dir()) || system_path(path)) => {
                Sink::Direct(BufWriter::new(fs::OpenOptions::new().append(true).open(path).map_err(failed)?))
            }
            found => {
                let target = match (&found, name) {
                    // Through a link, the file it names is replaced, and the link kept.
                    (Ok(_), Name::Given) => fs::canonicalize(path).map_err(failed)?,
                    _ => path.to_path_buf(),
                };
                let dir = match target.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".referee-").suffix(".tmp");
                // The file gets the permissions a new file would, or those of the file it replaces.
                match &found {
                    Ok(meta) => {
                        builder.permissions(meta.permissions());
                        if meta.is_file() {
                            writable(path, meta)?;
                        }
                    }
                    Err(_) => new_file_permissions(&mut builder),
                }
                let file = Counted { file: BufWriter::new(builder.tempfile_in(dir).map_err(failed)?), written: 0 };
                match found {
                    // Its old text is read too, to be put back should the write fail. A name the
                    // run made up is replaced, never written through: another name of the file
                    // there may be anyone's.
                    Ok(meta) if name == Name::Given && meta.is_file() && other_names(&meta) => {
                        let target = fs::OpenOptions::new().read(true).write(true).open(path).map_err(failed)?;
                        Sink::InPlace { file, target }
                    }
                    _ => Sink::Temp { file, target },
                }
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

    /// Finishes the file: flushed, and the temporary file renamed into place (or its text copied
    /// into a file with other names). On `Err` the temporary file is gone and the target is as it
    /// was.
    pub fn commit(self) -> Result<(), String> {
        let failed = |e: io::Error| format!("cannot write {}: {e}", self.path.display());
        match self.sink {
            Sink::Direct(mut file) => file.flush().map_err(failed),
            Sink::Temp { file, target } => {
                let file = file.complete().map_err(failed)?;
                file.persist(&target).map(drop).map_err(|e| failed(e.error))
            }
            Sink::InPlace { file, mut target } => {
                let mut file = file.complete().map_err(failed)?;
                overwrite(&mut target, file.as_file_mut(), &self.path)
            }
        }
    }
}

impl Counted<NamedTempFile> {
    /// The temporary file, flushed to the disk, once it holds every byte written to it: a file
    /// about to replace another, or to be copied over it, must be whole.
    fn complete(self) -> io::Result<NamedTempFile> {
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        let len = file.as_file().metadata()?.len();
        if len != self.written {
            return Err(io::Error::other(format!("the text is {} bytes, but {len} reached the disk", self.written)));
        }
        Ok(file)
    }
}

impl<F: Write> Write for Counted<F> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = self.file.write(bytes)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// For encoders that write into an [`io::Write`] (the GIF's); [`OutFile::commit`] still puts the
/// file in place.
impl Write for OutFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Temp { file, .. } | Sink::InPlace { file, .. } => file.write(bytes),
            Sink::Direct(file) => file.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Temp { file, .. } | Sink::InPlace { file, .. } => file.flush(),
            Sink::Direct(file) => file.flush(),
        }
    }
}

/// Whether the regular file at `path` may be written: opened for writing (not truncated) as the
/// shell's `>` opens it, the system says whether this user may (its owner, its permissions, a
/// read-only file system). A file nobody may write is refused even where the system would let the
/// run write it (root may write anything): its mode says it is to stay as it is.
fn writable(path: &Path, meta: &Metadata) -> Result<(), String> {
    if meta.permissions().readonly() {
        return Err(format!(
            "cannot write {}: it is read-only{}, and is left as it is (allow writing it, `chmod u+w`, or write elsewhere)",
            path.display(),
            mode(meta)
        ));
    }
    match fs::OpenOptions::new().write(true).open(path) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
    }
}

/// ` (mode 0444)`: the permissions of a file, as `chmod` writes them.
#[cfg(unix)]
fn mode(meta: &Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    format!(" (mode {:04o})", meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode(_: &Metadata) -> String {
    String::new()
}

/// Whether a file has other names (hard links), which a file renamed into place would leave with
/// the old text.
#[cfg(unix)]
fn other_names(meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.nlink() > 1
}

#[cfg(not(unix))]
fn other_names(_: &Metadata) -> bool {
    false
}

/// What a file written in place is written through: a [`File`], or in tests one that fails.
trait Target: Read + Write + Seek {
    fn set_len(&mut self, len: u64) -> io::Result<()>;
    fn sync(&mut self) -> io::Result<()>;
}

impl Target for File {
    fn set_len(&mut self, len: u64) -> io::Result<()> {
        File::set_len(self, len)
    }

    fn sync(&mut self) -> io::Result<()> {
        self.sync_all()
    }
}

/// Copies the whole of `text` over `target` in place, keeping the file and its other names. The
/// text `target` held is first copied into a hidden file beside `path`, and copied back if the
/// write fails midway (a full disk, an error of the device), so that the file is left either
/// whole and new or as it was. Should that fail too, the old text is kept in that file, and the
/// message names it; if the run is killed midway, it stays there too.
fn overwrite(target: &mut impl Target, text: &mut File, path: &Path) -> Result<(), String> {
    let failed = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut old =
        tempfile::Builder::new().prefix(".referee-").suffix(".old").tempfile_in(dir).map_err(|e| failed(&e))?;
    copy_over(old.as_file_mut(), target).map_err(|e| failed(&e))?;
    let Err(e) = copy_over(target, text) else { return Ok(()) };
    if copy_over(target, old.as_file_mut()).is_ok() {
        return Err(format!("{}, and it is as it was", failed(&e)));
    }
    match old.keep() {
        Ok((_, kept)) => {
            Err(format!("{}, nor could its old text be put back: it is in {}", failed(&e), kept.display()))
        }
        Err(_) => Err(format!("{}, nor could its old text be put back", failed(&e))),
    }
}

/// `to` made a copy of `from`, from their starts: `from`'s bytes written over `to`'s, `to` cut to
/// their length, and flushed to the disk.
fn copy_over(to: &mut impl Target, from: &mut (impl Read + Seek)) -> io::Result<()> {
    from.seek(SeekFrom::Start(0))?;
    to.seek(SeekFrom::Start(0))?;
    let len = io::copy(from, to)?;
    to.set_len(len)?;
    to.sync()
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

/// Writes `bytes` to standard output and flushes it: exit code 0, or 2 (said on standard error)
/// when it cannot be written. A reader that closed the pipe wanted no more: not an error.
/// `binary` names bytes a terminal cannot show (`a PNG`), refused there before anything is
/// written.
pub fn write_stdout(bytes: &[u8], binary: Option<&str>) -> ExitCode {
    if let Some(what) = binary.filter(|_| io::IsTerminal::is_terminal(&io::stdout())) {
        note(&format!("{what} is not for a terminal: name a file with -o, or redirect standard output"));
        return ExitCode::from(2);
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            note(&format!("cannot write to standard output: {e}"));
            ExitCode::from(2)
        }
    }
}

/// Writes a whole file with [`OutFile`]; the exit code says how it went (2, said on standard
/// error, when it could not be written).
pub fn write_file(path: &Path, input: &Path, bytes: &[u8], name: Name) -> ExitCode {
    let written = OutFile::create(path, input, name).and_then(|mut file| {
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

/// Writes a new file at `path`, complete or not at all; a file already there (or a link, even to
/// nothing) is left as it is, and named in the error.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A file that cannot grow past `capacity` bytes, as on a full disk, and whose device fails for
    /// good once `writes_left` more bytes are written; either fails a write part way through.
    struct Failing {
        bytes: Cursor<Vec<u8>>,
        capacity: usize,
        writes_left: usize,
    }

    impl Failing {
        fn new(text: &str, capacity: usize, writes_left: usize) -> Failing {
            Failing { bytes: Cursor::new(text.as_bytes().to_vec()), capacity, writes_left }
        }

        fn text(self) -> String {
            String::from_utf8(self.bytes.into_inner()).unwrap()
        }
    }

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.bytes.read(buf)
        }
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let room = self.capacity.saturating_sub(self.bytes.position() as usize).min(self.writes_left);
            if room == 0 {
                return Err(io::Error::other("no space left"));
            }
            let n = buf.len().min(room);
            self.writes_left -= n;
            self.bytes.write(&buf[..n])
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Seek for Failing {
        fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
            self.bytes.seek(to)
        }
    }

    impl Target for Failing {
        fn set_len(&mut self, len: u64) -> io::Result<()> {
            self.bytes.get_mut().resize(len as usize, 0);
            Ok(())
        }

        fn sync(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn text_file(dir: &Path, text: &str) -> File {
        let mut file = tempfile::tempfile_in(dir).unwrap();
        file.write_all(text.as_bytes()).unwrap();
        file
    }

    /// Files whose name starts with `.referee-` in `dir`: what an in-place write left.
    fn left(dir: &Path) -> Vec<PathBuf> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(".referee-"))
            .collect()
    }

    #[test]
    fn a_write_in_place_that_fails_midway_leaves_the_old_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.txt");
        let old = "1. a7a8 i3i2\n".repeat(100);
        let new = "1. a7a5 i3i2\n".repeat(300);
        // Room for half the new text: its first bytes are written over the old ones, then the
        // disk is full; the old text is written back over them, where it was.
        let mut target = Failing::new(&old, new.len() / 2, usize::MAX);
        let e = overwrite(&mut target, &mut text_file(dir.path(), &new), &path).unwrap_err();
        assert!(e.ends_with("club.txt: no space left, and it is as it was"), "{e}");
        assert_eq!(target.text(), old);
        assert_eq!(left(dir.path()), Vec::<PathBuf>::new());
        // The device fails for good midway: the old text cannot be put back, and is kept beside
        // the file, which the message names.
        let mut target = Failing::new(&old, usize::MAX, old.len() + 7);
        let e = overwrite(&mut target, &mut text_file(dir.path(), &new), &path).unwrap_err();
        let kept = left(dir.path());
        assert_eq!(kept.len(), 1);
        assert!(e.ends_with(&format!("nor could its old text be put back: it is in {}", kept[0].display())), "{e}");
        assert_eq!(fs::read_to_string(&kept[0]).unwrap(), old);
        // With room, the new text, shorter or longer than the old one, and nothing else.
        for new in ["short\n".to_string(), new] {
            let mut target = Failing::new(&old, usize::MAX, usize::MAX);
            overwrite(&mut target, &mut text_file(dir.path(), &new), &path).unwrap();
            assert_eq!(target.text(), new);
        }
        assert_eq!(left(dir.path()).len(), 1, "only the file kept above");
    }
}
