//! Counts in a small memory cgroup, as a Slurm job or a container runs
//! them: refused before they start where they do not fit (status 2, never
//! killed with 137), and not refused for the page cache that the job's own
//! files left, which the kernel reclaims. Each case makes a cgroup of its
//! own below this process's (v1 `memory.limit_in_bytes` or v2
//! `memory.max`); where that cannot be done (not root, no memory
//! controller, a read-only hierarchy) the test says so and passes.
#![cfg(target_os = "linux")]

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{binary, scratch};

/// A memory cgroup made for one case, removed when dropped.
struct Cgroup {
    dir: PathBuf,
}

impl Cgroup {
    /// A new cgroup `name` below this process's memory cgroup, limited to
    /// `limit` bytes; `Err` with the reason where none can be made.
    fn new(name: &str, limit: u64) -> Result<Cgroup, String> {
        let own = fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
        let (root, path, limit_file) = own
            .lines()
            .find_map(|line| {
                let mut fields = line.splitn(3, ':');
                let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
                if controllers.split(',').any(|c| c == "memory") {
                    Some(("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes"))
                } else if controllers.is_empty() {
                    Some(("/sys/fs/cgroup", path, "memory.max"))
                } else {
                    None
                }
            })
            .ok_or("no memory cgroup in /proc/self/cgroup")?;
        let parent = Path::new(root).join(path.trim_start_matches('/'));
        let dir = parent.join(format!("{name}-{}", std::process::id()));
        fs::create_dir(&dir).map_err(|e| format!("mkdir {}: {e}", dir.display()))?;
        let cgroup = Cgroup { dir };
        fs::write(cgroup.dir.join(limit_file), limit.to_string())
            .map_err(|e| format!("{limit_file}: {e}"))?;
        Ok(cgroup)
    }

    /// `script` run by `sh` in this cgroup (`$Q` is the binary).
    fn run(&self, script: &str) -> Output {
        let procs = self.dir.join("cgroup.procs");
        Command::new("sh")
            .arg("-c")
            .arg(format!("echo $$ > '{}' && {script}", procs.display()))
            .env("Q", binary())
            .output()
            .unwrap()
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // Its processes have ended; what they charged moves to the parent.
        let _ = fs::remove_dir(&self.dir);
    }
}

/// The cgroup, or a message and `None` where none can be made here.
fn cgroup(name: &str, limit: u64) -> Option<Cgroup> {
    match Cgroup::new(name, limit) {
        Ok(cgroup) => Some(cgroup),
        Err(why) => {
            eprintln!("SKIPPED: cannot make a memory cgroup here: {why}");
            None
        }
    }
}

fn describe(out: &Output) -> String {
    format!(
        "status {:?}, stdout {:?}, stderr {:?}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// 70 MB of files written in an 80 MiB cgroup are page cache the kernel
/// reclaims: a count of N = 16 (a join count of about 42 MiB) runs after
/// them, where it used to be refused with "6.5 MiB left".
#[test]
fn a_jobs_page_cache_does_not_refuse_its_next_count() {
    let Some(group) = cgroup("queens-cache", 80 << 20) else {
        return;
    };
    let dir = scratch("memory_cgroup_cache");
    let file = dir.join("written");
    let out = group.run(&format!(
        "dd if=/dev/zero of='{}' bs=1M count=70 status=none && exec \"$Q\" 16 --count --threads 1",
        file.display()
    ));
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "14772512\n");
}

/// A count that does not fit a 32 MiB cgroup is refused before it starts,
/// on one thread and on two, through the plan and whole.
#[test]
fn a_count_too_large_for_its_cgroup_is_refused_not_killed() {
    let Some(group) = cgroup("queens-tiny", 32 << 20) else {
        return;
    };
    for args in [
        "18 --count --threads 2",
        "18 --count --threads 1",
        "20 --count",
    ] {
        let out = group.run(&format!("exec \"$Q\" {args}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {}", describe(&out));
        assert!(
            err.contains("left in this process's memory cgroup") && err.lines().count() == 1,
            "{args}: {err}"
        );
    }
}

/// Issue 46's case: a 145 MiB file written and then read twice in a
/// 150 MiB cgroup is page cache on the active list (`active_file`), which
/// the kernel reclaims as it does the inactive one. N = 17 on 2 threads
/// (about 70 MiB) runs after it, where counting `inactive_file` alone
/// refused it with "292.0 KiB left".
#[test]
fn a_file_read_twice_does_not_refuse_the_next_count() {
    let Some(group) = cgroup("queens-active", 150 << 20) else {
        return;
    };
    let dir = scratch("memory_cgroup_active");
    let file = dir.join("read-twice");
    let stat = group.dir.join("memory.stat");
    let out = group.run(&format!(
        "dd if=/dev/zero of='{file}' bs=1M count=145 status=none && cat '{file}' >/dev/null \
         && cat '{file}' >/dev/null && grep -E '^(total_)?active_file' '{stat}' >&2; \
         exec \"$Q\" 17 --count --threads 2",
        file = file.display(),
        stat = stat.display()
    ));
    let _ = fs::remove_dir_all(&dir);
    // The kernel's lists, for the record: where a kernel keeps the file
    // inactive, the case is the older test's, and passes all the same.
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "95815104\n");
}
