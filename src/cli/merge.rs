//! `queens-simd merge FILES… [--recount K]`: adds up shard records after
//! checking each one's arithmetic and that together they cover every
//! subproblem of one plan exactly once; optionally recounts a random sample
//! of subproblems here to catch a machine that counted wrong.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use crate::Count;
use crate::plan::{Method, Options, Plan};

use super::Failure;
use super::args::{Merge, Recount};
use super::files::{self, path_text};
use super::memory;
use super::records::{Plans, ShardRecord};
use super::status::Messages;

/// How many missing subproblems, or shards, a refusal names.
const NAMED: usize = 5;

pub fn merge(request: &Merge, out: &mut impl Write, messages: &Messages) -> Result<(), Failure> {
    let refuse = Failure::Refused;
    let mut records: Vec<(&Path, ShardRecord)> = Vec::new();
    let mut plans = Plans::default();
    for path in &request.files {
        let shown = path_text(path);
        let bytes = files::read_record(path).map_err(refuse)?;
        let record = ShardRecord::parse(&bytes, &mut plans)
            .map_err(|why| refuse(format!("{shown} {why}")))?;
        if let Some((first_path, first)) = records.first()
            && record.plan != first.plan
        {
            let methods = if record.plan.method == first.plan.method {
                String::new()
            } else {
                format!(
                    ": a {} plan's records and a {} plan's do not merge",
                    record.plan.method, first.plan.method
                )
            };
            return Err(refuse(format!(
                "{shown} is for {}, but {} is for {}{methods}",
                record.plan,
                path_text(first_path),
                first.plan
            )));
        }
        records.push((path, record));
    }
    let id = &records.first().expect("merge has at least one file").1.plan;
    let plan = plans.get(id.n, id.method).map_err(refuse)?;

    // Which file counts each subproblem.
    let mut owner: Vec<Option<usize>> = vec![None; plan.len()];
    let mut total: Count = 0;
    for (at, (path, record)) in records.iter().enumerate() {
        for (index, _) in record.tally.iter() {
            if let Some(other) = owner[index].replace(at) {
                let (other_path, other_record) = &records[other];
                return Err(refuse(format!(
                    "subproblem {index} is counted twice: by {} (shard {}) and by {} (shard {})",
                    path_text(other_path),
                    other_record.shard,
                    path_text(path),
                    record.shard
                )));
            }
        }
        total = total.checked_add(record.count).ok_or_else(|| {
            refuse(format!(
                "the counts add up to more than 128 bits at {}",
                path_text(path)
            ))
        })?;
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
            missing_shards(plan, &records, &missing)
        )));
    }
    if let Some(recount) = &request.recount {
        spot_check(plan, recount, &records, &owner, messages)?;
    }
    writeln!(out, "{total}")?;
    Ok(())
}

/// `"; shard 2/4 is missing"` when every record is a shard of the same
/// `m`: the shards of the missing subproblems, at most [`NAMED`] of them
/// (never a list of every shard: `m` can be huge).
fn missing_shards(plan: &Plan, records: &[(&Path, ShardRecord)], missing: &[usize]) -> String {
    let m = records[0].1.shard.count();
    if records.iter().any(|(_, r)| r.shard.count() != m) {
        return String::new();
    }
    let owners = plan.owners(m);
    let shards: BTreeSet<usize> = missing.iter().map(|&i| owners[i]).collect();
    let mut named: Vec<String> = shards
        .iter()
        .take(NAMED)
        .map(|i| format!("{i}/{m}"))
        .collect();
    if shards.len() > NAMED {
        named.push(format!("and {} more", shards.len() - NAMED));
    }
    match shards.len() {
        1 => format!("; shard {} is missing", named[0]),
        _ => format!("; shards {} are missing", named.join(", ")),
    }
}

/// Recounts `recount.subproblems` subproblems chosen at random (all of them
/// if there are no more) and compares each with the record that counts it.
/// The seed is printed on stderr, so that the same check can be repeated.
fn spot_check(
    plan: &Plan,
    recount: &Recount,
    records: &[(&Path, ShardRecord)],
    owner: &[Option<usize>],
    messages: &Messages,
) -> Result<(), Failure> {
    let mut options = Options::default();
    if let Some(threads) = recount.threads {
        options.threads = threads;
    }
    // The records' plan decides the kernel (`auto` of its method), and a
    // join kernel's memory is checked before anything is recounted.
    let kernel = plan.counting_kernel(&options)?;
    match plan.method() {
        Method::Join => {
            let needed = |threads| plan.memory_estimate(threads);
            memory::check(
                plan.n(),
                kernel,
                options.threads,
                &needed,
                recount.max_memory,
            )
            .map_err(Failure::Refused)?;
        }
        _ if recount.max_memory.is_some() => {
            return Err(Failure::Refused(format!(
                "--max-memory limits recounts with a join kernel, but these records are of a {} plan, recounted with {kernel}, which takes little memory",
                plan.method()
            )));
        }
        _ => {}
    }
    let seed = recount.seed.unwrap_or_else(crate::random::fresh_seed);
    let chosen = choose(plan.len(), recount.subproblems, seed);
    messages.say(format_args!(
        "recounting {} of the {} subproblems, chosen with --seed {seed}",
        chosen.len(),
        plan.len()
    ));
    let mut wrong: Option<(usize, Count)> = None;
    plan.count(&chosen, &options, |index, count| {
        let (_, record) = &records[owner[index].expect("every subproblem has an owner")];
        if record.tally.get(index) != Some(count) && wrong.is_none() {
            wrong = Some((index, count));
        }
    })?;
    if let Some((index, count)) = wrong {
        let (path, record) = &records[owner[index].expect("checked above")];
        return Err(Failure::Refused(format!(
            "{} says subproblem {index} has {} solutions, but it has {count} (recounted here with --seed {seed})",
            path_text(path),
            record.tally.get(index).unwrap_or_default()
        )));
    }
    messages.say(format_args!(
        "the {} recounted subproblems agree with the records",
        chosen.len()
    ));
    Ok(())
}

/// `k` distinct numbers from `0..len` (all of them if `k >= len`), chosen
/// by a partial Fisher-Yates shuffle driven by SplitMix64 from `seed`:
/// the same on every machine for the same seed.
pub fn choose(len: usize, k: usize, seed: u64) -> Vec<usize> {
    let all: Vec<usize> = (0..len).collect();
    crate::random::SplitMix64::new(seed).choose(&all, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_distinct_repeatable_and_spread() {
        let a = choose(1000, 50, 7);
        assert_eq!(a, choose(1000, 50, 7));
        assert_ne!(a, choose(1000, 50, 8));
        let distinct: BTreeSet<usize> = a.iter().copied().collect();
        assert_eq!(distinct.len(), 50);
        assert!(a.iter().all(|&i| i < 1000));
        assert_eq!(choose(5, 9, 1).len(), 5);
        assert!(choose(0, 3, 1).is_empty());
        // Every number gets chosen sometimes.
        let mut seen = [false; 20];
        for seed in 0..200 {
            for i in choose(20, 2, seed) {
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
