//! A test's own process under a limit on its address space (`RLIMIT_AS`,
//! as `ulimit -v` sets it), and the child processes such tests run.

use std::io::Read;
use std::time::{Duration, Instant};

/// The bytes of address space this process holds (`VmSize`).
pub fn held_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmSize:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmSize in kB");
    kib << 10
}

/// Lowers the soft limit on this process's address space to `bytes` (the
/// hard limit stays: lowering the soft one needs no privilege).
pub fn lower_address_space_limit(bytes: u64) -> Result<(), String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes the one `rlimit` it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    if limit.rlim_max != libc::RLIM_INFINITY && limit.rlim_max < bytes {
        return Err(format!("the hard limit is {} bytes", limit.rlim_max));
    }
    limit.rlim_cur = bytes;
    // SAFETY: `setrlimit` reads the one `rlimit` it is given.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok(())
}

/// This test binary again, running its test `test` alone (one thread,
/// output shown) with the variables `env` set; its output and errors are
/// piped, for [`wait_for`]. With `one_arena`, glibc keeps one arena for
/// every thread, so that all the child allocates grows under the limit it
/// sets: a thread's own arena reserves 64 MiB of address space at its
/// first allocation, before the limit, where a count could grow for
/// minutes before it is refused.
pub fn spawn_self(test: &str, env: &[(&str, String)], one_arena: bool) -> std::process::Child {
    use std::process::{Command, Stdio};
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .envs(env.iter().map(|(name, value)| (name, value)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if one_arena {
        command.env("GLIBC_TUNABLES", "glibc.malloc.arena_max=1");
    }
    command.spawn().expect("the test binary runs again")
}

/// Waits for `child` up to `time`, killing it past that: its exit status
/// (`None` if it was killed), its output and its errors.
pub fn wait_for(
    mut child: std::process::Child,
    time: Duration,
) -> (Option<std::process::ExitStatus>, String, String) {
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            break Some(status);
        }
        if start.elapsed() > time {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |pipe: Option<&mut dyn Read>| {
        let mut text = String::new();
        if let Some(pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    };
    let stdout = read(child.stdout.as_mut().map(|p| p as &mut dyn Read));
    let stderr = read(child.stderr.as_mut().map(|p| p as &mut dyn Read));
    (status, stdout, stderr)
}
