//! The memory check: what a count takes, checked before anything large is
//! allocated. A count through a plan takes the plan
//! ([`queens_simd::plan::Plan::build_memory_estimate`], known before it is
//! built), its count's tables and buffers (a join count's threads hold the
//! quarter-boards of the pieces they count, cut small:
//! [`queens_simd::plan::Plan::memory_estimate`]) and `--sample`'s draws.
//! docs/plan.md and BENCHMARKS.md give the figures. A count that would take
//! more than `--max-memory`, or without it more than the memory available
//! ([`available`]: `MemAvailable` and the memory cgroup's limit, less the
//! page cache it would reclaim), or more address space than `RLIMIT_AS`
//! leaves ([`address_space_left`], with each thread's stack and arena) is
//! refused with both figures instead of being killed part-way, or
//! swapping for days.

use queens_simd::Kernel;

mod glibc;

/// What `--max-memory` and `script --memory` accept, for their error
/// messages.
const SIZE_FORMS: &str = "a number of bytes, or a number with a suffix K, M, G or T (powers of \
                          1024; also KiB, MiB, GiB, TiB, any case), such as 16GiB or 1.5G";

/// Parses the size that `flag` (`--max-memory`, `--memory`) was given,
/// and names that flag in its messages: whole bytes (`1048576`), or a
/// number (whole or with a fraction) and a suffix, K, M, G, T or KiB, MiB,
/// GiB, TiB in any case, all powers of 1024 (`16GiB`, `16g`, `1.5T`). At
/// least one byte, at most 2^64 - 1.
pub fn parse_size(text: &str, flag: &str) -> Result<u64, String> {
    let refuse = || format!("{flag} must be {SIZE_FORMS}");
    let too_large = || format!("{flag} '{text}' is more than 2^64 bytes");
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
            return Err(too_large());
        }
        bytes.round() as u64
    } else {
        let value: u64 = number.parse().map_err(|_| too_large())?;
        value.checked_mul(1 << shift).ok_or_else(too_large)?
    };
    if bytes == 0 {
        return Err(format!("{flag} must be more than 0 bytes"));
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
        super::plural::counted(bytes, "byte", "bytes")
    }
}

/// How much memory a new count may take without being killed or swapping,
/// and what says so: the smaller of Linux's `MemAvailable` and what the
/// memory cgroup of this process (and each cgroup above it) has left
/// (`cgroup_left`). `None` where neither can be read.
pub fn available() -> Option<(u64, &'static str)> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let cgroup = read("/proc/self/cgroup")
        .and_then(|text| cgroup_left(&text, &|path| read(path)))
        .map(|left| (left, "left in this process's memory cgroup"));
    let meminfo = read("/proc/meminfo")
        .and_then(|text| mem_available(&text))
        .map(|free| (free, "available"));
    [meminfo, cgroup]
        .into_iter()
        .flatten()
        .min_by_key(|&(bytes, _)| bytes)
}

/// The address space this process may still map (`RLIMIT_AS`, `ulimit
/// -v`, less the `VmSize` it has mapped already), or `None` where there is
/// no such limit or it cannot be read. The kernel refuses any mapping past
/// it, whatever `--max-memory` says.
pub fn address_space_left() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let limit = address_space_limit(&read("/proc/self/limits")?)?;
    let mapped = read("/proc/self/status")
        .and_then(|text| status_bytes(&text, "VmSize:"))
        .unwrap_or(0);
    Some(limit.saturating_sub(mapped))
}

/// Address space each worker thread maps beside the heap that the count
/// estimates: its stack (2 MiB, Rust's default, and a guard page).
const THREAD_STACK: u64 = (2 << 20) + (4 << 10);

/// Address space a malloc arena of glibc reserves when a thread first
/// allocates (`HEAP_MAX_SIZE`, 64 MiB on 64-bit Linux: mapped but
/// untouched, it costs address space, not memory); none elsewhere.
const ARENA: u64 = if cfg!(target_env = "gnu") {
    64 << 20
} else {
    0
};

/// How many arenas of their own worker threads may reserve, one each: up
/// to glibc's limit, read from the environment and the cores online as
/// glibc reads them ([`glibc`]), less the main thread's. Measured on a
/// 16-core Xeon: N = 17 on 16 threads, unchecked, needed 800 MiB of
/// address space in one run; arenas are reserved as threads start, before
/// the tables, so a run may need them all.
fn arenas_at_most() -> u64 {
    let var = |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    let (tunables, arena_max, arena_test) = (
        var("GLIBC_TUNABLES"),
        var("MALLOC_ARENA_MAX"),
        var("MALLOC_ARENA_TEST"),
    );
    let environment = glibc::Environment {
        tunables: tunables.as_deref(),
        arena_max: arena_max.as_deref(),
        arena_test: arena_test.as_deref(),
    };
    glibc::worker_arenas(environment, glibc::cores())
}

/// The value in bytes of the `field` (`VmSize:`) of `/proc/self/status`
/// (`VmSize:     12345 kB`).
fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix(field))?;
    let mut words = line.split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        _ => None,
    }
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

/// The files of a memory cgroup, by version: its root, its limits, its
/// usage, and the fields of its `memory.stat` that the kernel reclaims
/// before it refuses memory: the page cache on both file LRU lists. A
/// file read twice moves to `active_file`, and the kernel reclaims it all
/// the same (it deactivates active pages as the cgroup nears its limit);
/// counting `inactive_file` alone refused N = 17 in a 150 MiB cgroup
/// after a 145 MiB file was read twice. Shared memory (tmpfs) sits on the
/// anonymous lists, not these, so what is counted needs no swap.
struct CgroupFiles {
    root: &'static str,
    limits: &'static [&'static str],
    usage: &'static str,
    reclaimable: &'static [&'static str],
}

/// v2: `memory.max` is enforced, and `memory.high` throttles the
/// cgroup's processes (to a crawl) past it, so both bound a count.
const CGROUP_V2: CgroupFiles = CgroupFiles {
    root: "/sys/fs/cgroup",
    limits: &["memory.max", "memory.high"],
    usage: "memory.current",
    reclaimable: &["active_file", "inactive_file"],
};

/// v1: `memory.limit_in_bytes`; its `memory.stat` counts the cache of the
/// whole hierarchy below it as `total_active_file` and
/// `total_inactive_file` (without `total_`, its own pages alone).
const CGROUP_V1: CgroupFiles = CgroupFiles {
    root: "/sys/fs/cgroup/memory",
    limits: &["memory.limit_in_bytes"],
    usage: "memory.usage_in_bytes",
    reclaimable: &["total_active_file", "total_inactive_file"],
};

/// The least any memory cgroup of this process has left, from the text of
/// `/proc/self/cgroup` (v2: `0::/path`; v1: `N:...memory...:/path`) and
/// `read(path)` of the cgroup files: for the process's cgroup and each one
/// above it, its limit less its usage, and its usage without the page
/// cache the kernel would reclaim first (a Slurm job's written files must
/// not refuse its next count). `None` if no limit is set.
fn cgroup_left(cgroup: &str, read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let number = |path: String| read(&path).and_then(|text| text.trim().parse::<u64>().ok());
    let mut least: Option<u64> = None;
    for line in cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let files = if controllers.is_empty() {
            &CGROUP_V2
        } else if controllers.split(',').any(|c| c == "memory") {
            &CGROUP_V1
        } else {
            continue;
        };
        // The cgroup and its ancestors, up to the root: each limit holds.
        let mut dir = path.trim_end_matches('/').to_owned();
        loop {
            let at = |file: &str| format!("{}{dir}/{file}", files.root);
            // "max" (v2) does not parse: no limit. v1 writes no limit as a
            // number near 2^63, which is never the least.
            let limit = files
                .limits
                .iter()
                .filter_map(|file| number(at(file)))
                .min();
            if let Some(limit) = limit {
                let used = number(at(files.usage)).unwrap_or(0);
                let cache = read(&at("memory.stat"))
                    .map_or(0, |stat| reclaimable(&stat, files.reclaimable));
                let left = limit.saturating_sub(used.saturating_sub(cache));
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

/// The page cache the kernel reclaims, from the text of a cgroup's
/// `memory.stat`: the sum of `fields` (each missing or unreadable one
/// counts 0, so nothing is taken as reclaimable that is not said to be).
fn reclaimable(stat: &str, fields: &[&str]) -> u64 {
    fields
        .iter()
        .filter_map(|field| stat_field(stat, field))
        .fold(0, u64::saturating_add)
}

/// The value of `field` in the text of a cgroup's `memory.stat`
/// (`inactive_file 73400320`).
fn stat_field(stat: &str, field: &str) -> Option<u64> {
    stat.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == field).then(|| value.trim().parse().ok())?
    })
}

/// The limits a count is checked against: the memory it may take, and the
/// address space it may still map where `RLIMIT_AS` is set.
pub struct Limits {
    /// Bytes of memory, and the words that say where the figure is from.
    memory: Option<(u64, String)>,
    /// Bytes of address space left ([`address_space_left`]).
    address_space: Option<u64>,
    /// How many malloc arenas worker threads may reserve
    /// ([`arenas_at_most`]).
    arenas: u64,
}

impl Limits {
    /// For a command that takes `--max-memory`: its limit if given, else
    /// what is [`available`] (and a refusal says that the flag changes
    /// it); and the address space left, which holds whatever
    /// `--max-memory` says.
    pub fn of_this_process(max_memory: Option<u64>) -> Limits {
        match max_memory {
            Some(limit) => Limits::with_memory(Some((
                limit,
                format!("the --max-memory limit of {}", show(limit)),
            ))),
            None => Limits::of_available(" (set --max-memory to change the limit)"),
        }
    }

    /// For a command that takes no `--max-memory` (`--verify`): what is
    /// [`available`], and the address space left. A refusal names no flag
    /// that the command would refuse.
    pub fn without_max_memory() -> Limits {
        Limits::of_available("")
    }

    /// What is [`available`], its refusals' words ending with `hint`.
    fn of_available(hint: &str) -> Limits {
        Limits::with_memory(
            available().map(|(free, source)| (free, format!("the {} {source}{hint}", show(free)))),
        )
    }

    fn with_memory(memory: Option<(u64, String)>) -> Limits {
        Limits {
            memory,
            address_space: address_space_left(),
            arenas: arenas_at_most(),
        }
    }

    /// Address space `threads` worker threads map beside the heap: their
    /// stacks and arenas, and the [`queens_simd::plan::PROBED_HEADROOM`] a count
    /// keeps free after each large buffer.
    fn threads_address_space(&self, threads: usize) -> u64 {
        let arenas = (threads as u64).min(self.arenas);
        (threads as u64)
            .saturating_mul(THREAD_STACK)
            .saturating_add(arenas.saturating_mul(ARENA))
            .saturating_add(queens_simd::plan::PROBED_HEADROOM)
    }

    /// Whether a count on `threads` threads that takes `bytes` fits, and
    /// if not, which limit it passes and by how much.
    fn refusal(&self, threads: usize, bytes: u64) -> Option<(u64, String)> {
        if let Some((limit, text)) = &self.memory
            && bytes > *limit
        {
            return Some((bytes, text.clone()));
        }
        let mapped = bytes.saturating_add(self.threads_address_space(threads));
        match self.address_space {
            Some(left) if mapped > left => Some((
                mapped,
                format!(
                    "the {} of address space that RLIMIT_AS (ulimit -v) leaves (with each thread's stack and malloc arena)",
                    show(left)
                ),
            )),
            _ => None,
        }
    }
}

/// Refuses a count of `n` by `kernel` on `threads` threads (one shard of
/// it, or the whole: the same) that needs `needed(threads)` bytes (its
/// plan, its tables and buffers, its draws) where that passes a limit
/// ([`Limits`]). Nothing is refused where no limit is known. The refusal
/// says how many threads would fit, and where none does and `shards` (a
/// join count through its plan, which `--shard` cuts), that no shard fits
/// either: a join count's memory is its threads' tables, cut by the
/// pieces, so a shard needs as much as the whole count. Where shards do
/// not apply (`--sample`, `merge --recount`, a symmetric plan, whose
/// memory is the plan's), it says nothing of them.
pub fn check(
    kernel: Kernel,
    n: usize,
    threads: usize,
    shards: bool,
    needed: &dyn Fn(usize) -> u64,
    limits: &Limits,
) -> Result<(), String> {
    let Some((total, limit_text)) = limits.refusal(threads, needed(threads)) else {
        return Ok(());
    };
    let fits = (1..threads)
        .rev()
        .find(|&t| limits.refusal(t, needed(t)).is_none());
    let advice = match fits {
        Some(1) => "; 1 thread fits (--threads 1)".to_owned(),
        Some(t) => format!("; {t} threads fit (--threads {t})"),
        None if shards => "; a shard needs as much, so no shard count fits either".to_owned(),
        None if threads > 1 => "; 1 thread needs more than that too".to_owned(),
        None => String::new(),
    };
    Err(format!(
        "counting N = {n} with {kernel} on {} needs about {}, more than {limit_text}{advice}",
        threads_text(threads),
        show(total)
    ))
}

/// Refuses `--verify` up to `max_n` where the check of some N would pass a
/// limit, before any check runs, with the largest `--max-n` that fits:
/// `needed(n)` is what the check of N = n takes, `None` where even finding
/// it ran out of memory.
pub fn check_verify(
    max_n: usize,
    needed: &dyn Fn(usize) -> Option<u64>,
    limits: &Limits,
) -> Result<(), String> {
    let refusal = |n: usize| match needed(n) {
        Some(bytes) => limits.refusal(0, bytes),
        None => Some((u64::MAX, "what this process may allocate".to_owned())),
    };
    let Some((n, (total, limit_text))) = (0..=max_n).find_map(|n| Some((n, refusal(n)?))) else {
        return Ok(());
    };
    let advice = match n.checked_sub(1) {
        Some(fits) => format!("; --max-n {fits} fits"),
        None => String::new(),
    };
    if total == u64::MAX {
        return Err(format!(
            "--verify cannot check N = {n}: counting its solutions ran out of memory, so holding them to compare needs more than {limit_text}{advice}"
        ));
    }
    // Below N = 14 the figure is mostly the largest kernel's tables and the
    // room kept free beside them (24 MiB at N = 0, whose 1 solution takes
    // 33 bytes), from N = 14 mostly the solutions: it names both.
    Err(format!(
        "--verify needs about {} to check N = {n} (the largest kernel's tables and working room, and every solution held several times over to compare them), more than {limit_text}{advice}",
        show(total)
    ))
}

/// Refuses to build the plan of `n` by `method` (to check records against
/// it) where its `bytes` pass a limit.
pub fn check_plan(
    method: queens_simd::kernel::Method,
    n: usize,
    bytes: u64,
    limits: &Limits,
) -> Result<(), String> {
    match limits.refusal(0, bytes) {
        None => Ok(()),
        Some((total, limit_text)) => Err(format!(
            "checking records of N = {n} builds its {method} plan, which needs about {}, more than {limit_text}",
            show(total)
        )),
    }
}

/// What a count through a plan takes on `threads` threads: the plan, its
/// count's tables and buffers, and with `--sample` its draws.
pub fn needed(needs: &queens_simd::plan::MemoryNeeds, threads: usize, draws: Option<usize>) -> u64 {
    let sample = draws.map_or(0, |draws| needs.sample(draws, threads));
    needs.total(threads).saturating_add(sample)
}

/// "1 thread" or "T threads".
pub fn threads_text(threads: usize) -> String {
    super::plural::counted(threads, "thread", "threads")
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
            assert_eq!(parse_size(text, "--max-memory"), Ok(bytes), "{text}");
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
            let refused = parse_size(bad, "--max-memory");
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
        assert_eq!(show(1), "1 byte");
    }

    #[test]
    fn mem_available_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24684084 kB\nMemFree:        23882228 kB\nMemAvailable:   24315808 kB\n";
        assert_eq!(mem_available(meminfo), Some(24_315_808 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: x kB\n"), None);
        assert_eq!(mem_available("MemAvailable: 5 MB\n"), None);
    }

    /// Limits as `--max-memory` gives them, and an address space left.
    fn limits(max_memory: u64, address_space: Option<u64>) -> Limits {
        Limits {
            memory: Some((
                max_memory,
                format!("the --max-memory limit of {}", show(max_memory)),
            )),
            address_space,
            arenas: 8,
        }
    }

    /// `--verify` takes no `--max-memory`: a refusal of it does not say to
    /// set one, as a count's does.
    #[test]
    fn only_a_command_that_takes_max_memory_is_told_to_set_it() {
        let words = |limits: Limits| limits.memory.map(|(_, text)| text);
        if let Some(text) = words(Limits::without_max_memory()) {
            assert!(!text.contains("--max-memory"), "{text}");
        }
        if let Some(text) = words(Limits::of_this_process(None)) {
            assert!(
                text.ends_with(" (set --max-memory to change the limit)"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_count_over_the_limit_is_refused_with_both_figures() {
        let per_thread = |t: usize| t as u64 * (9 << 30);
        // N = 24 by `join`, whose threads take 9 GiB each, under a limit.
        let check_24 = |threads, shards, limit: u64| {
            check(
                Kernel::Join,
                24,
                threads,
                shards,
                &per_thread,
                &limits(limit, None),
            )
        };
        let refused = check(
            Kernel::JoinAvx2,
            24,
            2,
            true,
            &per_thread,
            &limits(16 << 30, None),
        )
        .unwrap_err();
        assert_eq!(
            refused,
            "counting N = 24 with join-avx2 on 2 threads needs about 18.0 GiB, more than the --max-memory limit of 16.0 GiB; 1 thread fits (--threads 1)"
        );
        assert_eq!(check_24(1, true, 9 << 30), Ok(()));
        let refused = check_24(1, true, 8 << 30).unwrap_err();
        assert!(refused.ends_with("; a shard needs as much, so no shard count fits either"));
        // Where shards do not apply (a sample, a recount), nor do they in
        // the advice.
        let refused = check_24(2, false, 8 << 30).unwrap_err();
        assert!(
            refused.ends_with("; 1 thread needs more than that too"),
            "{refused}"
        );
        let refused = check_24(1, false, 8 << 30).unwrap_err();
        assert!(
            refused.ends_with("more than the --max-memory limit of 8.0 GiB"),
            "{refused}"
        );
        // Nothing fits in less than nothing.
        assert!(check(Kernel::Join, 4, 1, true, &|_| 1, &limits(0, None)).is_err());
        let none = Limits {
            memory: None,
            address_space: None,
            arenas: 8,
        };
        assert_eq!(
            check(Kernel::Join, 4, 1, true, &|_| u64::MAX, &none),
            Ok(())
        );
    }

    /// `RLIMIT_AS` holds whatever `--max-memory` says, and counts each
    /// thread's stack and arena.
    #[test]
    fn the_address_space_left_holds_with_any_max_memory() {
        let needed = |t: usize| (16 << 20) + t as u64 * (10 << 20);
        let left = (16 << 20) + 2 * (10 << 20) + limits(0, None).threads_address_space(2);
        assert_eq!(
            check(
                Kernel::Join,
                18,
                2,
                true,
                &needed,
                &limits(1 << 40, Some(left))
            ),
            Ok(())
        );
        let refused = check(
            Kernel::Join,
            18,
            3,
            true,
            &needed,
            &limits(1 << 40, Some(left)),
        )
        .unwrap_err();
        assert!(
            refused.contains("of address space that RLIMIT_AS (ulimit -v) leaves"),
            "{refused}"
        );
        assert!(
            refused.ends_with("; 2 threads fit (--threads 2)"),
            "{refused}"
        );
        assert_eq!(
            status_bytes("Name:\tqueens-simd\nVmSize:\t   12340 kB\n", "VmSize:"),
            Some(12340 << 10)
        );
        assert_eq!(status_bytes("VmSize: 12 MB\n", "VmSize:"), None);
    }

    /// `merge` checks the plan it builds to check records against.
    #[test]
    fn a_plan_too_large_for_the_limit_is_refused_before_it_is_built() {
        let method = queens_simd::kernel::Method::Symmetric;
        assert_eq!(
            check_plan(method, 32, 20 << 20, &limits(1 << 30, None)),
            Ok(())
        );
        assert_eq!(
            check_plan(method, 32, 20 << 20, &limits(1 << 20, None)),
            Err("checking records of N = 32 builds its symmetric plan, which needs about 20.0 MiB, more than the --max-memory limit of 1.0 MiB".into())
        );
        let refused = check_plan(method, 32, 20 << 20, &limits(1 << 30, Some(8 << 20)));
        assert!(refused.unwrap_err().contains("RLIMIT_AS"));
    }

    /// One arena per thread, up to glibc's limit (the main thread holds
    /// one of them; [`glibc`] reads the limit).
    #[test]
    fn threads_reserve_arenas_up_to_glibcs_limit() {
        let one_arena = Limits {
            arenas: 0,
            ..limits(1 << 30, None)
        };
        assert_eq!(
            one_arena.threads_address_space(16) - one_arena.threads_address_space(15),
            THREAD_STACK
        );
        let limits = limits(1 << 30, None);
        assert!(limits.threads_address_space(2) > limits.threads_address_space(1));
        assert_eq!(
            limits.threads_address_space(9) - limits.threads_address_space(8),
            THREAD_STACK,
            "past its arenas, a thread adds its stack alone"
        );
    }

    /// The page cache the kernel reclaims (on both file lists: a file
    /// read twice is all `active_file`) is not counted as used, and v2's
    /// `memory.high` bounds a count as `memory.max` does.
    #[test]
    fn a_cgroups_page_cache_is_left_to_the_count() {
        let files = |path: &str| {
            Some(
                match path {
                    "/sys/fs/cgroup/job/memory.max" => "83886080",
                    "/sys/fs/cgroup/job/memory.current" => "77594624",
                    "/sys/fs/cgroup/job/memory.stat" => {
                        "anon 4194304\nfile 73400320\ninactive_file 70000000\nactive_file 3400320\n"
                    }
                    // The case: 145 MiB read twice in 150 MiB.
                    "/sys/fs/cgroup/twice/memory.max" => "157286400",
                    "/sys/fs/cgroup/twice/memory.current" => "156585984",
                    "/sys/fs/cgroup/twice/memory.stat" => {
                        "anon 4542464\nfile 152043520\nactive_anon 4542464\ninactive_file 0\nactive_file 152043520\n"
                    }
                    "/sys/fs/cgroup/high/memory.max" => "max",
                    "/sys/fs/cgroup/high/memory.high" => "104857600",
                    "/sys/fs/cgroup/high/memory.current" => "4194304",
                    "/sys/fs/cgroup/memory/old/memory.limit_in_bytes" => "83886080",
                    "/sys/fs/cgroup/memory/old/memory.usage_in_bytes" => "77594624",
                    // v1 counts the hierarchy below in `total_`: its own
                    // pages alone (`inactive_file`, `active_file`) are not
                    // what its usage counts.
                    "/sys/fs/cgroup/memory/old/memory.stat" => {
                        "cache 73400320\ninactive_file 1\nactive_file 2\ntotal_inactive_file 3400320\ntotal_active_file 70000000\n"
                    }
                    _ => return None,
                }
                .to_owned(),
            )
        };
        assert_eq!(
            cgroup_left("0::/job\n", &files),
            Some(83_886_080 - 4_194_304)
        );
        assert_eq!(
            cgroup_left("0::/twice\n", &files),
            Some(157_286_400 - 4_542_464)
        );
        assert_eq!(cgroup_left("0::/high\n", &files), Some(96 << 20));
        assert_eq!(
            cgroup_left("5:memory:/old\n", &files),
            Some(83_886_080 - 4_194_304)
        );
        assert_eq!(
            stat_field("file 5\ninactive_file 7\n", "inactive_file"),
            Some(7)
        );
        assert_eq!(stat_field("inactive_file x\n", "inactive_file"), None);
        // A field missing or unreadable counts nothing as reclaimable.
        let both = CGROUP_V2.reclaimable;
        assert_eq!(reclaimable("inactive_file 7\nactive_file 5\n", both), 12);
        assert_eq!(reclaimable("inactive_file 7\nactive_file x\n", both), 7);
        assert_eq!(reclaimable("file 12\n", both), 0);
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
