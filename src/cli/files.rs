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

/// What a file is read as, in the words of its refusals.
#[derive(Clone, Copy, Debug)]
pub struct Holding {
    /// One of them: `a record`.
    one: &'static str,
    /// Them all: `records`.
    many: &'static str,
}

impl Holding {
    /// A shard record (`merge`).
    pub const RECORD: Holding = Holding {
        one: "a record",
        many: "records",
    };
    /// A checkpoint to resume from (`--checkpoint`).
    pub const CHECKPOINT: Holding = Holding {
        one: "a checkpoint",
        many: "checkpoints",
    };
    /// Either, as a campaign's folder holds both (`status`).
    pub const EITHER: Holding = Holding {
        one: "a record or checkpoint",
        many: "records and checkpoints",
    };
}

/// The contents of the regular file at `path` (links followed), read as
/// `holding` says, at most [`MAX_RECORD_BYTES`]; one line saying why not
/// otherwise. A FIFO, a device or a directory is refused without being
/// read (nor waited on).
pub fn read_record(path: &Path, holding: Holding) -> Result<Vec<u8>, String> {
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
            "{shown} is not a regular file ({}): {} are read from regular files only",
            kind_of(&metadata.file_type()),
            holding.many
        ));
    }
    if metadata.len() > MAX_RECORD_BYTES {
        return Err(too_large(path, metadata.len(), holding));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    // A file that grows while it is read still stops at the limit.
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(too_large(path, bytes.len() as u64, holding));
    }
    Ok(bytes)
}

fn too_large(path: &Path, bytes: u64, holding: Holding) -> String {
    format!(
        "{} has {bytes} bytes or more, over the {MAX_RECORD_BYTES} {} can have",
        path_text(path),
        holding.one
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
    builder
        .tempfile_in(directory_of(path))
        .map_err(without_temporary_path)
}

/// `e` without the ` at path "…"` that tempfile adds to its errors: the
/// temporary file's random name tells the user nothing, and messages name
/// the file asked for instead. (tempfile keeps the system's error private;
/// a unit test pins the text this takes apart.)
fn without_temporary_path(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.rfind(" at path \"") {
        Some(at) => io::Error::new(e.kind(), &text[..at]),
        None => e,
    }
}

/// The file a `--checkpoint` path names: a regular file, or a new name in
/// an existing directory, checked before anything is created
/// ([`writable_file`]).
pub fn checkpoint_file(path: &Path) -> Result<PathBuf, String> {
    writable_file(path, "checkpoint", "a checkpoint is a regular file", "")
}

/// The file a `--output` path names, checked as [`checkpoint_file`] checks
/// a checkpoint's.
pub fn output_file(path: &Path) -> Result<PathBuf, String> {
    writable_file(
        path,
        "--output",
        "the output replaces a regular file, atomically",
        ", or leave out --output to write to stdout",
    )
}

/// The one rule for every file the command line writes (a `--output`, a
/// checkpoint), checked before anything is created: the path names a
/// regular file, or a new name in a folder that exists. `what` says which
/// file in messages, `rule` why only a regular file will do, `instead`
/// what else to do than give a link (with its leading comma).
///
/// A path that is a symbolic link is refused, never followed: the file
/// it names may be anyone's (a link planted in a shared campaign folder
/// would have a count overwrite it), and replacing the link itself would
/// silently undo the user's link. Only the last component counts: a
/// folder reached through a link (a cluster's `$SCRATCH`) is fine. The
/// file is later replaced by a rename ([`Replacement`]), which replaces
/// whatever is at the path then, a link planted meanwhile included, and
/// never writes through it.
///
/// Refused in one line: a path that ends in `/` or names no file, a
/// symbolic link, a directory, a device or any other non-regular file
/// (`/dev/null`), a folder that does not exist.
fn writable_file(path: &Path, what: &str, rule: &str, instead: &str) -> Result<PathBuf, String> {
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
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => refuse(&format!(
            "is a symbolic link, and the command line never writes through one (the file it names may not be ours to replace): give the file's own path{instead}"
        )),
        Ok(metadata) if metadata.is_file() => Ok(path.to_path_buf()),
        Ok(metadata) => refuse(&format!(
            "is not a regular file ({}): {rule}",
            kind_of(&metadata.file_type())
        )),
        // NotADirectory: a file on the way (`afile/x.json`).
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            match unreachable_folder(path) {
                Some(why) => refuse(&format!("cannot be created: {why}")),
                None => Ok(path.to_path_buf()),
            }
        }
        Err(e) => refuse(&format!("cannot be read: {e}")),
    }
}

/// Why no file can be created at `path`, whose own name does not exist:
/// the first folder on its way that does not exist or is not a folder
/// (`nodir` in `nodir/x.json`, `sub` in `sub/../y.json`), or `None` if
/// its folder is there.
fn unreachable_folder(path: &Path) -> Option<String> {
    let folder = directory_of(path);
    if fs::metadata(folder).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    // The shortest leading part of the folder's path that fails says
    // why: later parts fail only because of it.
    let mut part = PathBuf::new();
    for component in folder.components() {
        part.push(component);
        match fs::metadata(&part) {
            Ok(metadata) if metadata.is_dir() => continue,
            Ok(_) => return Some(format!("{} is not a folder", path_text(&part))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Some(format!("folder {} does not exist", path_text(&part)));
            }
            Err(e) => {
                return Some(format!(
                    "folder {} cannot be reached: {e}",
                    path_text(&part)
                ));
            }
        }
    }
    Some(format!("folder {} cannot be reached", path_text(folder)))
}

/// Whether `a` and `b` name one file, however they are spelt (`x.json`,
/// `./x.json`, a hard link): the same device and inode where both exist;
/// where one does not exist yet, the same name in the same folder (their
/// folders compared as resolved paths).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (fs::metadata(a), fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    let resolved = |path: &Path| {
        fs::canonicalize(directory_of(path))
            .ok()
            .map(|folder| (folder, path.file_name().map(ToOwned::to_owned)))
    };
    match (resolved(a), resolved(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// A lock on a checkpoint for one run, held until dropped: an advisory lock
/// on `FILE.lock` beside it (the checkpoint itself is replaced by renames,
/// so it cannot carry the lock). The lock file stays after the run: removing
/// it would let two runs lock two different files of the same name.
#[derive(Debug)]
pub struct CheckpointLock {
    _file: File,
    /// Why no lock is held, where the lock file's file system takes none.
    not_held: Option<io::Error>,
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
    /// On a file system that takes no locks (an NFS mount without a lock
    /// manager, Lustre without `flock`), the lock is not held, and
    /// [`CheckpointLock::warning`] says so: the count goes on.
    pub fn take(checkpoint: &Path) -> Result<CheckpointLock, String> {
        let path = CheckpointLock::path_for(checkpoint);
        let shown = path_text(&path);
        let file = open_lock_file(&path).map_err(|e| {
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
        let not_held = match file.try_lock() {
            Ok(()) => None,
            Err(fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "checkpoint {} is in use by another run ({shown} is locked); wait for it to finish or give another file",
                    path_text(checkpoint)
                ));
            }
            Err(fs::TryLockError::Error(e)) if takes_no_locks(&e) => Some(e),
            Err(fs::TryLockError::Error(e)) => {
                return Err(format!(
                    "cannot lock the checkpoint's lock file {shown}: {e}"
                ));
            }
        };
        Ok(CheckpointLock {
            _file: file,
            not_held,
        })
    }

    /// Where no lock could be taken (its file system takes none), the
    /// warning to give on stderr: a second run on the checkpoint would not
    /// be stopped.
    pub fn warning(&self, checkpoint: &Path) -> Option<String> {
        let e = self.not_held.as_ref()?;
        Some(format!(
            "warning: checkpoint {} is not locked: its file system takes no lock on {} ({e}); counting all the same, so run no other count on this checkpoint meanwhile",
            path_text(checkpoint),
            path_text(&CheckpointLock::path_for(checkpoint))
        ))
    }
}

/// Opens (or creates) a checkpoint's lock file for the lock, never through
/// a link. One that another user left in a shared folder, which this user
/// may not write, is opened for reading: `flock` takes an exclusive lock
/// on a file open in any mode, and the checkpoint beside it is replaced by
/// a rename in the folder, which the file's mode does not forbid.
fn open_lock_file(path: &Path) -> io::Result<File> {
    let open = |write: bool| {
        let mut options = OpenOptions::new();
        options
            .read(true)
            .write(write)
            .create(write)
            .truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        options.open(path)
    };
    match open(true) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => open(false).map_err(|_| e),
        opened => opened,
    }
}

/// Whether `e`, from taking a lock, says that the file system takes no
/// locks at all: ENOLCK (NFS without a lock manager), ENOSYS (Lustre
/// mounted without `flock`), EOPNOTSUPP, or a platform where the standard
/// library locks no file; not that the lock is held, nor that the file is
/// wrong.
fn takes_no_locks(e: &io::Error) -> bool {
    #[cfg(unix)]
    let unsupported = [libc::ENOLCK, libc::ENOSYS, libc::EOPNOTSUPP, libc::ENOTSUP];
    #[cfg(not(unix))]
    let unsupported: [i32; 0] = [];
    e.kind() == io::ErrorKind::Unsupported
        || e.raw_os_error()
            .is_some_and(|code| unsupported.contains(&code))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file system without locks is told from a lock held elsewhere or a
    /// file that cannot be locked: only the first lets the count go on.
    #[test]
    fn a_file_system_without_locks_is_told_apart() {
        #[cfg(unix)]
        for code in [libc::ENOLCK, libc::ENOSYS, libc::EOPNOTSUPP] {
            assert!(
                takes_no_locks(&io::Error::from_raw_os_error(code)),
                "{code}"
            );
        }
        #[cfg(unix)]
        for code in [
            libc::EBADF,
            libc::EINTR,
            libc::EWOULDBLOCK,
            libc::EACCES,
            libc::EIO,
        ] {
            assert!(
                !takes_no_locks(&io::Error::from_raw_os_error(code)),
                "{code}"
            );
        }
        assert!(takes_no_locks(&io::Error::from(io::ErrorKind::Unsupported)));
        assert!(!takes_no_locks(&io::Error::other("held")));
    }

    /// A lock not held says so in one line, naming the checkpoint and its
    /// lock file; a held one says nothing.
    #[test]
    fn only_a_lock_not_held_is_warned_of() {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = dir.path().join("count.json");
        let held = CheckpointLock::take(&checkpoint).unwrap();
        assert_eq!(held.warning(&checkpoint), None);
        drop(held);
        let not_held = CheckpointLock {
            _file: File::open(dir.path().join("count.json.lock")).unwrap(),
            not_held: Some(io::Error::from(io::ErrorKind::Unsupported)),
        };
        let warning = not_held.warning(&checkpoint).unwrap();
        assert!(warning.starts_with("warning: checkpoint "), "{warning}");
        assert!(warning.contains("count.json.lock ("), "{warning}");
        assert!(!warning.contains('\n'), "{warning}");
    }

    /// tempfile's errors end in ` at path "…"`: pinned here, so that a
    /// tempfile whose text changes fails this test rather than putting a
    /// temporary file's name back into messages.
    #[test]
    fn a_temporary_files_name_is_cut_from_its_error() {
        let missing = std::env::temp_dir().join("queens-simd-no-such-folder/x.json");
        let raw = tempfile::Builder::new()
            .tempfile_in(directory_of(&missing))
            .unwrap_err();
        assert!(raw.to_string().contains(" at path \""), "{raw}");
        let cut = temporary_beside(&missing).unwrap_err();
        assert_eq!(cut.kind(), io::ErrorKind::NotFound);
        assert!(!cut.to_string().contains("at path"), "{cut}");
        assert!(
            cut.to_string().contains("No such file or directory"),
            "{cut}"
        );
        // An error without a path is left alone.
        let plain = io::Error::from_raw_os_error(28);
        let text = plain.to_string();
        assert_eq!(without_temporary_path(plain).to_string(), text);
    }

    #[test]
    fn one_file_under_two_spellings_is_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        fs::create_dir(at("sub")).unwrap();
        // Neither exists yet: compared by folder and name.
        assert!(same_file(&at("x.json"), &at("sub/../x.json")));
        assert!(!same_file(&at("x.json"), &at("sub/x.json")));
        // Both exist: by device and inode.
        fs::write(at("a"), "").unwrap();
        fs::hard_link(at("a"), at("b")).unwrap();
        fs::write(at("c"), "").unwrap();
        assert!(same_file(&at("a"), &at("b")));
        assert!(!same_file(&at("a"), &at("c")));
        assert!(!same_file(&at("a"), &at("new")));
    }

    #[test]
    fn the_first_folder_at_fault_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        fs::write(at("file"), "").unwrap();
        let why = |name: &str| {
            unreachable_folder(&at(name)).map(|why| why.replace(&path_text(dir.path()), "D"))
        };
        assert_eq!(why("x.json"), None);
        assert_eq!(
            why("no/x.json").as_deref(),
            Some("folder D/no does not exist")
        );
        assert_eq!(
            why("no/deeper/x.json").as_deref(),
            Some("folder D/no does not exist")
        );
        assert_eq!(
            why("no/../x.json").as_deref(),
            Some("folder D/no does not exist")
        );
        assert_eq!(
            why("file/x.json").as_deref(),
            Some("D/file is not a folder")
        );
        assert_eq!(unreachable_folder(Path::new("x.json")), None);
    }

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
