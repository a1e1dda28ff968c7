//! `--max-memory`: how much memory a join count may take, checked before it
//! starts. Each thread of a join count holds the quarter-boards of the
//! pieces it counts, cut small ([`crate::plan::Plan::memory_estimate`];
//! docs/plan.md and BENCHMARKS.md give the figures). A count that would
//! take more than `--max-memory`, or without it more than the memory
//! available ([`available`]: `MemAvailable`, the memory cgroup's limit and
//! `RLIMIT_AS`), is refused with both figures instead of being killed
//! part-way, or swapping for days.

use crate::Kernel;

/// What `--max-memory` accepts, for its error message.
const SIZE_FORMS: &str = "a number of bytes, or a number with a suffix K, M, G or T (powers of \
                          1024; also KiB, MiB, GiB, TiB, any case), such as 16GiB or 1.5G";

/// Parses `--max-memory`: whole bytes (`1048576`), or a number (whole or
/// with a fraction) and a suffix, K, M, G, T or KiB, MiB, GiB, TiB in any
/// case, all powers of 1024 (`16GiB`, `16g`, `1.5T`). At least one byte,
/// at most 2^64 - 1.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let refuse = || format!("--max-memory must be {SIZE_FORMS}");
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, suffix) = trimmed.split_at(split);
    let suffix = suffix.trim_start().to_ascii_lowercase();
    let shift = match suffix.as_str() {
        "" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => return Err(refuse()),
    };
    let digits_ok = !number.is_empty()
        && number.bytes().filter(|&b| b == b'.').count() <= usize::from(shift > 0)
        && number.bytes().any(|b| b.is_ascii_digit());
    if !digits_ok {
        return Err(refuse());
    }
    let bytes = if number.contains('.') {
        let value: f64 = number.parse().map_err(|_| refuse())?;
        let bytes = value * (1u64 << shift) as f64;
        // 2^64 as a float: anything at or past it does not fit.
        if bytes.is_nan() || bytes >= 18_446_744_073_709_551_616.0 {
            return Err(format!("--max-memory '{text}' is more than 2^64 bytes"));
        }
        bytes.round() as u64
    } else {
        let value: u64 = number
            .parse()
            .map_err(|_| format!("--max-memory '{text}' is more than 2^64 bytes"))?;
        value
            .checked_mul(1 << shift)
            .ok_or_else(|| format!("--max-memory '{text}' is more than 2^64 bytes"))?
    };
    if bytes == 0 {
        return Err("--max-memory must be more than 0 bytes".into());
    }
    Ok(bytes)
}

/// `bytes` for a person: GiB from 1 GiB up, else MiB, else KiB, one
/// decimal (`36.0 GiB`, `70.4 MiB`), or bytes under 1 KiB.
pub fn show(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b >= KIB * KIB * KIB {
        format!("{:.1} GiB", b / (KIB * KIB * KIB))
    } else if b >= KIB * KIB {
        format!("{:.1} MiB", b / (KIB * KIB))
    } else if b >= KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// How much memory a new count may take without being killed or swapping,
/// and what says so: the smallest of Linux's `MemAvailable`, what the
/// memory cgroup of this process (and each cgroup above it) has left under
/// its limit (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`, which
/// Slurm's `--mem` and containers set) and the address space `RLIMIT_AS`
/// allows (`ulimit -v`). `None` where none of them can be read.
pub fn available() -> Option<(u64, &'static str)> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let cgroup = read("/proc/self/cgroup")
        .and_then(|text| cgroup_left(&text, &|path| read(path)))
        .map(|left| (left, "left in this process's memory cgroup"));
    let meminfo = read("/proc/meminfo")
        .and_then(|text| mem_available(&text))
        .map(|free| (free, "available"));
    let address_space = read("/proc/self/limits")
        .and_then(|text| address_space_limit(&text))
        .map(|limit| (limit, "of address space that RLIMIT_AS allows"));
    [meminfo, cgroup, address_space]
        .into_iter()
        .flatten()
        .min_by_key(|&(bytes, _)| bytes)
}

/// `MemAvailable` in bytes, from the text of `/proc/meminfo`
/// (`MemAvailable:   22123456 kB`).
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let mut words = line.split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// The soft `Max address space` of `/proc/self/limits`, unless unlimited.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))?;
    line.split_whitespace().next()?.parse().ok()
}

/// The least any memory cgroup of this process has left, from the text of
/// `/proc/self/cgroup` (v2: `0::/path`; v1: `N:...memory...:/path`) and
/// `read(path)` of the cgroup files: for the process's cgroup and each one
/// above it, its limit less its usage. `None` if no limit is set.
fn cgroup_left(cgroup: &str, read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let number = |path: String| read(&path).and_then(|text| text.trim().parse::<u64>().ok());
    let mut least: Option<u64> = None;
    for line in cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let (root, limit, usage) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // The cgroup and its ancestors, up to the root: each limit holds.
        let mut dir = path.trim_end_matches('/').to_owned();
        loop {
            // "max" (v2) does not parse: no limit. v1 writes no limit as a
            // number near 2^63, which is never the least.
            if let Some(max) = number(format!("{root}{dir}/{limit}")) {
                let used = number(format!("{root}{dir}/{usage}")).unwrap_or(0);
                let left = max.saturating_sub(used);
                least = Some(least.map_or(left, |l| l.min(left)));
            }
            match dir.rfind('/') {
                Some(at) => dir.truncate(at),
                None => break,
            }
        }
    }
    least
}

/// Refuses a join count of `n` by `kernel` on `threads` threads (one shard
/// of it, or the whole: the same) that needs `needed(threads)` bytes, more
/// than `limit` (`--max-memory`) or, without it, than the memory available
/// ([`available`]). Nothing is refused where neither is known. The refusal
/// says how many threads would fit: a join count's memory is its threads'
/// tables, cut by the pieces, so a shard needs as much as the whole count.
pub fn check(
    n: usize,
    kernel: Kernel,
    threads: usize,
    needed: &dyn Fn(usize) -> u64,
    limit: Option<u64>,
) -> Result<(), String> {
    let (allowed, limit_text) = match limit {
        Some(limit) => (limit, format!("the --max-memory limit of {}", show(limit))),
        None => match available() {
            Some((free, source)) => (
                free,
                format!(
                    "the {} {source} (set --max-memory to change the limit)",
                    show(free)
                ),
            ),
            None => return Ok(()),
        },
    };
    let total = needed(threads);
    if total <= allowed {
        return Ok(());
    }
    let fits = (1..threads).rev().find(|&t| needed(t) <= allowed);
    let advice = match fits {
        Some(1) => "; 1 thread fits (--threads 1)".to_owned(),
        Some(t) => format!("; {t} threads fit (--threads {t})"),
        None => "; a shard needs as much, so no shard count fits either".to_owned(),
    };
    Err(format!(
        "counting N = {n} with {kernel} on {} needs about {}, more than {limit_text}{advice}",
        threads_text(threads),
        show(total)
    ))
}

/// "1 thread" or "T threads".
pub fn threads_text(threads: usize) -> String {
    if threads == 1 {
        "1 thread".to_owned()
    } else {
        format!("{threads} threads")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_every_documented_form() {
        for (text, bytes) in [
            ("1", 1),
            ("1048576", 1 << 20),
            ("1K", 1 << 10),
            ("1k", 1 << 10),
            ("1KiB", 1 << 10),
            ("1kib", 1 << 10),
            ("16GiB", 16 << 30),
            ("16G", 16 << 30),
            ("16 gib", 16 << 30),
            ("1M", 1 << 20),
            ("2mib", 2 << 20),
            ("1.5G", 3 << 29),
            ("0.5k", 512),
            ("3T", 3 << 40),
            ("4TIB", 4 << 40),
            ("16777215T", 16_777_215 << 40),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for bad in [
            "",
            "G",
            "0",
            "0G",
            "-1",
            "-1G",
            "1.5",
            "1..5G",
            ".G",
            "1GB",
            "1 G B",
            "1e3",
            "one",
            "1Gi",
            "16777216T",
            "99999999999999999999",
            "1.0e30G",
            "0x10",
        ] {
            let refused = parse_size(bad);
            assert!(refused.is_err(), "{bad:?}: {refused:?}");
            assert!(!refused.unwrap_err().contains('\n'));
        }
    }

    #[test]
    fn figures_are_shown_in_the_unit_that_fits() {
        assert_eq!(show(36 << 30), "36.0 GiB");
        assert_eq!(show((70 << 20) + (400 << 10)), "70.4 MiB");
        assert_eq!(show(1 << 20), "1.0 MiB");
        assert_eq!(show(1536), "1.5 KiB");
        assert_eq!(show(12), "12 bytes");
    }

    #[test]
    fn mem_available_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24684084 kB\nMemFree:        23882228 kB\nMemAvailable:   24315808 kB\n";
        assert_eq!(mem_available(meminfo), Some(24_315_808 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: x kB\n"), None);
        assert_eq!(mem_available("MemAvailable: 5 MB\n"), None);
    }

    #[test]
    fn a_count_over_the_limit_is_refused_with_both_figures() {
        let per_thread = |t: usize| t as u64 * (9 << 30);
        let refused = check(24, Kernel::JoinAvx2, 2, &per_thread, Some(16 << 30)).unwrap_err();
        assert_eq!(
            refused,
            "counting N = 24 with join-avx2 on 2 threads needs about 18.0 GiB, more than the --max-memory limit of 16.0 GiB; 1 thread fits (--threads 1)"
        );
        assert_eq!(
            check(24, Kernel::Join, 1, &per_thread, Some(9 << 30)),
            Ok(())
        );
        let refused = check(24, Kernel::Join, 1, &per_thread, Some(8 << 30)).unwrap_err();
        assert!(refused.ends_with("; a shard needs as much, so no shard count fits either"));
        // Nothing fits in less than nothing.
        assert!(check(4, Kernel::Join, 1, &|_| 1, Some(0)).is_err());
    }

    #[test]
    fn the_limits_are_read_from_proc_and_the_cgroups() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\nMax address space         104857600            unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(100 << 20));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        // v2: the job's cgroup and the one above it both hold.
        let files = |path: &str| {
            Some(
                match path {
                    "/sys/fs/cgroup/slurm/job_7/memory.max" => "104857600",
                    "/sys/fs/cgroup/slurm/job_7/memory.current" => "4194304",
                    "/sys/fs/cgroup/slurm/memory.max" => "max",
                    "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes" => "2147483648",
                    "/sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes" => "1073741824",
                    "/sys/fs/cgroup/memory/docker/memory.limit_in_bytes" => "9223372036854771712",
                    _ => return None,
                }
                .to_owned(),
            )
        };
        assert_eq!(cgroup_left("0::/slurm/job_7\n", &files), Some(96 << 20));
        assert_eq!(
            cgroup_left("12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n", &files),
            Some(1 << 30)
        );
        assert_eq!(cgroup_left("0::/\n", &files), None);
        assert_eq!(cgroup_left("garbage", &files), None);
    }
}
