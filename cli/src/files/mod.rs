//! Reading and writing the CLI's files safely in shared directories:
//! records are read only from regular files, up to a size limit; a file is
//! written by one rule ([`output_file`], [`checkpoint_file`]: never
//! through a symbolic link) and replaced through a fresh temporary file
//! that cannot be a planted link, removed again on error; a checkpoint is
//! locked for the run ([`CheckpointLock`]); paths are shown as a shell takes
//! them ([`path_text`]).

mod lock;
mod shown;

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

pub use lock::{CheckpointLock, NotLocked};
pub use shown::path_text;

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
    /// A `--sample` projection (`script --projection`).
    pub const PROJECTION: Holding = Holding {
        one: "a projection",
        many: "projections",
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
/// (`writable_file`: never through a symbolic link).
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

/// Where a file is: its device and inode on Unix, its resolved path
/// elsewhere. Two paths with one `FileId` name one file, however they are
/// spelt (`x.json`, `./x.json`, a hard link, a symbolic link to it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileId(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

impl FileId {
    /// The file at `path` (a link followed), if it exists and the system
    /// says.
    pub fn of(path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let metadata = fs::metadata(path).ok()?;
            Some(FileId((metadata.dev(), metadata.ino())))
        }
        #[cfg(not(unix))]
        {
            fs::canonicalize(path).ok().map(FileId)
        }
    }
}

/// Whether `a` and `b` name one file, however they are spelt: the same
/// [`FileId`] where both exist; where one does not exist yet, the same
/// name in the same folder (their folders compared as resolved paths).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let (Some(a), Some(b)) = (FileId::of(a), FileId::of(b)) {
        return a == b;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
