//! How many malloc arenas glibc gives a process's threads, read as glibc
//! reads it, so that the address-space check counts the arenas the count
//! will reserve (64 MiB each): never fewer, or a count passes the check
//! and then runs out of address space (status 4).
//!
//! glibc's rules (malloc/arena.c, `arena_get2`; elf/dl-tunables.c):
//! - A thread's first allocation makes an arena of its own while there
//!   are fewer than the limit, then shares one. The limit is
//!   `glibc.malloc.arena_max` where set; else arenas are made freely until
//!   there are more than `glibc.malloc.arena_test` (8 on 64-bit), and from
//!   then on up to 8 per core. So unset, there are at most
//!   max(arena_test + 1, 8 × cores), the main thread's among them.
//! - The cores are those online (`__get_nprocs`, as glibc 2.39 and
//!   Debian 12's 2.36 count them), not the CPU affinity (`taskset`), which
//!   glibc 2.35 to 2.38 counted instead; the larger of the two is taken,
//!   right for both.
//! - Both tunables take a number as glibc's `_dl_strtoul` reads it
//!   (decimal, `0x` hex, `0` octal, a sign: `-1` is 2^64 - 1), and at
//!   least 1: `arena_max=0` is out of range, so it is not set. The
//!   variables `MALLOC_ARENA_MAX` and `MALLOC_ARENA_TEST` set them where
//!   `GLIBC_TUNABLES` does not.
//! - Versions differ on text they cannot read. Older ones (Debian 12's
//!   2.36, measured) take the number a value starts with (`8x` is 8) and
//!   keep the settings before a malformed one; newer ones (the parser of
//!   2025) ignore a value with anything after its number, and the whole
//!   of `GLIBC_TUNABLES` where one setting is malformed (no `=`, or two),
//!   or where it sets `glibc.rtld.enable_secure=1`. Both readings are
//!   made, and the one with more arenas counts.

/// Arenas per core (`NARENAS_FROM_NCORES`), and `arena_test`'s default.
const PER_CORE: u64 = if cfg!(target_pointer_width = "32") {
    2
} else {
    8
};

/// How a version of glibc reads text it cannot take whole.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reading {
    /// Takes the number a value starts with, and the settings before a
    /// malformed one.
    Lenient,
    /// Takes only whole numbers, and nothing of a malformed string.
    Strict,
}

/// The two tunables that bound glibc's arenas, where set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ArenaTunables {
    max: Option<u64>,
    test: Option<u64>,
}

/// The environment variables glibc reads these from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Environment<'a> {
    pub tunables: Option<&'a str>,
    pub arena_max: Option<&'a str>,
    pub arena_test: Option<&'a str>,
}

/// How many arenas of their own worker threads may make at most: glibc's
/// limit less the main thread's arena, under whichever reading of
/// `environment` allows more; `cores` as [`cores`] counts them.
pub fn worker_arenas(environment: Environment, cores: usize) -> u64 {
    [Reading::Lenient, Reading::Strict]
        .into_iter()
        .map(|reading| {
            let tunables = read_tunables(environment, reading);
            let total = tunables.max.unwrap_or_else(|| {
                let test = tunables.test.unwrap_or(PER_CORE);
                test.saturating_add(1)
                    .max(PER_CORE.saturating_mul(cores as u64))
            });
            total.saturating_sub(1)
        })
        .max()
        .unwrap_or(0)
}

/// The cores glibc sizes its arenas by: the more of those online and
/// those this process may run on (versions differ), or 2 where neither is
/// known, as glibc assumes.
pub fn cores() -> usize {
    let affinity = std::thread::available_parallelism().map_or(0, usize::from);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: sysconf takes no pointer and has no precondition; glibc
    // answers _SC_NPROCESSORS_ONLN with the __get_nprocs that malloc uses.
    let online = usize::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }).unwrap_or(0);
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let online = 0;
    match affinity.max(online) {
        0 => 2,
        cores => cores,
    }
}

/// The tunables `environment` sets under `reading`: `GLIBC_TUNABLES`
/// first, then the variables for those it leaves unset.
fn read_tunables(environment: Environment, reading: Reading) -> ArenaTunables {
    let mut set = ArenaTunables::default();
    if let Some(text) = environment.tunables
        && !tunables_string(text, reading, &mut set)
    {
        // `glibc.rtld.enable_secure=1`: no tunable and no variable counts.
        return ArenaTunables::default();
    }
    let from_variable = |value: Option<&str>| value.and_then(|value| number(value, reading));
    ArenaTunables {
        max: set.max.or_else(|| from_variable(environment.arena_max)),
        test: set.test.or_else(|| from_variable(environment.arena_test)),
    }
}

/// Reads the settings of `GLIBC_TUNABLES` (`name=value:name=value`) into
/// `set`, a later setting of a name over an earlier one. `false` where
/// the string turns every tunable off (`glibc.rtld.enable_secure=1`).
fn tunables_string(text: &str, reading: Reading, set: &mut ArenaTunables) -> bool {
    // A string that ends in a colon ends on a name without a value.
    if reading == Reading::Strict && text.ends_with(':') {
        return true;
    }
    let mut settings: Vec<(&str, &str)> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let Some(end) = rest.find(['=', ':']) else {
            // A name and no value at the end: malformed.
            if reading == Reading::Strict {
                return true;
            }
            break;
        };
        if rest.as_bytes()[end] == b':' {
            rest = &rest[end + 1..];
            continue;
        }
        let name = &rest[..end];
        let after = &rest[end + 1..];
        let value_end = after.find(':').unwrap_or(after.len());
        let value = &after[..value_end];
        if value.contains('=') && reading == Reading::Strict {
            return true;
        }
        settings.push((name, value));
        rest = after.get(value_end + 1..).unwrap_or("");
    }
    let secure = |&(name, value): &(&str, &str)| {
        name == "glibc.rtld.enable_secure" && number(value, Reading::Strict) == Some(1)
    };
    if reading == Reading::Strict && settings.iter().any(secure) {
        return false;
    }
    for (name, value) in settings {
        // A value out of range or unreadable leaves the one before it.
        let Some(value) = number(value, reading) else {
            continue;
        };
        match name {
            "glibc.malloc.arena_max" => set.max = Some(value),
            "glibc.malloc.arena_test" => set.test = Some(value),
            _ => {}
        }
    }
    true
}

/// A value of `arena_max` or `arena_test` as glibc takes it: a number
/// `_dl_strtoul` reads (the whole value where `reading` is strict), at
/// least 1. `None` where glibc ignores it.
fn number(value: &str, reading: Reading) -> Option<u64> {
    let (number, whole) = dl_strtoul(value);
    (number >= 1 && (whole || reading == Reading::Lenient)).then_some(number)
}

/// glibc's `_dl_strtoul`: the number `text` starts with (after blanks, a
/// sign, then `0x` hex, `0` octal or decimal; a minus wraps, an overflow
/// is 2^64 - 1), and whether it took the whole of `text`.
fn dl_strtoul(text: &str) -> (u64, bool) {
    let bytes = text.as_bytes();
    let mut at = bytes
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(bytes.len());
    let negative = bytes.get(at) == Some(&b'-');
    if matches!(bytes.get(at), Some(b'-' | b'+')) {
        at += 1;
    }
    if !bytes.get(at).is_some_and(u8::is_ascii_digit) {
        return (0, at == bytes.len());
    }
    let mut base = 10;
    if bytes[at] == b'0' {
        if matches!(bytes.get(at + 1), Some(b'x' | b'X')) {
            base = 16;
            at += 2;
        } else {
            base = 8;
        }
    }
    let mut result: u64 = 0;
    while let Some(digit) = bytes.get(at).and_then(|&b| char::from(b).to_digit(base)) {
        let digit = u64::from(digit);
        if result >= (u64::MAX - digit) / u64::from(base) {
            return (u64::MAX, false);
        }
        result = result * u64::from(base) + digit;
        at += 1;
    }
    let result = if negative {
        result.wrapping_neg()
    } else {
        result
    };
    (result, at == bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worker arenas under `GLIBC_TUNABLES=tunables` on `cores` cores.
    fn arenas(tunables: &str, cores: usize) -> u64 {
        let environment = Environment {
            tunables: Some(tunables),
            ..Environment::default()
        };
        worker_arenas(environment, cores)
    }

    /// Measured on Debian 12's glibc 2.36 (40 threads that each allocate,
    /// arenas counted by `malloc_stats`, 2 cores online): unset, `0`, `x`
    /// and the empty value all gave 16 arenas; `1` one; `8` and `8x`
    /// eight; `0x10` 16; `010` eight; `-1` one per thread; `3:junk` and
    /// `3=4` three; `3`, then `5`, five; `5` then `x`, five.
    #[test]
    fn arena_max_is_read_as_glibc_reads_it() {
        let max = |value: &str| arenas(&format!("glibc.malloc.arena_max={value}"), 2);
        assert_eq!(worker_arenas(Environment::default(), 2), 15);
        for (value, workers) in [
            ("0", 15),
            ("x", 15),
            ("", 15),
            // Octal 0, then a digit octal has not: 0 for both readings.
            ("08", 15),
            ("1", 0),
            ("8", 7),
            ("0x10", 15),
            ("010", 7),
            (" +3", 2),
            ("18446744073709551615", u64::MAX - 1),
            ("-1", u64::MAX - 1),
        ] {
            assert_eq!(max(value), workers, "arena_max={value}");
        }
        // Where versions differ, the reading with more arenas counts.
        assert_eq!(max("8x"), 15, "2025's glibc ignores 8x");
        assert_eq!(max("32x"), 31, "2.36 reads 32x as 32");
        assert_eq!(arenas("glibc.malloc.arena_max=32:junk", 2), 31);
        assert_eq!(arenas("glibc.malloc.arena_max=2:junk", 2), 15);
        assert_eq!(arenas("glibc.malloc.arena_max=32=4", 2), 31);
        assert_eq!(arenas("junk:glibc.malloc.arena_max=3", 2), 2);
        assert_eq!(arenas("glibc.malloc.arena_max=3:", 2), 15);
        assert_eq!(arenas("glibc.malloc.arena_max=32:", 2), 31);
        assert_eq!(
            arenas("glibc.malloc.arena_max=3:glibc.malloc.arena_max=5", 2),
            4
        );
        assert_eq!(
            arenas("glibc.malloc.arena_max=5:glibc.malloc.arena_max=x", 2),
            4
        );
        assert_eq!(
            arenas("glibc.malloc.check=3:glibc.malloc.arena_max=5", 16),
            4
        );
        assert_eq!(
            arenas("glibc.rtld.enable_secure=1:glibc.malloc.arena_max=1", 2),
            15,
            "enable_secure turns the tunables off in 2025's glibc"
        );
    }

    /// Unset, arenas are made freely past `arena_test` (8), so one core
    /// has 9, the main thread's among them; and the variables count where
    /// `GLIBC_TUNABLES` sets nothing.
    #[test]
    fn arena_test_and_the_variables_count() {
        assert_eq!(worker_arenas(Environment::default(), 1), 8);
        assert_eq!(worker_arenas(Environment::default(), 16), 127);
        assert_eq!(arenas("glibc.malloc.arena_test=20", 1), 20);
        assert_eq!(arenas("glibc.malloc.arena_test=20", 4), 31);
        let with = |tunables, arena_max| Environment {
            tunables,
            arena_max: Some(arena_max),
            arena_test: None,
        };
        assert_eq!(worker_arenas(with(None, "2"), 16), 1);
        assert_eq!(worker_arenas(with(None, "0"), 2), 15);
        assert_eq!(
            worker_arenas(with(Some("glibc.malloc.arena_max=4"), "2"), 16),
            3
        );
        assert_eq!(
            worker_arenas(with(Some("glibc.malloc.arena_max=0"), "2"), 16),
            1
        );
        let test = Environment {
            arena_test: Some("30"),
            ..Environment::default()
        };
        assert_eq!(worker_arenas(test, 1), 30);
    }

    #[test]
    fn numbers_are_read_as_dl_strtoul_reads_them() {
        assert_eq!(dl_strtoul("12"), (12, true));
        assert_eq!(dl_strtoul("0x1f"), (31, true));
        assert_eq!(dl_strtoul("0X1F"), (31, true));
        assert_eq!(dl_strtoul("017"), (15, true));
        assert_eq!(dl_strtoul("019"), (1, false));
        assert_eq!(dl_strtoul("\t 7"), (7, true));
        assert_eq!(dl_strtoul("-2"), (u64::MAX - 1, true));
        assert_eq!(dl_strtoul("7 "), (7, false));
        assert_eq!(dl_strtoul("x"), (0, false));
        assert_eq!(dl_strtoul(""), (0, true));
        assert_eq!(dl_strtoul("99999999999999999999999"), (u64::MAX, false));
        assert!(cores() >= 1);
    }
}
