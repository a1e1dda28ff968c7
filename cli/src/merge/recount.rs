//! `merge --recount K [--recount-by plan|search]`: K subproblems chosen at
//! random, recounted here and compared with the records that count them,
//! to catch a machine (or a kernel) that counted wrong.

use std::path::Path;

use queens_simd::Count;
use queens_simd::dispatch::Options;
use queens_simd::kernel::Method;
use queens_simd::plan::{Plan, choose_indices as choose};

use super::super::Failure;
use super::super::args::{Recount, RecountBy};
use super::super::files::path_text;
use super::super::memory;
use super::super::plural::counted;
use super::super::records::ShardRecord;
use super::super::status::Messages;
use super::sum::{Disagreement, Owners, RecountFound, Said};

/// What a recount did, and the first subproblem whose records it proved
/// wrong, if it did.
#[derive(Debug)]
pub(super) struct Recounted {
    /// How many subproblems were recounted.
    pub(super) subproblems: usize,
    /// The seed they were chosen with.
    pub(super) seed: u64,
    /// How.
    pub(super) by: RecountBy,
    pub(super) wrong: Option<Disagreement>,
}

/// Recounts `recount.subproblems` subproblems chosen at random (all of them
/// if there are no more) and compares each with the record that counts it.
/// The seed is printed on stderr, so that the same check can be repeated.
/// A recount that proves a record wrong is a [`Recounted::wrong`], not an
/// error here: `merge` still prints what it found.
pub(super) fn spot_check(
    plan: &Plan,
    recount: &Recount,
    records: &[(&Path, ShardRecord)],
    owners: &Owners,
    messages: &Messages,
) -> Result<Recounted, Failure> {
    let threads = recount
        .threads
        .unwrap_or_else(|| Options::default().threads());
    if recount.by == RecountBy::Search && plan.method() != Method::Join {
        return Err(Failure::Refused(format!(
            "--recount-by search recounts the pieces of a join plan, but these records are of N = {}'s {} plan (--recount-by plan recounts them)",
            plan.n(),
            plan.method()
        )));
    }
    let options = match recount.by {
        RecountBy::Plan => checked_options(plan, recount, threads)?,
        RecountBy::Search => Options::new().with_threads(threads),
    };
    let seed = recount.seed.unwrap_or_else(crate::seed::fresh);
    let chosen = choose(plan.len(), recount.subproblems, seed);
    let how = match recount.by {
        RecountBy::Plan => String::new(),
        RecountBy::Search => " by a plain search".to_owned(),
    };
    messages.say(format_args!(
        "recounting {} of the {} subproblems{how}, chosen with --seed {seed}",
        chosen.len(),
        plan.len()
    ));
    let mut wrong: Option<(usize, Count)> = None;
    let compare = |index: usize, count: Count| {
        let (_, record) = &records[owners.get(index).expect("every subproblem has an owner")];
        if record.tally.get(index) != Some(count) && wrong.is_none() {
            wrong = Some((index, count));
        }
    };
    let ran = match recount.by {
        RecountBy::Plan => options.count_reporting(plan, &chosen, compare)?,
        RecountBy::Search => options.search_reporting(plan, &chosen, compare)?,
    };
    super::super::warn_of_refused_threads(messages, &ran, threads);
    let wrong = wrong.map(|(index, count)| {
        let owner = owners.get(index).expect("checked above");
        let how = format!("{how} with --seed {seed}");
        proved_wrong(records, owner, index, count, recount.by, &how)
    });
    if wrong.is_none() {
        messages.say(format_args!(
            "the {} with the records",
            counted(
                chosen.len(),
                "recounted subproblem agrees",
                "recounted subproblems agree"
            )
        ));
    }
    Ok(Recounted {
        subproblems: chosen.len(),
        seed,
        by: recount.by,
        wrong,
    })
}

/// Subproblem `index`, whose count in the record at `owner` (and the
/// others of its shard, which agree with it) a recount `how` found to be
/// `count`.
fn proved_wrong(
    records: &[(&Path, ShardRecord)],
    owner: usize,
    index: usize,
    count: Count,
    by: RecountBy,
    how: &str,
) -> Disagreement {
    let (path, record) = &records[owner];
    let said = record.tally.get(index).unwrap_or_default();
    Disagreement {
        shard: record.shard.to_string(),
        subproblem: index,
        records: records
            .iter()
            .filter(|(_, other)| other.shard == record.shard)
            .map(|(path, other)| Said::of(path, other, said))
            .collect(),
        recount: Some(RecountFound::of(by, count)),
        line: format!(
            "{} says subproblem {index} has {said} solutions, but it has {count} (recounted here{how}){}",
            path_text(path),
            same_shard(records, record)
        ),
    }
}

/// `"; the 1 other record of shard 1/3 says the same"` where `record`'s
/// shard was cross-checked (its records agree, so all of them are wrong).
fn same_shard(records: &[(&Path, ShardRecord)], record: &ShardRecord) -> String {
    let others = records
        .iter()
        .filter(|(_, other)| other.shard == record.shard)
        .count()
        - 1;
    if others == 0 {
        return String::new();
    }
    let shard = record.shard;
    format!(
        "; the {} the same",
        counted(
            others,
            &format!("other record of shard {shard} says"),
            &format!("other records of shard {shard} say")
        )
    )
}

/// The options of a recount by the records' own method: its `auto`
/// kernel, on `threads`, once a join kernel's memory is checked.
fn checked_options(plan: &Plan, recount: &Recount, threads: usize) -> Result<Options, Failure> {
    let options = Options::new().with_threads(threads);
    // The records' plan decides the kernel (`auto` of its method), and a
    // join kernel's memory is checked before anything is recounted.
    let kernel = options.counting_kernel(plan.method())?;
    // The plan is built already (the records were checked against it):
    // what is left to check is its count's.
    let needed = |threads| plan.memory_estimate(threads);
    let limits = memory::Limits::of_this_process(recount.max_memory);
    // A recount is no shard: its advice is threads and memory only.
    memory::check(kernel, plan.n(), options.threads(), false, &needed, &limits)
        .map_err(Failure::Refused)?;
    Ok(options)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

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
