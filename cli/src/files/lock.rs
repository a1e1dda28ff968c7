//! The lock a count holds on its checkpoint for the whole run.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::path_text;

/// Why a checkpoint's lock was not taken, in one line each.
#[derive(Debug, PartialEq, Eq)]
pub enum NotLocked {
    /// Another run holds it.
    Held(String),
    /// The lock file cannot be opened or locked.
    Failed(String),
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
    pub fn take(checkpoint: &Path) -> Result<CheckpointLock, NotLocked> {
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
        })
        .map_err(NotLocked::Failed)?;
        let is_file = file.metadata().is_ok_and(|m| m.is_file());
        if !is_file {
            return Err(NotLocked::Failed(format!(
                "the checkpoint's lock file {shown} is not a regular file"
            )));
        }
        let not_held = match file.try_lock() {
            Ok(()) => None,
            Err(fs::TryLockError::WouldBlock) => {
                return Err(NotLocked::Held(format!(
                    "checkpoint {} is in use by another run ({shown} is locked)",
                    path_text(checkpoint)
                )));
            }
            Err(fs::TryLockError::Error(e)) if takes_no_locks(&e) => Some(e),
            Err(fs::TryLockError::Error(e)) => {
                return Err(NotLocked::Failed(format!(
                    "cannot lock the checkpoint's lock file {shown}: {e}"
                )));
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
}
