//! The records of a merge added up as they are read: which record counts
//! each subproblem, their total, and the shards counted more than once
//! (cross-checks), compared with the first record of their shard. A file
//! that is a count read already (a link, a copy) never gets here: `merge`
//! sets it aside by the rule `status` follows ([`Counts`]).
//!
//! [`Counts`]: super::super::records::Counts

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde::Serialize;

use queens_simd::Count;
use queens_simd::plan::Shard;

use super::super::args::RecountBy;
use super::super::files::path_text;
use super::super::records::{ShardRecord, Tally};

/// Which record counts each subproblem of the plan, by the record's
/// position among the files. The one table merge holds for every
/// subproblem of the plan, so 4 bytes each (an `Option<usize>` takes 16).
pub(super) struct Owners(Vec<u32>);

impl Owners {
    /// No record counts it (and no record has this position: `merge`
    /// refuses so many files).
    pub(super) const NONE: u32 = u32::MAX;

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
    pub(super) fn get(&self, index: usize) -> Option<usize> {
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
/// refused, and a second record of a shard (a cross-check) is compared with
/// the first and keeps no tally, so the tallies kept count each subproblem
/// at most once; once the merge is bound to fail, the records read after
/// keep no tally either.
pub(super) struct Sum<'a> {
    pub(super) records: Vec<(&'a Path, ShardRecord)>,
    pub(super) owners: Owners,
    pub(super) total: Count,
    /// Each shard read: the position of its first record, and how many
    /// records count it.
    shards: HashMap<Shard, (usize, usize)>,
    /// The first subproblem counted twice by different shards, two records
    /// of a shard that disagree, or overflow: reported once every file has
    /// been read, so that a file wrong in itself is named first, whatever
    /// its place among the files.
    pub(super) wrong: Option<Wrong>,
}

/// What stops a merge once every file is read.
pub(super) enum Wrong {
    /// Records that cannot be added up, and why.
    Refused(String),
    /// A proof that a count is wrong.
    Disagrees(Disagreement),
}

/// Two counts of one subproblem that differ: two records of its shard, or
/// its records and a recount here. The one line on stderr, and what
/// `--format json` names.
#[derive(Debug, Serialize)]
pub(super) struct Disagreement {
    /// `1/3`.
    pub(super) shard: String,
    pub(super) subproblem: usize,
    /// Each record that counts it, with what it says.
    pub(super) records: Vec<Said>,
    /// What a recount here found, if one did.
    pub(super) recount: Option<RecountFound>,
    #[serde(skip)]
    pub(super) line: String,
}

/// What one record says of the subproblem.
#[derive(Debug, Serialize)]
pub(super) struct Said {
    pub(super) file: String,
    pub(super) kernel: String,
    pub(super) count: Count,
    pub(super) count_text: String,
}

impl Said {
    pub(super) fn of(path: &Path, record: &ShardRecord, count: Count) -> Said {
        Said {
            file: path_text(path),
            kernel: record.kernel.clone(),
            count,
            count_text: count.to_string(),
        }
    }
}

/// What a recount here found.
#[derive(Debug, Serialize)]
pub(super) struct RecountFound {
    pub(super) by: &'static str,
    pub(super) count: Count,
    pub(super) count_text: String,
}

impl RecountFound {
    pub(super) fn of(by: RecountBy, count: Count) -> RecountFound {
        RecountFound {
            by: by.name(),
            count,
            count_text: count.to_string(),
        }
    }
}

/// The shards counted by more than one record, all of whose records agree.
#[derive(Debug, Default, PartialEq)]
pub(super) struct CrossChecks {
    /// How many shards there are among the records.
    pub(super) shards: usize,
    /// How many of them more than one record counts.
    pub(super) checked: usize,
    /// The most records of one shard.
    pub(super) most_copies: usize,
    /// The kernels that counted them, by name.
    pub(super) kernels: BTreeSet<String>,
}

impl<'a> Sum<'a> {
    /// The first record read.
    pub(super) fn new(path: &'a Path, record: ShardRecord) -> Sum<'a> {
        let mut sum = Sum {
            records: Vec::new(),
            owners: Owners::new(record.plan.subproblems),
            total: 0,
            shards: HashMap::new(),
            wrong: None,
        };
        sum.keep(path, record);
        sum
    }

    /// Another record; why not if it is of another plan than the first.
    pub(super) fn add(&mut self, path: &'a Path, record: ShardRecord) -> Result<(), String> {
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

    /// The shards counted more than once, and by which kernels.
    pub(super) fn cross_checks(&self) -> CrossChecks {
        let mut checks = CrossChecks {
            shards: self.shards.len(),
            ..CrossChecks::default()
        };
        for &(_, copies) in self.shards.values().filter(|(_, copies)| *copies > 1) {
            checks.checked += 1;
            checks.most_copies = checks.most_copies.max(copies);
        }
        for (_, record) in &self.records {
            if self.shards[&record.shard].1 > 1 {
                checks.kernels.insert(record.kernel.clone());
            }
        }
        checks
    }

    /// Claims `record`'s subproblems and adds its count, or checks it
    /// against the first record of its shard, while nothing is wrong yet;
    /// keeps its tally only if it is its shard's first and the merge can
    /// still succeed.
    fn keep(&mut self, path: &'a Path, mut record: ShardRecord) {
        let at = self.records.len();
        let first = match self.shards.get_mut(&record.shard) {
            Some((first, copies)) => {
                *copies += 1;
                Some(*first)
            }
            None => {
                self.shards.insert(record.shard, (at, 1));
                None
            }
        };
        if self.wrong.is_none() {
            self.wrong = match first {
                Some(first) => self.cross_check(first, path, &record).map(Wrong::Disagrees),
                None => self.claim(path, &record).err().map(Wrong::Refused),
            };
        }
        if self.wrong.is_some() || first.is_some() {
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

    /// `record` counts the shard that the record at `first` counts: a
    /// cross-check, which its every count must pass; how it fails if not.
    fn cross_check(&self, first: usize, path: &Path, record: &ShardRecord) -> Option<Disagreement> {
        let (first_path, held) = &self.records[first];
        let (index, count) = record
            .tally
            .iter()
            .find(|&(index, count)| held.tally.get(index) != Some(count))?;
        let said = held.tally.get(index).unwrap_or_default();
        Some(Disagreement {
            shard: record.shard.to_string(),
            subproblem: index,
            records: vec![
                Said::of(first_path, held, said),
                Said::of(path, record, count),
            ],
            recount: None,
            line: format!(
                "{} ({}) and {} ({}) both count shard {} of N = {}, and disagree: subproblem {index} has {said} solutions in the first and {count} in the second",
                path_text(first_path),
                held.kernel,
                path_text(path),
                record.kernel,
                record.shard,
                record.plan.n,
            ),
        })
    }
}
