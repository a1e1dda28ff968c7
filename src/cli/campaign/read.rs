//! Reading a campaign's files: each one a shard record or a checkpoint,
//! told apart by its `format`, checked as `merge` checks a record, and
//! kept as a few numbers (never its tally: a folder of 100,000 records
//! holds 100,000 summaries, not 100,000 tallies).

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Deserialize;

use crate::Count;
use crate::plan::{Plan, Shard};

use super::super::files::{self, path_text};
use super::super::records::{CHECKPOINT_FORMAT, Checkpoint, PlanId, Plans, ShardRecord, Tally};

/// What kind of file, and what only that kind has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FileKind {
    /// A shard record (`--shard`).
    Record {
        /// The threads it counted on.
        threads: usize,
        /// A digest of its tally: two records of one shard agree when
        /// their counts and digests do.
        digest: u64,
    },
    /// A checkpoint (`--checkpoint`): the subproblems finished so far.
    Checkpoint,
}

/// One file that passed its checks.
#[derive(Clone, Debug)]
pub struct CheckedFile {
    pub path: PathBuf,
    /// Its plan, by its place in [`Files::plans`].
    pub plan: usize,
    pub shard: Shard,
    /// How many subproblems it counts.
    pub subproblems: usize,
    /// The sum of their estimates ([`crate::plan::Subproblem::estimate`]).
    pub estimate: u128,
    /// Their solutions.
    pub count: Count,
    /// Wall-clock seconds of counting.
    pub seconds: f64,
    /// When it was last written, if the system says.
    pub modified: Option<SystemTime>,
    pub kind: FileKind,
}

/// Every file read: those that passed, the plans they belong to, and the
/// others, each with the line that says why it was refused.
#[derive(Debug, Default)]
pub struct Files {
    pub entries: Vec<CheckedFile>,
    pub plans: Vec<PlanId>,
    pub refused: Vec<(PathBuf, String)>,
    /// The plans built to check them, one per N and method.
    pub built: Plans,
}

impl Files {
    /// Reads and checks every file of `paths`.
    pub fn read(paths: Vec<PathBuf>) -> Files {
        let mut files = Files::default();
        for path in paths {
            match files.read_one(&path) {
                Ok(entry) => files.entries.push(entry),
                Err(line) => files.refused.push((path, line)),
            }
        }
        files
    }

    /// One file: the line `merge` would say about it if it is refused.
    fn read_one(&mut self, path: &Path) -> Result<CheckedFile, String> {
        let bytes = files::read_record(path)?;
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let shown = path_text(path);
        let why = |why: String| format!("{shown} {why}");
        let (id, shard, tally, count, seconds, kind) = if is_checkpoint(&bytes) {
            let c = Checkpoint::parse(&bytes, &mut self.built).map_err(why)?;
            (
                c.plan,
                c.shard,
                c.tally,
                c.count,
                c.seconds,
                FileKind::Checkpoint,
            )
        } else {
            let r = ShardRecord::parse(&bytes, &mut self.built).map_err(why)?;
            let kind = FileKind::Record {
                threads: r.threads,
                digest: digest(&r.tally),
            };
            (r.plan, r.shard, r.tally, r.count, r.seconds, kind)
        };
        // Built already: the file was checked against it.
        let plan = self.built.get(id.method, id.n)?;
        Ok(CheckedFile {
            path: path.to_path_buf(),
            estimate: estimate(plan, &tally),
            plan: self.plan_number(id),
            shard,
            subproblems: tally.len(),
            count,
            seconds,
            modified,
            kind,
        })
    }

    /// The place of `id` among the plans seen, added if it is new.
    fn plan_number(&mut self, id: PlanId) -> usize {
        match self.plans.iter().position(|known| *known == id) {
            Some(at) => at,
            None => {
                self.plans.push(id);
                self.plans.len() - 1
            }
        }
    }
}

/// Whether `bytes` say they are a checkpoint: a first look at the format
/// alone. Anything else (a record, another file, no JSON at all) is read
/// as a record, which says what it is if it is not one.
fn is_checkpoint(bytes: &[u8]) -> bool {
    #[derive(Deserialize)]
    struct FormatPeek {
        format: Option<serde_json::Value>,
    }
    serde_json::from_slice::<FormatPeek>(bytes)
        .is_ok_and(|peek| peek.format.is_some_and(|f| f == CHECKPOINT_FORMAT))
}

/// The sum of the estimates of the subproblems of `tally`.
fn estimate(plan: &Plan, tally: &Tally) -> u128 {
    tally
        .iter()
        .map(|(index, _)| u128::from(plan.get(index).map_or(0, |s| s.estimate())))
        .sum()
}

/// A digest of every subproblem and count of `tally`: the same for the
/// same tally in every run of the program.
fn digest(tally: &Tally) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (index, count) in tally.iter() {
        hasher.write_usize(index);
        hasher.write_u128(count);
    }
    hasher.finish()
}
