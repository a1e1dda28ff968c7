//! A child process under the conditions a test hands it: another user, a
//! limit on the files it writes.

use std::os::unix::process::CommandExt;
use std::process::Command;

/// Runs `command`'s child as `nobody` (user and group 65534) where this
/// test runs as root, whom file modes do not keep out; as anyone else, as
/// this user, whom they do.
pub fn as_nobody_if_root(command: &mut Command) {
    // SAFETY: getuid cannot fail and touches no memory.
    let root = unsafe { libc::getuid() } == 0;
    // SAFETY: between fork and exec the closure calls only setgid and
    // setuid, which are async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if root && (libc::setgid(65534) != 0 || libc::setuid(65534) != 0) {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Lets `command`'s child write files of up to `bytes` (`RLIMIT_FSIZE`),
/// with SIGXFSZ ignored: a write past it fails with EFBIG, as on a full
/// disk.
pub fn with_file_size_limit(command: &mut Command, bytes: u64) {
    // SAFETY: between fork and exec the closure calls only setrlimit and
    // signal, which are async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let rlimit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            if libc::setrlimit(libc::RLIMIT_FSIZE, &rlimit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}
