//! The files the CLI writes for long counts: shard records (`--shard`, read
//! back by `merge`) and checkpoints (`--checkpoint`). Both are one JSON
//! object; counts are decimal strings, since JSON readers that hold numbers
//! as doubles (jq, JavaScript) would round counts above 2^53.

use std::fs;
use std::io::Write;
use std::path::Path;

use queens_simd::Count;
use queens_simd::plan::{Plan, Shard};
use serde::{Deserialize, Serialize};

/// The set of a plan's subproblems a file accounts for, one bit each, and
/// how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    bits: Vec<bool>,
    len: usize,
}

impl Coverage {
    /// No subproblem of a plan of `len`.
    pub fn empty(len: usize) -> Coverage {
        Coverage {
            bits: vec![false; len],
            len: 0,
        }
    }

    /// Exactly `indices`, in a plan of `len`.
    pub fn of(len: usize, indices: &[usize]) -> Coverage {
        let mut coverage = Coverage::empty(len);
        for &i in indices {
            coverage.insert(i);
        }
        coverage
    }

    pub fn insert(&mut self, index: usize) {
        if !std::mem::replace(&mut self.bits[index], true) {
            self.len += 1;
        }
    }

    pub fn contains(&self, index: usize) -> bool {
        self.bits[index]
    }

    /// How many subproblems it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Lowercase hexadecimal, two digits per byte of 8 subproblems, bit
    /// `i % 8` of byte `i / 8` for subproblem `i`.
    pub fn to_hex(&self) -> String {
        self.bits
            .chunks(8)
            .map(|bits| {
                let byte = bits
                    .iter()
                    .enumerate()
                    .fold(0u8, |byte, (i, &b)| byte | u8::from(b) << i);
                format!("{byte:02x}")
            })
            .collect()
    }

    /// The inverse of [`Coverage::to_hex`] for a plan of `len`; fails on
    /// another length, a non-hex digit or a bit past the plan.
    pub fn from_hex(hex: &str, len: usize) -> Result<Coverage, String> {
        if hex.len() != len.div_ceil(8) * 2 {
            return Err(format!(
                "a coverage of {} hex digits does not fit a plan of {len} subproblems",
                hex.len()
            ));
        }
        let mut coverage = Coverage::empty(len);
        for (byte_at, pair) in hex.as_bytes().chunks(2).enumerate() {
            let text = std::str::from_utf8(pair).map_err(|_| "coverage is not hex")?;
            let byte = u8::from_str_radix(text, 16).map_err(|_| "coverage is not hex")?;
            for bit in 0..8 {
                if byte & 1 << bit != 0 {
                    let index = byte_at * 8 + bit;
                    if index >= len {
                        return Err(format!("coverage names subproblem {index}, past the plan"));
                    }
                    coverage.insert(index);
                }
            }
        }
        Ok(coverage)
    }
}

/// The plan a record belongs to; two records can be combined only if these
/// agree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanId {
    pub n: usize,
    /// [`Plan::fingerprint`] in hexadecimal.
    pub plan: String,
    pub subproblems_in_plan: usize,
}

impl std::fmt::Display for PlanId {
    /// `N = 16 (plan 87c4d249fb58cb12, 2430 subproblems)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "N = {} (plan {}, {} subproblems)",
            self.n, self.plan, self.subproblems_in_plan
        )
    }
}

impl PlanId {
    pub fn of(plan: &Plan) -> PlanId {
        PlanId {
            n: plan.n(),
            plan: format!("{:016x}", plan.fingerprint()),
            subproblems_in_plan: plan.len(),
        }
    }
}

pub const SHARD_FORMAT: &str = "queens-simd shard";
pub const CHECKPOINT_FORMAT: &str = "queens-simd checkpoint";
pub const VERSION: u32 = 1;

/// What `--shard` prints: one shard's count and the subproblems it covers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardRecord {
    pub format: String,
    pub version: u32,
    #[serde(flatten)]
    pub plan: PlanId,
    /// `i/m`.
    pub shard: String,
    /// How many subproblems `covered` holds.
    pub subproblems: usize,
    /// [`Coverage::to_hex`].
    pub covered: String,
    pub count: String,
    pub kernel: String,
    pub threads: usize,
    /// Wall-clock seconds of counting (across resumed runs, with a
    /// checkpoint).
    pub seconds: f64,
}

/// What `--checkpoint` keeps: the subproblems finished so far and their
/// total.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    pub format: String,
    pub version: u32,
    #[serde(flatten)]
    pub plan: PlanId,
    pub shard: String,
    /// How many subproblems `done` holds.
    pub subproblems_done: usize,
    /// [`Coverage::to_hex`] of the finished subproblems.
    pub done: String,
    /// Their solutions.
    pub count: String,
    /// Wall-clock seconds of counting so far.
    pub seconds: f64,
}

impl Checkpoint {
    pub fn new(plan: &Plan, shard: Shard, done: &Coverage, count: Count, seconds: f64) -> Self {
        Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            version: VERSION,
            plan: PlanId::of(plan),
            shard: shard.to_string(),
            subproblems_done: done.len(),
            done: done.to_hex(),
            count: count.to_string(),
            seconds,
        }
    }
}

/// Reads a JSON record of `format`, with a one-line reason on failure.
pub fn read<T: for<'de> Deserialize<'de>>(path: &Path, format: &str) -> Result<T, String> {
    let shown = path.display();
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let header: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{shown} is not a JSON record: {e}"))?;
    let found = header.get("format").and_then(|f| f.as_str());
    if found != Some(format) {
        return Err(format!("{shown} is not a {format} record"));
    }
    if header.get("version").and_then(|v| v.as_u64()) != Some(u64::from(VERSION)) {
        return Err(format!("{shown} is a {format} record of another version"));
    }
    serde_json::from_value(header).map_err(|e| format!("{shown}: malformed {format} record: {e}"))
}

/// Parses a count field.
pub fn parse_count(text: &str, path: &Path) -> Result<Count, String> {
    text.parse()
        .map_err(|_| format!("{}: count '{text}' is not a whole number", path.display()))
}

/// Replaces `path` with `record`: written to a temporary file beside it,
/// flushed to disk, then renamed over it, so that a crash or Ctrl-C at any
/// moment leaves either the old file or the new one, never a mix.
pub fn write_atomically<T: Serialize>(path: &Path, record: &T) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = Path::new(&temporary);
    let mut file = fs::File::create(temporary)?;
    serde_json::to_writer_pretty(&mut file, record)?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    drop(file);
    fs::rename(temporary, path)?;
    // Make the rename itself durable where the platform allows it.
    if let Some(Ok(dir)) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(fs::File::open)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_round_trips_through_hex() {
        for len in [1, 7, 8, 9, 646, 4018] {
            let indices: Vec<usize> = (0..len).filter(|i| i % 3 == 1 || *i == len - 1).collect();
            let coverage = Coverage::of(len, &indices);
            let hex = coverage.to_hex();
            assert_eq!(Coverage::from_hex(&hex, len), Ok(coverage.clone()));
            assert_eq!(coverage.len(), indices.len());
            assert!(Coverage::from_hex(&hex, len + 8).is_err());
        }
        // A bit past the plan.
        assert!(Coverage::from_hex("ff", 7).is_err());
        assert!(Coverage::from_hex("zz", 8).is_err());
    }
}
