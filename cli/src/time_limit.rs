//! A Slurm time limit (`--time`), read in the forms sbatch takes and
//! written back in one of them.

use std::fmt;

/// A task's time limit, in whole seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeLimit(pub u64);

/// The shortest limit a campaign's task may have: the warning signal
/// comes a minute before it, and Slurm may send it up to a minute early.
pub const SHORTEST: TimeLimit = TimeLimit(120);

/// The longest: a year, past any partition's MaxTime.
const LONGEST: u64 = 365 * 86_400;

impl TimeLimit {
    /// Reads `MINUTES`, `MINUTES:SECONDS`, `HOURS:MINUTES:SECONDS`,
    /// `DAYS-HOURS`, `DAYS-HOURS:MINUTES` or `DAYS-HOURS:MINUTES:SECONDS`,
    /// as sbatch does; one line saying why not otherwise.
    pub fn parse(text: &str) -> Result<TimeLimit, String> {
        // Quoted with escapes: a newline in it would split the line.
        let malformed =
            || format!("--time {text:?} is not a Slurm time limit: MINUTES, H:MM:SS or D-HH:MM:SS");
        let (days, clock) = match text.split_once('-') {
            Some((days, clock)) => (Some(number(days).ok_or_else(malformed)?), clock),
            None => (None, text),
        };
        let parts: Vec<u64> = clock
            .split(':')
            .map(number)
            .collect::<Option<_>>()
            .ok_or_else(malformed)?;
        let seconds = match (days, parts.as_slice()) {
            (None, [m]) => m.checked_mul(60),
            (None, [m, s]) => m.checked_mul(60).and_then(|m| m.checked_add(*s)),
            (Some(d), [h]) => hms(d, *h, 0, 0),
            (Some(d), [h, m]) => hms(d, *h, *m, 0),
            (None, [h, m, s]) => hms(0, *h, *m, *s),
            (Some(d), [h, m, s]) => hms(d, *h, *m, *s),
            _ => None,
        }
        .ok_or_else(malformed)?;
        if !(SHORTEST.0..=LONGEST).contains(&seconds) {
            // The limit as it is read, where that is not what was typed
            // (`--time 1` is a minute: 00:01:00).
            let read = TimeLimit(seconds).to_string();
            let shown = if read == text {
                String::new()
            } else {
                format!(" ({read})")
            };
            let how = if seconds < SHORTEST.0 {
                "too short"
            } else {
                "too long"
            };
            return Err(format!(
                "--time {text}{shown} is {how}: a campaign's tasks take from {SHORTEST} to 365 days, since each checkpoints a minute before its limit"
            ));
        }
        Ok(TimeLimit(seconds))
    }

    /// How long before the limit the task is warned (`--signal`): a tenth
    /// of the limit, at least a minute (Slurm sends it up to a minute
    /// early or late) and at most ten (a checkpoint is at most half a
    /// second old; the rest is Slurm's slack).
    pub fn warning(self) -> u64 {
        (self.0 / 10).clamp(60, 600)
    }
}

/// A whole number of digits only.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn hms(days: u64, hours: u64, minutes: u64, seconds: u64) -> Option<u64> {
    days.checked_mul(24)?
        .checked_add(hours)?
        .checked_mul(60)?
        .checked_add(minutes)?
        .checked_mul(60)?
        .checked_add(seconds)
}

impl fmt::Display for TimeLimit {
    /// `HH:MM:SS`, or `D-HH:MM:SS` from a day.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (days, rest) = (self.0 / 86_400, self.0 % 86_400);
        let (h, m, s) = (rest / 3600, rest / 60 % 60, rest % 60);
        if days > 0 {
            write!(f, "{days}-{h:02}:{m:02}:{s:02}")
        } else {
            write!(f, "{h:02}:{m:02}:{s:02}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_sbatch_takes_is_read() {
        let read = |text| TimeLimit::parse(text).map(|t| t.0);
        assert_eq!(read("2"), Ok(120));
        assert_eq!(read("90:30"), Ok(5430));
        assert_eq!(read("4:00:00"), Ok(14_400));
        assert_eq!(read("1-2"), Ok(93_600));
        assert_eq!(read("1-02:30"), Ok(95_400));
        assert_eq!(read("2-00:00:05"), Ok(172_805));
        for bad in [
            "",
            "1:2:3:4",
            "a",
            "-5",
            "1-",
            "1-2-3",
            "1.5",
            " 5",
            "1:-2",
            "99999999999999999999",
        ] {
            assert!(
                read(bad).unwrap_err().contains("is not a Slurm time limit"),
                "{bad}"
            );
        }
        assert!(read("1").unwrap_err().contains("from 00:02:00 to 365 days"));
        assert!(read("366-0").is_err());
    }

    /// A limit out of range is said once as typed, and as it is read
    /// only where that differs: "--time 00:00:30 is 00:00:30" was said.
    #[test]
    fn a_limit_out_of_range_is_said_as_typed() {
        let why = |text| TimeLimit::parse(text).unwrap_err();
        let range = ": a campaign's tasks take from 00:02:00 to 365 days, since each checkpoints a minute before its limit";
        assert_eq!(
            why("00:00:30"),
            format!("--time 00:00:30 is too short{range}")
        );
        assert_eq!(why("1"), format!("--time 1 (00:01:00) is too short{range}"));
        assert_eq!(
            why("0:59"),
            format!("--time 0:59 (00:00:59) is too short{range}")
        );
        assert_eq!(
            why("366-0"),
            format!("--time 366-0 (366-00:00:00) is too long{range}")
        );
        assert_eq!(
            why("366-00:00:00"),
            format!("--time 366-00:00:00 is too long{range}")
        );
    }

    #[test]
    fn limits_are_written_back_as_sbatch_reads_them() {
        for text in ["00:02:00", "12:00:00", "1-00:00:00", "6-23:59:59"] {
            assert_eq!(TimeLimit::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn the_warning_is_a_tenth_from_one_minute_to_ten() {
        assert_eq!(TimeLimit(120).warning(), 60);
        assert_eq!(TimeLimit(3600).warning(), 360);
        assert_eq!(TimeLimit(86_400).warning(), 600);
    }
}
