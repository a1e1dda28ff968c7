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
//! `File`, whose errors are errors; and which of descriptors 0 to 2 were
//! closed is recorded before the runtime reopens them, by a function that
//! the loader runs before `main` ([`closed_at_start`]). A stream closed at
//! the start is refused. The null device that the caller opened, for
//! writing only (`>/dev/null`) or for reading and writing (`1<>/dev/null`,
//! Python's `subprocess.DEVNULL`, a service manager's unused stream), takes
//! the output and drops it, as asked. On a system where no record is made,
//! a closed stream is not told from the null device, and is not refused.

use std::fmt;
use std::fs::File;
use std::io;
#[cfg(unix)]
use std::sync::atomic::{AtomicU8, Ordering};

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
        writable(io::stdout().as_fd(), was_closed_at_start(1))
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
        writable(io::stderr().as_fd(), was_closed_at_start(2))
    }
    #[cfg(not(unix))]
    {
        use std::os::windows::io::AsHandle;
        duplicate(io::stderr().as_handle())
    }
}

/// Which of descriptors 0, 1 and 2 were closed when the process started,
/// bit `fd` each; written once, before `main`, where [`closed_at_start`]
/// is compiled in, and 0 elsewhere.
#[cfg(unix)]
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Whether descriptor `fd` (0 to 2) was closed when the process started.
#[cfg(unix)]
fn was_closed_at_start(fd: i32) -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed) & 1 << fd != 0
}

/// The record of closed descriptors, on the systems whose loader runs the
/// functions of a known section before `main`: `.init_array` on ELF
/// systems, `__mod_init_func` on Apple's. The Rust runtime reopens closed
/// descriptors later, inside `main`'s wrapper (`std::rt`).
///
/// The registration lives here in the library, beside what reads it, and
/// not in the binary: rustc hands the linker every `#[used]` static of the
/// crates that a binary links, and linkers keep these sections whole.
/// `cli/tests/program/hostile_environment.rs` checks it on the built binary: a stdout
/// closed with `>&-` is refused there, where it would count otherwise.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
    target_os = "solaris",
    target_vendor = "apple",
))]
mod closed_at_start {
    use super::CLOSED_AT_START;
    use std::sync::atomic::Ordering;

    // The section flag on Apple's is the one dyld looks for (the
    // `inventory` and `ctor` crates use the same).
    #[used]
    #[cfg_attr(
        target_vendor = "apple",
        unsafe(link_section = "__DATA,__mod_init_func,mod_init_funcs")
    )]
    #[cfg_attr(not(target_vendor = "apple"), unsafe(link_section = ".init_array"))]
    static RECORD: extern "C" fn() = record;

    /// Notes which of descriptors 0 to 2 are closed. Runs before `main`:
    /// it only calls `fcntl` and reads errno, and allocates nothing.
    extern "C" fn record() {
        let closed = (0..3)
            .filter(|&fd| is_closed(fd))
            .fold(0, |bits, fd| bits | 1 << fd);
        CLOSED_AT_START.store(closed, Ordering::Relaxed);
    }

    /// Whether descriptor `fd` is closed: `F_GETFD` fails with EBADF.
    pub(super) fn is_closed(fd: i32) -> bool {
        // SAFETY: F_GETFD only reads the flags of a descriptor number,
        // open or not; it takes no pointer.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        flags == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
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

/// `fd` as a file of its own, unless it was closed when the process
/// started (`closed_at_start`: the runtime's `/dev/null` stands there
/// now), is closed, or is open for reading only.
#[cfg(unix)]
fn writable(fd: std::os::fd::BorrowedFd<'_>, closed_at_start: bool) -> Result<File, Unwritable> {
    use std::os::fd::AsRawFd;
    if closed_at_start {
        return Err(Unwritable::Closed);
    }
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
        _ => Ok(file),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs::OpenOptions;
    use std::os::fd::AsFd;

    fn dev_null(read: bool, write: bool) -> File {
        OpenOptions::new()
            .read(read)
            .write(write)
            .open("/dev/null")
            .unwrap()
    }

    /// The null device takes output whether opened for writing only or for
    /// reading and writing (Python's `subprocess.DEVNULL`); only for
    /// reading, it is refused; a descriptor closed at the start is refused
    /// whatever the runtime opened on it since.
    #[test]
    fn dev_null_takes_output_unless_read_only_or_closed_at_start() {
        assert!(writable(dev_null(false, true).as_fd(), false).is_ok());
        assert!(writable(dev_null(true, true).as_fd(), false).is_ok());
        assert!(matches!(
            writable(dev_null(true, false).as_fd(), false),
            Err(Unwritable::ReadOnly)
        ));
        assert!(matches!(
            writable(dev_null(true, true).as_fd(), true),
            Err(Unwritable::Closed)
        ));
        let file = tempfile::tempfile().unwrap();
        assert!(writable(file.as_fd(), false).is_ok());
    }

    /// `F_GETFD` tells a closed descriptor number (none is open past the
    /// limit of open files) from an open one.
    #[cfg(any(target_os = "linux", target_vendor = "apple"))]
    #[test]
    fn a_closed_descriptor_is_told_from_an_open_one() {
        use std::os::fd::AsRawFd;
        let file = tempfile::tempfile().unwrap();
        assert!(!closed_at_start::is_closed(file.as_raw_fd()));
        assert!(closed_at_start::is_closed(i32::MAX));
    }
}
