//! Reading a campaign's files: each one a shard record or a checkpoint,
//! told apart by its `format`, checked as `merge` checks a record, and
//! kept as a few numbers (never its tally: a folder of 100,000 records
//! holds 100,000 summaries, not 100,000 tallies). A file that is a count
//! read already (a link, a copy: [`Counts`], the rule `merge` follows too)
//! is set aside as a duplicate.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Deserialize;

use queens_simd::Count;
use queens_simd::plan::{Plan, Shard};

use super::super::files::{self, path_text};
use super::super::records::{
    CHECKPOINT_FORMAT, Checkpoint, Content, Counts, Duplicate, Origin, PlanId, Plans, ShardRecord,
    Tally,
};

/// What kind of file, and what only that kind has.
#[derive(Clone, Debug, PartialEq)]
pub enum FileKind {
    /// A shard record (`--shard`).
    Record {
        /// The threads it counted on.
        threads: usize,
        /// A digest of its tally: two records of one shard agree when
        /// their counts and digests do.
        digest: Content,
    },
    /// A checkpoint (`--checkpoint`): the subproblems finished so far,
    /// and the last sign of life of the run that writes it.
    Checkpoint(Beat),
}

/// A checkpoint's last sign of life: when, where, and how often its run
/// saves.
#[derive(Clone, Debug, PartialEq)]
pub struct Beat {
    /// Unix seconds.
    pub heartbeat: u64,
    /// The run's checkpoint interval, in seconds.
    pub interval: f64,
    pub origin: Origin,
    pub pid: u32,
    pub attempt: u32,
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
    /// The sum of their estimates ([`queens_simd::plan::Subproblem::estimate`]).
    pub estimate: u128,
    /// Their solutions.
    pub count: Count,
    /// Wall-clock seconds of counting.
    pub seconds: f64,
    /// Core-seconds of all the runs of its count.
    pub core_seconds: f64,
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
    /// The files that are a count of `entries` again, in the order of
    /// their paths.
    pub duplicates: Vec<Duplicate>,
    /// The plans built to check them, one per N and method.
    pub built: Plans,
}

impl Files {
    /// Reads and checks every file of `paths`. Of the files of one count,
    /// the first is kept, dated as the earliest of them (a copy is dated
    /// when it was copied, not when its count ended).
    pub fn read(paths: Vec<PathBuf>) -> Files {
        let mut files = Files::default();
        let mut counts = Counts::default();
        for path in paths {
            match files.read_one(&path) {
                Ok((entry, content)) => {
                    let at = files.entries.len();
                    match counts.duplicate(&path, content, at) {
                        Some((first, duplicate)) => {
                            let kept = &mut files.entries[first];
                            kept.modified = earliest(kept.modified, entry.modified);
                            files.duplicates.push(duplicate);
                        }
                        None => files.entries.push(entry),
                    }
                }
                Err(line) => files.refused.push((path, line)),
            }
        }
        files
    }

    /// One file, and what it holds: the line `merge` would say about it if
    /// it is refused.
    fn read_one(&mut self, path: &Path) -> Result<(CheckedFile, Content), String> {
        let bytes = files::read_record(path, files::Holding::EITHER)?;
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let shown = path_text(path);
        let why = |why: String| format!("{shown} {why}");
        let (content, kind, held) = if is_checkpoint(&bytes) {
            let c = Checkpoint::parse(&bytes, &mut self.built).map_err(why)?;
            let content = Content::of_checkpoint(&c);
            let beat = Beat {
                heartbeat: c.heartbeat,
                interval: c.interval,
                origin: c.origin.clone(),
                pid: c.pid,
                attempt: c.attempt,
            };
            let held = CommonFields {
                plan: c.plan,
                shard: c.shard,
                tally: c.tally,
                count: c.count,
                seconds: c.seconds,
                core_seconds: c.core_seconds,
            };
            (content, FileKind::Checkpoint(beat), held)
        } else {
            let r = ShardRecord::parse(&bytes, &mut self.built).map_err(why)?;
            let content = Content::of_record(&r);
            let kind = FileKind::Record {
                threads: r.threads,
                digest: Content::of_tally(&r.tally),
            };
            let held = CommonFields {
                plan: r.plan,
                shard: r.shard,
                tally: r.tally,
                count: r.count,
                seconds: r.seconds,
                core_seconds: r.core_seconds,
            };
            (content, kind, held)
        };
        // Built already: the file was checked against it.
        let plan = self.built.get(held.plan.method, held.plan.n)?;
        let entry = CheckedFile {
            path: path.to_path_buf(),
            estimate: estimate(plan, &held.tally),
            plan: self.plan_number(held.plan),
            shard: held.shard,
            subproblems: held.tally.len(),
            count: held.count,
            seconds: held.seconds,
            core_seconds: held.core_seconds,
            modified,
            kind,
        };
        Ok((entry, content))
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

/// What a record and a checkpoint have in common.
struct CommonFields {
    plan: PlanId,
    shard: Shard,
    tally: Tally,
    count: Count,
    seconds: f64,
    core_seconds: f64,
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

/// The earlier of two dates, or the one known.
fn earliest(a: Option<SystemTime>, b: Option<SystemTime>) -> Option<SystemTime> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
