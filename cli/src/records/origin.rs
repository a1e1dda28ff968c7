//! Who counts, and when: what a checkpoint and a record say of the runs
//! that wrote them, so that `status` can tell a count that is running from
//! one that died, and say where it ran.

use std::time::{SystemTime, UNIX_EPOCH};

use super::MAX_NAME_BYTES;

/// Where a count runs: its host, and Slurm's job and array task where the
/// environment names them. Each is a short text (at most
/// [`MAX_NAME_BYTES`], no control character: a record's other names'
/// bound, checked when it is read) or unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// The host's name.
    pub host: Option<String>,
    /// Slurm's job: the array's job id for an array task
    /// (`SLURM_ARRAY_JOB_ID`), else `SLURM_JOB_ID`.
    pub job: Option<String>,
    /// Slurm's array task id (`SLURM_ARRAY_TASK_ID`).
    pub task: Option<String>,
}

impl Origin {
    /// Where this process runs. A variable that is no short text (a huge
    /// or multi-line value) is left out: a count never writes a record its
    /// own reader would refuse.
    pub fn of_this_process() -> Origin {
        let variable = |name| std::env::var(name).ok().filter(|v| is_short_text(v));
        Origin {
            host: host_name(),
            job: variable("SLURM_ARRAY_JOB_ID").or_else(|| variable("SLURM_JOB_ID")),
            task: variable("SLURM_ARRAY_TASK_ID"),
        }
    }
}

impl std::fmt::Display for Origin {
    /// `node17, Slurm job 1234_5`, `node17`, `an unknown host`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.host.as_deref().unwrap_or("an unknown host"))?;
        match (&self.job, &self.task) {
            (Some(job), Some(task)) => write!(f, ", Slurm job {job}_{task}"),
            (Some(job), None) => write!(f, ", Slurm job {job}"),
            (None, Some(task)) => write!(f, ", Slurm array task {task}"),
            (None, None) => Ok(()),
        }
    }
}

/// Whether `text` may be one of a record's names: not empty, at most
/// [`MAX_NAME_BYTES`], no control character.
fn is_short_text(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_NAME_BYTES && !text.chars().any(char::is_control)
}

/// This machine's name, its first [`MAX_NAME_BYTES`] bytes (Linux's names
/// have 64 at most, others up to 255), if it has one that is text.
#[cfg(unix)]
fn host_name() -> Option<String> {
    let mut buffer = [0u8; 256];
    // SAFETY: gethostname writes at most `buffer.len()` bytes to `buffer`,
    // which is valid for writes of that many.
    let failed = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) } != 0;
    if failed {
        return None;
    }
    // A name as long as the buffer may come without its final NUL.
    let length = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    let name = String::from_utf8_lossy(&buffer[..length]);
    let mut end = name.len().min(MAX_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    Some(name[..end].to_owned()).filter(|n| is_short_text(n))
}

#[cfg(not(unix))]
fn host_name() -> Option<String> {
    std::env::var("COMPUTERNAME")
        .ok()
        .filter(|n| is_short_text(n))
}

/// Now, in whole seconds since 1970 (0 for a clock set before then): a
/// checkpoint's heartbeat.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_reads_at_a_glance() {
        let mut origin = Origin {
            host: Some("node17".into()),
            job: Some("1234".into()),
            task: Some("5".into()),
        };
        assert_eq!(origin.to_string(), "node17, Slurm job 1234_5");
        origin.task = None;
        assert_eq!(origin.to_string(), "node17, Slurm job 1234");
        assert_eq!(Origin::default().to_string(), "an unknown host");
        assert!(!is_short_text("a\nb") && !is_short_text("") && is_short_text("n1"));
        assert!(!is_short_text(&"x".repeat(MAX_NAME_BYTES + 1)));
    }

    #[test]
    fn this_host_has_a_short_name() {
        let here = Origin::of_this_process();
        assert!(here.host.as_deref().is_none_or(is_short_text), "{here:?}");
        assert!(unix_now() > 1_600_000_000);
    }
}
