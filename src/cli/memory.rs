//! `--max-memory`: how much memory a join count may take, checked before it
//! starts. A join count builds the quarter-boards of one cut of the board
//! and shares them among its threads ([`crate::plan::Plan::memory_estimate`];
//! docs/plan.md and BENCHMARKS.md give the figures). A count that would
//! take more than `--max-memory`, or without it more than the memory
//! available (Linux: `MemAvailable` in `/proc/meminfo`), is refused with
//! both figures instead of being killed part-way, or swapping for days.

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

/// The memory available for a new count: Linux's `MemAvailable` (what can
/// be allocated without swapping), or `None` where it cannot be read.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available(&text)
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

/// Refuses a join count of `n` by `kernel` on `threads` threads that needs
/// `needed` bytes, more than `limit` (`--max-memory`) or, without it, than
/// the memory available. Nothing is refused where neither is known.
pub fn check(
    n: usize,
    kernel: Kernel,
    threads: usize,
    needed: u64,
    limit: Option<u64>,
) -> Result<(), String> {
    let (allowed, what) = match limit {
        Some(limit) => (limit, "the --max-memory limit of"),
        None => match available() {
            Some(free) => (free, "the"),
            None => return Ok(()),
        },
    };
    if needed <= allowed {
        return Ok(());
    }
    let threads = if threads == 1 {
        "1 thread".to_owned()
    } else {
        format!("{threads} threads")
    };
    let tail = if limit.is_some() {
        format!("{what} {}", show(allowed))
    } else {
        format!(
            "{what} {} available (set --max-memory to change the limit)",
            show(allowed)
        )
    };
    Err(format!(
        "counting N = {n} with {kernel} on {threads} needs about {}, more than {tail}",
        show(needed)
    ))
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
        let refused = check(24, Kernel::JoinAvx2, 2, 36 << 30, Some(16 << 30)).unwrap_err();
        assert_eq!(
            refused,
            "counting N = 24 with join-avx2 on 2 threads needs about 36.0 GiB, more than the --max-memory limit of 16.0 GiB"
        );
        assert_eq!(check(24, Kernel::Join, 1, 16 << 30, Some(16 << 30)), Ok(()));
        // Nothing fits in less than nothing.
        assert!(check(4, Kernel::Join, 1, 1, Some(0)).is_err());
    }
}
