//! `queens-simd merge FILES… [--recount K]`: adds up shard records after
//! checking each one's arithmetic and that together they cover every
//! subproblem of one plan exactly once; optionally recounts a random sample
//! of subproblems here to catch a machine that counted wrong.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use crate::Count;
use crate::dispatch::Options;
use crate::plan::Plan;

use super::Failure;
use super::args::{Merge, Recount};
use super::files::{self, path_text};
use super::memory;
use super::records::{Plans, ShardRecord, Tally};
use super::status::Messages;

/// How many missing subproblems, or shards, a refusal names.
const NAMED: usize = 5;

pub fn merge(request: &Merge, out: &mut impl Write, messages: &Messages) -> Result<(), Failure> {
    let refuse = Failure::Refused;
    if request.files.len() >= Owners::NONE as usize {
        return Err(refuse(format!(
            "merge reads at most {} files",
            Owners::NONE - 1
        )));
    }
    let mut plans = Plans::default();
    let mut sum: Option<Sum<'_>> = None;
    for path in &request.files {
        let shown = path_text(path);
        let bytes = files::read_record(path).map_err(refuse)?;
        let record = ShardRecord::parse(&bytes, &mut plans)
            .map_err(|why| refuse(format!("{shown} {why}")))?;
        match &mut sum {
            None => sum = Some(Sum::new(path, record)),
            Some(sum) => sum.add(path, record).map_err(refuse)?,
        }
    }
    let Sum {
        records,
        owners,
        total,
        wrong,
    } = sum.expect("merge has at least one file");
    if let Some(why) = wrong {
        return Err(refuse(why));
    }
    let id = &records[0].1.plan;
    let plan = plans.get(id.n, id.method).map_err(refuse)?;
    let missing: Vec<usize> = (0..plan.len())
        .filter(|&i| owners.get(i).is_none())
        .collect();
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
        spot_check(plan, recount, &records, &owners, messages)?;
    }
    writeln!(out, "{total}")?;
    Ok(())
}

/// Which record counts each subproblem of the plan, by the record's
/// position among the files. The one table merge holds for every
/// subproblem of the plan, so 4 bytes each (an `Option<usize>` takes 16).
struct Owners(Vec<u32>);

impl Owners {
    /// No record counts it (and no record has this position: `merge`
    /// refuses so many files).
    const NONE: u32 = u32::MAX;

    /// A plan of `plan_len` subproblems, none counted yet.
    fn new(plan_len: usize) -> Owners {
        Owners(vec![Owners::NONE; plan_len])
    }

    /// The record at `at` counts subproblem `index` (below the plan's
    /// length, as every index of a record's tally is): the record that
    /// already did, if one did.
    fn claim(&mut self, index: usize, at: usize) -> Option<usize> {
        let before = std::mem::replace(&mut self.0[index], at as u32);
        (before != Owners::NONE).then_some(before as usize)
    }

    /// The record that counts subproblem `index`, if one does.
    fn get(&self, index: usize) -> Option<usize> {
        self.0
            .get(index)
            .copied()
            .filter(|&at| at != Owners::NONE)
            .map(|at| at as usize)
    }
}

/// The records read so far, which one counts each subproblem, and their
/// total: each record is added as it is read, so that what merge holds is
/// bounded by the plan, not by the files. Records that overlap are
/// refused, so the tallies kept count each subproblem at most once; once
/// the merge is bound to fail, the records read after keep no tally.
struct Sum<'a> {
    records: Vec<(&'a Path, ShardRecord)>,
    owners: Owners,
    total: Count,
    /// The first subproblem counted twice, or overflow: reported once
    /// every file has been read, so that a file wrong in itself is named
    /// first, whatever its place among the files.
    wrong: Option<String>,
}

impl<'a> Sum<'a> {
    /// The first record read.
    fn new(path: &'a Path, record: ShardRecord) -> Sum<'a> {
        let mut sum = Sum {
            records: Vec::new(),
            owners: Owners::new(record.plan.subproblems),
            total: 0,
            wrong: None,
        };
        sum.keep(path, record);
        sum
    }

    /// Another record; why not if it is of another plan than the first.
    fn add(&mut self, path: &'a Path, record: ShardRecord) -> Result<(), String> {
        let (first_path, first) = &self.records[0];
        if record.plan != first.plan {
            let methods = if record.plan.method == first.plan.method {
                String::new()
            } else {
                format!(
                    ": a {} plan's records and a {} plan's do not merge",
                    record.plan.method, first.plan.method
                )
            };
            return Err(format!(
                "{} is for {}, but {} is for {}{methods}",
                path_text(path),
                record.plan,
                path_text(first_path),
                first.plan
            ));
        }
        self.keep(path, record);
        Ok(())
    }

    /// Claims `record`'s subproblems and adds its count, while nothing is
    /// wrong yet; keeps its tally only if the merge can still succeed.
    fn keep(&mut self, path: &'a Path, mut record: ShardRecord) {
        if self.wrong.is_none() {
            self.wrong = self.claim(path, &record).err();
        }
        if self.wrong.is_some() {
            record.tally = Tally::empty(record.plan.subproblems);
        }
        self.records.push((path, record));
    }

    /// Makes `record` (about to be pushed) the owner of its subproblems
    /// and adds its count: why not, if another record counts one of them
    /// or the total overflows.
    fn claim(&mut self, path: &Path, record: &ShardRecord) -> Result<(), String> {
        let at = self.records.len();
        for (index, _) in record.tally.iter() {
            if let Some(other) = self.owners.claim(index, at) {
                let (other_path, other_record) = &self.records[other];
                return Err(format!(
                    "subproblem {index} is counted twice: by {} (shard {}) and by {} (shard {})",
                    path_text(other_path),
                    other_record.shard,
                    path_text(path),
                    record.shard
                ));
            }
        }
        self.total = self.total.checked_add(record.count).ok_or_else(|| {
            format!(
                "the counts add up to more than 128 bits at {}",
                path_text(path)
            )
        })?;
        Ok(())
    }
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
    owners: &Owners,
    messages: &Messages,
) -> Result<(), Failure> {
    let mut options = Options::default();
    if let Some(threads) = recount.threads {
        options.threads = threads;
    }
    // The records' plan decides the kernel (`auto` of its method), and a
    // join kernel's memory is checked before anything is recounted.
    let kernel = options.counting_kernel(plan.method())?;
    // The plan is built already (the records were checked against it):
    // what is left to check is its count's.
    let needed = |threads| plan.memory_estimate(threads);
    let limits = memory::Limits::of_this_process(recount.max_memory);
    // A recount is no shard: its advice is threads and memory only.
    memory::check(plan.n(), kernel, options.threads, false, &needed, &limits)
        .map_err(Failure::Refused)?;
    let seed = recount
        .seed
        .unwrap_or_else(crate::support::random::fresh_seed);
    let chosen = choose(plan.len(), recount.subproblems, seed);
    messages.say(format_args!(
        "recounting {} of the {} subproblems, chosen with --seed {seed}",
        chosen.len(),
        plan.len()
    ));
    let mut wrong: Option<(usize, Count)> = None;
    let counted = options.count_reporting(plan, &chosen, |index, count| {
        let (_, record) = &records[owners.get(index).expect("every subproblem has an owner")];
        if record.tally.get(index) != Some(count) && wrong.is_none() {
            wrong = Some((index, count));
        }
    })?;
    super::warn_of_refused_threads(messages, &counted, options.threads);
    if let Some((index, count)) = wrong {
        let (path, record) = &records[owners.get(index).expect("checked above")];
        return Err(Failure::Refused(format!(
            "{} says subproblem {index} has {} solutions, but it has {count} (recounted here with --seed {seed})",
            path_text(path),
            record.tally.get(index).unwrap_or_default()
        )));
    }
    messages.say(if chosen.len() == 1 {
        "the 1 recounted subproblem agrees with the records".to_owned()
    } else {
        format!(
            "the {} recounted subproblems agree with the records",
            chosen.len()
        )
    });
    Ok(())
}

/// `k` distinct numbers from `0..len` (all of them if `k >= len`), chosen
/// by a partial Fisher-Yates shuffle driven by SplitMix64 from `seed`:
/// the same on every machine for the same seed.
pub fn choose(len: usize, k: usize, seed: u64) -> Vec<usize> {
    let all: Vec<usize> = (0..len).collect();
    crate::support::random::SplitMix64::new(seed).choose(&all, k)
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
