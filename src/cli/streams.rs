//! stdout and stderr as plain files, and whether they can take output at
//! all.
//!
//! Two things in the standard library would hide a lost result:
//! - `io::stdout()` and `io::stderr()` take a write that fails with EBADF
//!   (a descriptor open for reading only, `1</dev/null`) as done, so that a
//!   program started without them does not fail for it;
//! - before `main`, the runtime opens `/dev/null` for reading and writing
//!   on any of descriptors 0 to 2 that is closed (`>&-`), so that a closed
//!   stdout takes every write and drops it.
//!
//! Either way a count would print its total nowhere and exit 0. So results
//! and messages are written through a duplicate of the descriptor, a
//! `File`, whose errors are errors; and a descriptor that is `/dev/null`
//! open for reading and writing is taken for a closed one. A user who
//! discards output on purpose (`>/dev/null`) opens it for writing only,
//! which is not refused; a service that hands over `/dev/null` open for
//! reading and writing (as daemon(3) does) is refused like a closed stdout.

use std::fmt;
use std::fs::File;
use std::io;

/// Why a standard stream cannot take output.
// On Windows only a handle that cannot be duplicated is seen.
#[cfg_attr(not(unix), allow(dead_code))]
#[derive(Debug)]
pub enum Unwritable {
    /// Closed when the program started (`>&-`, `2>&-`).
    Closed,
    /// Open for reading only (`1</dev/null`): every write fails.
    ReadOnly,
    /// Its descriptor could not be duplicated or read.
    Unusable(io::Error),
}

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unwritable::Closed => f.write_str("is closed"),
            Unwritable::ReadOnly => f.write_str("is open for reading only"),
            Unwritable::Unusable(e) => write!(f, "cannot be used ({e})"),
        }
    }
}

/// Descriptor 1, as a file of its own, if it can take output.
pub fn stdout() -> Result<File, Unwritable> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        writable(io::stdout().as_fd())
    }
    #[cfg(not(unix))]
    {
        use std::os::windows::io::AsHandle;
        duplicate(io::stdout().as_handle())
    }
}

/// Descriptor 2, as a file of its own, if it can take output.
pub fn stderr() -> Result<File, Unwritable> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        writable(io::stderr().as_fd())
    }
    #[cfg(not(unix))]
    {
        use std::os::windows::io::AsHandle;
        duplicate(io::stderr().as_handle())
    }
}

/// A duplicate of the handle; Windows has no runtime that reopens a closed
/// stream, and a write to a missing one fails as it should.
#[cfg(not(unix))]
fn duplicate(handle: std::os::windows::io::BorrowedHandle<'_>) -> Result<File, Unwritable> {
    handle
        .try_clone_to_owned()
        .map(File::from)
        .map_err(Unwritable::Unusable)
}

#[cfg(unix)]
fn writable(fd: std::os::fd::BorrowedFd<'_>) -> Result<File, Unwritable> {
    use std::os::fd::AsRawFd;
    let file = match fd.try_clone_to_owned() {
        Ok(owned) => File::from(owned),
        // Closed, where no runtime reopened it (a library's caller).
        Err(e) if e.raw_os_error() == Some(libc::EBADF) => return Err(Unwritable::Closed),
        Err(e) => return Err(Unwritable::Unusable(e)),
    };
    // SAFETY: F_GETFL only reads the flags of a descriptor this process
    // holds open (the duplicate, owned by `file`); it takes no pointer.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    if flags == -1 {
        return Err(Unwritable::Unusable(io::Error::last_os_error()));
    }
    match flags & libc::O_ACCMODE {
        libc::O_RDONLY => Err(Unwritable::ReadOnly),
        libc::O_RDWR if is_dev_null(&file) => Err(Unwritable::Closed),
        _ => Ok(file),
    }
}

/// Whether `file` is the null device (the same character device as
/// `/dev/null`).
#[cfg(unix)]
fn is_dev_null(file: &File) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    match (file.metadata(), std::fs::metadata("/dev/null")) {
        (Ok(this), Ok(null)) => {
            this.file_type().is_char_device()
                && null.file_type().is_char_device()
                && this.rdev() == null.rdev()
        }
        _ => false,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs::OpenOptions;
    use std::os::fd::AsFd;

    #[test]
    fn dev_null_for_reading_and_writing_is_closed_for_writing_only_is_not() {
        let open = |read: bool, write: bool| {
            OpenOptions::new()
                .read(read)
                .write(write)
                .open("/dev/null")
                .unwrap()
        };
        assert!(matches!(
            writable(open(true, true).as_fd()),
            Err(Unwritable::Closed)
        ));
        assert!(matches!(
            writable(open(true, false).as_fd()),
            Err(Unwritable::ReadOnly)
        ));
        assert!(writable(open(false, true).as_fd()).is_ok());
        // Any other file open for reading and writing takes output.
        let file = tempfile::tempfile().unwrap();
        assert!(writable(file.as_fd()).is_ok());
    }
}
