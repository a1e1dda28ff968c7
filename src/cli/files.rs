//! Reading and writing the CLI's files safely in shared directories:
//! records are read only from regular files, up to a size limit; a file is
//! replaced through a fresh temporary file that cannot be a planted link,
//! and is removed again on error; a checkpoint is locked for the run.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// `path` as the user would type it, the same in a message and in JSON:
/// as it is where every byte is printable UTF-8; otherwise in bash's ANSI-C
/// quoting, `$'…'`, so that it can be pasted into a shell and reach the
/// file: `\\`, `\'`, `\n`, `\t`, `\r`, and `\xNN` for every other byte
/// that is not printable or not valid UTF-8 (printable characters stay as
/// they are). Not printable: control characters (a newline would split a
/// message's one line) and the invisible ones that change how a line reads
/// (bidirectional overrides, zero widths, line separators).
pub fn path_text(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if let Ok(text) = std::str::from_utf8(bytes)
        && text.chars().all(printable)
    {
        return text.to_owned();
    }
    let mut quoted = String::from("$'");
    let hex = |quoted: &mut String, bytes: &[u8]| {
        for byte in bytes {
            quoted.push_str(&format!("\\x{byte:02x}"));
        }
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => quoted.push_str("\\\\"),
                '\'' => quoted.push_str("\\'"),
                '\n' => quoted.push_str("\\n"),
                '\t' => quoted.push_str("\\t"),
                '\r' => quoted.push_str("\\r"),
                c if printable(c) => quoted.push(c),
                c => hex(&mut quoted, c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
        hex(&mut quoted, chunk.invalid());
    }
    quoted.push('\'');
    quoted
}

/// Whether `c` shows as itself on a terminal: not a control character, nor
/// an invisible one that reorders, hides or breaks what follows it.
fn printable(c: char) -> bool {
    !c.is_control()
        && !matches!(
            c,
            '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}' | '\u{feff}'
        )
}

/// The largest record read: above the largest a count can write (the join
/// plan of N = 32 in one shard, 59,640 pieces: at most 2.1 MB with a count
/// of up to 32 hex digits each, about 1 MB with counts of their real size;
/// the symmetric plan of N = 32, 37,086 subproblems, takes about 1.3 MB),
/// far below what would strain memory.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The contents of the regular file at `path` (links followed), at most
/// [`MAX_RECORD_BYTES`]; one line saying why not otherwise. A FIFO, a
/// device or a directory is refused without being read (nor waited on).
pub fn read_record(path: &Path) -> Result<Vec<u8>, String> {
    let shown = path_text(path);
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading would wait for a writer; with
        // O_NONBLOCK it does not, and the check below refuses it.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let metadata = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !metadata.is_file() {
        return Err(format!(
            "{shown} is not a regular file ({}): records are read from regular files only",
            kind_of(&metadata.file_type())
        ));
    }
    if metadata.len() > MAX_RECORD_BYTES {
        return Err(too_large(path, metadata.len()));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    // A file that grows while it is read still stops at the limit.
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

fn too_large(path: &Path, bytes: u64) -> String {
    format!(
        "{} has {bytes} bytes or more, over the {MAX_RECORD_BYTES} a record can have",
        path_text(path)
    )
}

/// What kind of file a non-regular file is, in words.
fn kind_of(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// The directory a file named `path` is in: its parent, or `.` for a bare
/// name.
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Replaces `path` with `bytes` ([`Replacement`], in one write).
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut replacement = Replacement::create(path)?;
    replacement.write_all(bytes)?;
    replacement.commit()
}

/// A file written in place of `path`: into a new temporary file in the
/// same directory (a random name, created exclusively, so no link or file
/// planted there is followed or reused), which [`Replacement::commit`]
/// flushes to disk and renames over `path`. A crash at any moment leaves
/// either the old file or the new one; dropped without a commit (an error
/// on the way), the temporary file is removed and `path` is untouched. A
/// link at `path` itself is replaced, not followed.
#[derive(Debug)]
pub struct Replacement {
    /// The temporary file, once made.
    temporary: Option<tempfile::NamedTempFile>,
    path: PathBuf,
}

impl Replacement {
    /// Starts the replacement of `path`: its temporary file, empty.
    pub fn create(path: &Path) -> io::Result<Replacement> {
        Ok(Replacement {
            temporary: Some(temporary_beside(path)?),
            path: path.to_path_buf(),
        })
    }

    /// As [`Replacement::create`], but the temporary file is made (again)
    /// only at the first write: a count of hours that is killed leaves no
    /// empty file behind, and one that cannot write there is refused now
    /// (the first one is made and removed at once).
    pub fn deferred(path: &Path) -> io::Result<Replacement> {
        drop(temporary_beside(path)?);
        Ok(Replacement {
            temporary: None,
            path: path.to_path_buf(),
        })
    }

    fn file(&mut self) -> io::Result<&mut File> {
        if self.temporary.is_none() {
            self.temporary = Some(temporary_beside(&self.path)?);
        }
        Ok(self.temporary.as_mut().expect("made above").as_file_mut())
    }

    /// Flushes what was written to disk and renames it over the path.
    pub fn commit(mut self) -> io::Result<()> {
        self.file()?.sync_all()?;
        let temporary = self.temporary.take().expect("made by file()");
        temporary.persist(&self.path).map_err(|e| e.error)?;
        // Make the rename itself durable where the platform allows it.
        if let Ok(dir) = File::open(directory_of(&self.path)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Write for Replacement {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file()?.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.temporary {
            Some(temporary) => temporary.as_file_mut().flush(),
            None => Ok(()),
        }
    }
}

/// A new temporary file beside `path`, `.NAME.RANDOM.tmp`, as readable as
/// `File::create` would make it.
fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // As `File::create` would (the umask applies), not tempfile's 0600:
        // a checkpoint or a record is as readable as any other output.
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(directory_of(path))
}

/// The file a `--checkpoint` path names: a regular file, or a new name in
/// an existing directory (a link resolved to its file), checked before
/// anything is created.
pub fn checkpoint_file(path: &Path) -> Result<PathBuf, String> {
    writable_file(path, "checkpoint", "a checkpoint is a regular file")
}

/// The file a `--output` path names, checked as [`checkpoint_file`] checks
/// a checkpoint's.
pub fn output_file(path: &Path) -> Result<PathBuf, String> {
    writable_file(
        path,
        "--output",
        "the output replaces a regular file, atomically",
    )
}

/// The file a path to be replaced names (`what` says which in messages,
/// `rule` why only a regular file will do), checked before anything is
/// created: a regular file, or a new name in an existing directory. A link
/// is resolved to the file it points to, so that a run given the link and a
/// run given the file share one lock and one file, and the user's link
/// stays a link. Refused in one line: a path that ends in `/` or names no
/// file, a directory, a device or any other non-regular file (`/dev/null`),
/// a link to nothing, a directory that does not exist.
fn writable_file(path: &Path, what: &str, rule: &str) -> Result<PathBuf, String> {
    let shown = path_text(path);
    let refuse = |why: &str| Err(format!("{what} {shown} {why}"));
    #[cfg(unix)]
    let ends_in_slash = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().ends_with(b"/")
    };
    #[cfg(not(unix))]
    let ends_in_slash = path.as_os_str().to_string_lossy().ends_with(['/', '\\']);
    if ends_in_slash || path.file_name().is_none() {
        return refuse("names a directory, not a file");
    }
    let file = match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(target) => target,
            Err(e) => return refuse(&format!("is a link to nothing that can be read ({e})")),
        },
        Ok(_) => path.to_path_buf(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let directory = directory_of(path);
            if !fs::metadata(directory).is_ok_and(|m| m.is_dir()) {
                return refuse(&format!(
                    "cannot be created: {} is not a directory",
                    path_text(directory)
                ));
            }
            return Ok(path.to_path_buf());
        }
        Err(e) => return refuse(&format!("cannot be read: {e}")),
    };
    match fs::metadata(&file) {
        Ok(metadata) if metadata.is_file() => Ok(file),
        Ok(metadata) => refuse(&format!(
            "is not a regular file ({}): {rule}",
            kind_of(&metadata.file_type())
        )),
        Err(e) => refuse(&format!("cannot be read: {e}")),
    }
}

/// A lock on a checkpoint for one run, held until dropped: an advisory lock
/// on `FILE.lock` beside it (the checkpoint itself is replaced by renames,
/// so it cannot carry the lock). The lock file stays after the run: removing
/// it would let two runs lock two different files of the same name.
#[derive(Debug)]
pub struct CheckpointLock {
    _file: File,
}

impl CheckpointLock {
    /// The lock file of `checkpoint`.
    pub fn path_for(checkpoint: &Path) -> PathBuf {
        let mut path = checkpoint.as_os_str().to_owned();
        path.push(".lock");
        PathBuf::from(path)
    }

    /// Takes the lock, or says why not in one line: another run holds it,
    /// or the lock file cannot be opened (a link is refused, not followed).
    pub fn take(checkpoint: &Path) -> Result<CheckpointLock, String> {
        let path = CheckpointLock::path_for(checkpoint);
        let shown = path_text(&path);
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        let file = options.open(&path).map_err(|e| {
            // O_NOFOLLOW's refusal reads "Too many levels of symbolic
            // links": say what the file is instead.
            if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                format!(
                    "the checkpoint's lock file {shown} is a symbolic link, which a lock is never taken through; remove it, or give another checkpoint file"
                )
            } else {
                format!("cannot open the checkpoint's lock file {shown}: {e}")
            }
        })?;
        let is_file = file.metadata().is_ok_and(|m| m.is_file());
        if !is_file {
            return Err(format!(
                "the checkpoint's lock file {shown} is not a regular file"
            ));
        }
        match file.try_lock() {
            Ok(()) => Ok(CheckpointLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(format!(
                "checkpoint {} is in use by another run ({shown} is locked); wait for it to finish or give another file",
                path_text(checkpoint)
            )),
            Err(fs::TryLockError::Error(e)) => Err(format!(
                "cannot lock the checkpoint's lock file {shown}: {e}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn path_of(bytes: &[u8]) -> PathBuf {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }

    #[cfg(unix)]
    #[test]
    fn a_path_is_shown_as_a_shell_would_take_it() {
        // Printable, whatever else it holds: as it is.
        for plain in ["records/shard-1.json", "a b/it's \\ \"é\".json", "$x`y`"] {
            assert_eq!(path_text(Path::new(plain)), plain);
        }
        let cases: [(&[u8], &str); 5] = [
            (b"nu/bad\xff\x01\".json", r#"$'nu/bad\xff\x01".json'"#),
            (b"two\nlines.json", r"$'two\nlines.json'"),
            (b"it's\t\\\r.json", r"$'it\'s\t\\\r.json'"),
            // A printable character stays, an invisible one is its bytes.
            (
                "é\u{202e}\x7f.json".as_bytes(),
                r"$'é\xe2\x80\xae\x7f.json'",
            ),
            // A byte that starts a character which never comes.
            (b"x\xe2\x80.json\x1b", r"$'x\xe2\x80.json\x1b'"),
        ];
        for (bytes, shown) in cases {
            assert_eq!(path_text(&path_of(bytes)), shown);
        }
    }
}
