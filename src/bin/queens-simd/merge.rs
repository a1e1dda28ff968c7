//! `queens-simd merge FILES…`: adds up shard records after checking that
//! together they cover every subproblem of one plan exactly once.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

use queens_simd::Count;
use queens_simd::plan::Plan;

use crate::output::Failure;
use crate::records::{self, Coverage, PlanId, ShardRecord};

/// How many missing subproblems a refusal names.
const NAMED: usize = 5;

pub fn merge(files: &[PathBuf], out: &mut impl Write) -> Result<(), Failure> {
    let refuse = Failure::Refused;
    let mut records = Vec::new();
    for path in files {
        let record: ShardRecord = records::read(path, records::SHARD_FORMAT).map_err(refuse)?;
        records.push((path, record));
    }
    let (first_path, first) = &records[0];
    // The plan is rebuilt here, so that records from another version of the
    // split (another fingerprint) are refused, not added up.
    let plan =
        Plan::new(first.plan.n).map_err(|e| refuse(format!("{}: {e}", first_path.display())))?;
    let expected = PlanId::of(&plan);
    let mut owner: Vec<Option<usize>> = vec![None; plan.len()];
    let mut total: Count = 0;
    for (at, (path, record)) in records.iter().enumerate() {
        let shown = path.display();
        if record.plan != expected {
            return Err(refuse(format!(
                "{shown} is for {}, but this version splits it as {expected}",
                record.plan
            )));
        }
        let covered = Coverage::from_hex(&record.covered, plan.len())
            .map_err(|e| refuse(format!("{shown}: {e}")))?;
        if covered.len() != record.subproblems {
            return Err(refuse(format!(
                "{shown} says it covers {} subproblems but lists {}",
                record.subproblems,
                covered.len()
            )));
        }
        for (index, slot) in owner.iter_mut().enumerate() {
            if !covered.contains(index) {
                continue;
            }
            if let Some(other) = slot.replace(at) {
                let (other_path, other_record) = &records[other];
                return Err(refuse(format!(
                    "subproblem {index} is counted twice: by {} (shard {}) and by {shown} (shard {})",
                    other_path.display(),
                    other_record.shard,
                    record.shard
                )));
            }
        }
        total += records::parse_count(&record.count, path).map_err(refuse)?;
    }
    let missing: Vec<usize> = (0..plan.len()).filter(|&i| owner[i].is_none()).collect();
    if !missing.is_empty() {
        let named: Vec<String> = missing.iter().take(NAMED).map(usize::to_string).collect();
        return Err(refuse(format!(
            "{} of the {} subproblems of N = {} are in no file (first: {}){}",
            missing.len(),
            plan.len(),
            plan.n(),
            named.join(", "),
            missing_shards(
                &records
                    .iter()
                    .map(|(_, r)| r.shard.as_str())
                    .collect::<Vec<_>>()
            )
        )));
    }
    writeln!(out, "{total}")?;
    Ok(())
}

/// `"; shard 2/4 is missing"` when every record is `i/m` of the same `m`.
fn missing_shards(shards: &[&str]) -> String {
    let parsed: Option<Vec<(usize, usize)>> = shards
        .iter()
        .map(|s| {
            let (i, m) = s.split_once('/')?;
            Some((i.parse().ok()?, m.parse().ok()?))
        })
        .collect();
    let Some(parsed) = parsed else {
        return String::new();
    };
    let m = parsed[0].1;
    if parsed.iter().any(|&(_, other)| other != m) {
        return String::new();
    }
    let present: BTreeSet<usize> = parsed.iter().map(|&(i, _)| i).collect();
    let absent: Vec<String> = (0..m)
        .filter(|i| !present.contains(i))
        .map(|i| format!("{i}/{m}"))
        .collect();
    match absent.len() {
        0 => String::new(),
        1 => format!("; shard {} is missing", absent[0]),
        _ => format!("; shards {} are missing", absent.join(", ")),
    }
}
