//! What a campaign's files add up to: its plan and shard count (those of
//! most files), each shard's state, the progress, the solutions, the time
//! spent and left.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use queens_simd::Count;
use queens_simd::plan::Plan;

use super::super::files::path_text;
use super::super::records::{Duplicate, PlanId};
use super::read::{Beat, CheckedFile, FileKind, Files};

/// How many shards of each state, or refused files, are named.
pub const NAMED: usize = 5;

/// How far ahead of this machine's clock a checkpoint's heartbeat may be
/// and still be taken as now: the skew between the clocks of a cluster's
/// nodes. A heartbeat further ahead tells nothing of the count's age, so
/// its shard is not taken as running.
pub const CLOCK_SKEW: Duration = Duration::from_secs(60);

/// How many of its checkpoint intervals a count may miss and still be
/// running: it writes its heartbeat at every one.
pub const BEATS_MISSED: f64 = 3.0;

/// The least time without a heartbeat after which a count is stalled,
/// whatever its interval: twice [`CLOCK_SKEW`], since the clock that
/// wrote the heartbeat may be behind this one by that much.
pub const FRESH_FLOOR: Duration = Duration::from_secs(120);

/// How old a count's heartbeat may be while it runs: `--fresh` if given,
/// else [`BEATS_MISSED`] of its checkpoint intervals, at least
/// [`FRESH_FLOOR`].
pub fn freshness(interval: f64, fresh: Option<Duration>) -> Duration {
    fresh.unwrap_or_else(|| {
        // A checkpoint's interval is at most a day (checked when read).
        Duration::from_secs_f64(interval * BEATS_MISSED).max(FRESH_FLOOR)
    })
}

/// A checkpoint whose heartbeat is ahead of this machine's clock, by more
/// than [`CLOCK_SKEW`]: its shard counts as stalled, and the report says
/// why.
#[derive(Clone, Debug, PartialEq)]
pub struct FutureDated {
    pub shard: usize,
    pub path: PathBuf,
    /// How far ahead.
    pub ahead: Duration,
}

/// A shard with a checkpoint and no record.
#[derive(Clone, Debug, PartialEq)]
pub struct Partial {
    pub shard: usize,
    /// Subproblems done.
    pub done: usize,
    /// Subproblems in the shard.
    pub size: usize,
    /// The checkpoint's last heartbeat, and where.
    pub beat: Beat,
    /// How long ago that was (zero for one ahead of this machine's clock).
    pub age: Duration,
}

/// The campaign as its files show it.
#[derive(Debug)]
pub struct Summary {
    pub plan: PlanId,
    /// How many shards.
    pub shards: usize,
    /// Files of the campaign read (refused ones and duplicates aside).
    pub files: usize,
    /// Shards with a record (all of their records agreeing).
    pub done: usize,
    /// Shards with no record whose checkpoint holds all of their
    /// subproblems: the count finished, but its record was not written or
    /// was lost.
    pub unrecorded: (usize, Vec<Partial>),
    /// Shards with no record and a checkpoint whose heartbeat is fresh
    /// ([`freshness`]): how many, the first.
    pub running: (usize, Vec<Partial>),
    /// Shards with no record and a checkpoint whose heartbeat is older, or
    /// ahead of this machine's clock.
    pub stalled: (usize, Vec<Partial>),
    /// The stalled shards whose checkpoint is dated in the future.
    pub future: (usize, Vec<FutureDated>),
    /// Shards with neither: how many, the first.
    pub missing: (usize, Vec<usize>),
    /// Shards whose records disagree: how many, and a line for the first.
    pub disputed: (usize, Vec<String>),
    /// Shards with more than one record, all agreeing.
    pub cross_checked: usize,
    /// Subproblems done, by the records of done shards and the others'
    /// checkpoints.
    pub subproblems_done: usize,
    /// The share of the plan's estimate they are.
    pub estimate_done: f64,
    /// The solutions of the done shards (`None`: past 128 bits).
    pub solutions: Option<Count>,
    /// The solutions so far of the checkpoints counted.
    pub checkpoint_solutions: Option<Count>,
    /// Records of done shards, and checkpoints of running or stalled ones.
    pub records: usize,
    pub checkpoints: usize,
    /// Record files of the campaign, disputed ones included (duplicates
    /// are no record of their own).
    pub record_files: usize,
    /// Core-seconds of all of them, their runs' lost to stops included.
    pub core_seconds: f64,
    /// Core-seconds of the checkpoints counted, of all their runs.
    pub checkpoint_core_seconds: f64,
    /// Core-seconds left: the records' core-seconds per unit of estimate,
    /// times the estimate left; `None` where no record's estimate says.
    pub core_seconds_left: Option<f64>,
    /// Seconds until done at the pace so far; `None` where too little is
    /// done to tell.
    pub eta_seconds: Option<f64>,
    /// Every file refused, with why, in the order of their paths.
    pub refused: Vec<(PathBuf, String)>,
    /// Every file that is a count read already (a link, a copy), in the
    /// order of their paths: counted once, never as a cross-check.
    pub duplicates: Vec<Duplicate>,
}

/// The files of one shard.
#[derive(Default)]
struct ShardFiles<'a> {
    records: Vec<&'a CheckedFile>,
    /// The newest checkpoint, by its heartbeat.
    checkpoint: Option<(&'a CheckedFile, &'a Beat)>,
}

impl Summary {
    /// Adds up `files` as of `now`: `None` if none passed its checks. A
    /// file of another plan or shard count than most is refused here.
    pub fn of(mut files: Files, now: SystemTime, fresh: Option<Duration>) -> Option<Summary> {
        let (plan_at, shards) = majority(&files.entries)?;
        let id = files.plans[plan_at].clone();
        let (ours, others): (Vec<CheckedFile>, Vec<CheckedFile>) =
            std::mem::take(&mut files.entries)
                .into_iter()
                .partition(|e| e.plan == plan_at && e.shard.shards() == shards);
        for other in others {
            let line = format!(
                "{} is for {}, shard {}, but most files here are for {id} in {shards} shards",
                path_text(&other.path),
                files.plans[other.plan],
                other.shard
            );
            files.refused.push((other.path, line));
        }
        files.refused.sort();
        let plan = files
            .built
            .get(id.method, id.n)
            .expect("built when its files were read");
        let mut by_shard: BTreeMap<usize, ShardFiles<'_>> = BTreeMap::new();
        for entry in &ours {
            let slot = by_shard.entry(entry.shard.index()).or_default();
            match &entry.kind {
                FileKind::Record { .. } => slot.records.push(entry),
                FileKind::Checkpoint(beat) => {
                    let newer = |(c, b): (&CheckedFile, &Beat)| {
                        (b.heartbeat, c.modified) < (beat.heartbeat, entry.modified)
                    };
                    if slot.checkpoint.is_none_or(newer) {
                        slot.checkpoint = Some((entry, beat));
                    }
                }
            }
        }
        let mut summary = Summary::empty(id, shards, ours.len(), files.refused);
        summary.duplicates = files.duplicates;
        let sizes = partial_sizes(plan, shards, &by_shard);
        let clock = Clock { now, fresh };
        let estimate_done = summary.add_shards(&by_shard, &sizes, clock);
        summary.missing = missing(&by_shard, shards);
        summary.add_times(plan, estimate_done, &ours, now);
        Some(summary)
    }

    fn empty(
        plan: PlanId,
        shards: usize,
        files: usize,
        refused: Vec<(PathBuf, String)>,
    ) -> Summary {
        Summary {
            plan,
            shards,
            files,
            done: 0,
            unrecorded: (0, Vec::new()),
            running: (0, Vec::new()),
            stalled: (0, Vec::new()),
            future: (0, Vec::new()),
            missing: (0, Vec::new()),
            disputed: (0, Vec::new()),
            cross_checked: 0,
            subproblems_done: 0,
            estimate_done: 0.0,
            solutions: Some(0),
            checkpoint_solutions: Some(0),
            records: 0,
            checkpoints: 0,
            record_files: 0,
            core_seconds: 0.0,
            checkpoint_core_seconds: 0.0,
            core_seconds_left: None,
            eta_seconds: None,
            refused,
            duplicates: Vec::new(),
        }
    }

    /// Each shard's state, and what its files add to the progress and the
    /// solutions; returns the estimate done, in the estimate's units.
    fn add_shards(
        &mut self,
        by_shard: &BTreeMap<usize, ShardFiles<'_>>,
        sizes: &BTreeMap<usize, usize>,
        clock: Clock,
    ) -> u128 {
        let mut estimate: u128 = 0;
        for (&shard, files) in by_shard {
            if let Some(first) = files.records.first() {
                if let Some(line) = disagreement(shard, self.shards, &files.records) {
                    note(&mut self.disputed, line);
                    continue;
                }
                self.done += 1;
                self.cross_checked += usize::from(files.records.len() > 1);
                self.records += 1;
                self.subproblems_done += first.subproblems;
                estimate += first.estimate;
                self.solutions = self.solutions.and_then(|s| s.checked_add(first.count));
            } else if let Some((checkpoint, beat)) = files.checkpoint {
                let size = sizes.get(&shard).copied().unwrap_or_default();
                self.add_checkpoint(shard, size, (checkpoint, beat), clock);
                estimate += checkpoint.estimate;
            }
        }
        estimate
    }

    /// Shard `shard` of `size` subproblems, which has `checkpoint` and no
    /// record: finished if the checkpoint holds all of them, else running
    /// while its heartbeat is fresh, stalled once it is not, or if it is
    /// ahead of this machine's clock (then its age is unknown, and it is
    /// named).
    fn add_checkpoint(
        &mut self,
        shard: usize,
        size: usize,
        (checkpoint, beat): (&CheckedFile, &Beat),
        clock: Clock,
    ) {
        let since = clock.since(beat.heartbeat);
        let partial = Partial {
            shard,
            done: checkpoint.subproblems,
            size,
            beat: beat.clone(),
            age: since.unwrap_or_default(),
        };
        match since {
            _ if checkpoint.subproblems == size => note(&mut self.unrecorded, partial),
            Ok(age) if age <= freshness(beat.interval, clock.fresh) => {
                note(&mut self.running, partial);
            }
            Ok(_) => note(&mut self.stalled, partial),
            Err(ahead) => {
                let dated = FutureDated {
                    shard,
                    path: checkpoint.path.clone(),
                    ahead,
                };
                note(&mut self.future, dated);
                note(&mut self.stalled, partial);
            }
        }
        self.checkpoints += 1;
        self.subproblems_done += checkpoint.subproblems;
        self.checkpoint_core_seconds += checkpoint.core_seconds;
        self.checkpoint_solutions = self
            .checkpoint_solutions
            .and_then(|s| s.checked_add(checkpoint.count));
    }

    /// Core-seconds spent and left, and the ETA, from the records' times
    /// and the files' dates; the estimate done as a share of the plan's.
    fn add_times(
        &mut self,
        plan: &Plan,
        estimate_done: u128,
        ours: &[CheckedFile],
        now: SystemTime,
    ) {
        let total: u128 = plan
            .subproblems()
            .iter()
            .map(|s| u128::from(s.estimate()))
            .sum();
        let done = estimate_done as f64;
        let left = total.saturating_sub(estimate_done) as f64;
        self.estimate_done = if total == 0 { 1.0 } else { done / total as f64 };
        let mut records_estimate = 0.0;
        for entry in ours {
            if let FileKind::Record { .. } = entry.kind {
                self.record_files += 1;
                self.core_seconds += entry.core_seconds;
                records_estimate += entry.estimate as f64;
            }
        }
        let finished = self.done == self.shards;
        self.core_seconds_left = if finished {
            Some(0.0)
        } else if records_estimate > 0.0 {
            Some(self.core_seconds / records_estimate * left)
        } else {
            None
        };
        // The campaign began when its earliest file's count began: its
        // date less its seconds.
        let began = ours
            .iter()
            .filter_map(|e| {
                e.modified?
                    .checked_sub(Duration::try_from_secs_f64(e.seconds).ok()?)
            })
            .min();
        let elapsed = began
            .and_then(|b| now.duration_since(b).ok())
            .map(|d| d.as_secs_f64());
        self.eta_seconds = match elapsed {
            _ if finished => Some(0.0),
            Some(elapsed) if done > 0.0 && elapsed > 0.0 => Some(elapsed * left / done),
            _ => None,
        };
    }
}

/// The time as `status` reads the heartbeats: now, and `--fresh` if given.
#[derive(Clone, Copy)]
struct Clock {
    now: SystemTime,
    fresh: Option<Duration>,
}

impl Clock {
    /// How long ago `heartbeat` (Unix seconds) was: zero if it is at most
    /// [`CLOCK_SKEW`] ahead, how far ahead it is if more.
    fn since(self, heartbeat: u64) -> Result<Duration, Duration> {
        let beat = Duration::from_secs(heartbeat);
        let now = self.now.duration_since(UNIX_EPOCH).unwrap_or_default();
        match now.checked_sub(beat) {
            Some(age) => Ok(age),
            None if beat - now <= CLOCK_SKEW => Ok(Duration::ZERO),
            None => Err(beat - now),
        }
    }
}

/// The size of each shard that has a checkpoint and no record: one pass
/// over the plan's owners, whatever the number of shards.
fn partial_sizes(
    plan: &Plan,
    shards: usize,
    by_shard: &BTreeMap<usize, ShardFiles<'_>>,
) -> BTreeMap<usize, usize> {
    let mut sizes: BTreeMap<usize, usize> = by_shard
        .iter()
        .filter(|(_, files)| files.records.is_empty() && files.checkpoint.is_some())
        .map(|(&shard, _)| (shard, 0))
        .collect();
    if sizes.is_empty() {
        return sizes;
    }
    for owner in plan.owners(shards).iter() {
        if let Some(size) = sizes.get_mut(owner) {
            *size += 1;
        }
    }
    sizes
}

/// Counts `item` in `group`, and keeps it if fewer than [`NAMED`] are.
fn note<T>(group: &mut (usize, Vec<T>), item: T) {
    group.0 += 1;
    if group.1.len() < NAMED {
        group.1.push(item);
    }
}

/// The plan and shard count of most files (ties: the first file's of
/// them), if any file passed.
fn majority(entries: &[CheckedFile]) -> Option<(usize, usize)> {
    let mut votes: Vec<((usize, usize), usize, usize)> = Vec::new();
    for (at, entry) in entries.iter().enumerate() {
        let key = (entry.plan, entry.shard.shards());
        match votes.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, count, _)) => *count += 1,
            None => votes.push((key, 1, at)),
        }
    }
    votes
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)))
        .map(|(key, _, _)| key)
}

/// How many of the `shards` have no file, and the first of them: the
/// walk skips the shards that have one, so it stops after at most
/// `by_shard.len() + NAMED` steps, whatever the number of shards.
fn missing(by_shard: &BTreeMap<usize, ShardFiles<'_>>, shards: usize) -> (usize, Vec<usize>) {
    let first = (0..shards)
        .filter(|i| !by_shard.contains_key(i))
        .take(NAMED)
        .collect();
    (shards - by_shard.len(), first)
}

/// The line that names two records of shard `shard` that disagree, if
/// two do.
fn disagreement(shard: usize, shards: usize, records: &[&CheckedFile]) -> Option<String> {
    let key = |e: &CheckedFile| match e.kind {
        FileKind::Record { digest, .. } => (e.count, Some(digest)),
        FileKind::Checkpoint(_) => (e.count, None),
    };
    let first = records[0];
    let other = records[1..].iter().find(|r| key(r) != key(first))?;
    let said = if other.count == first.count {
        format!(
            "{} and {} both say {} solutions, but not for the same subproblems",
            path_text(&first.path),
            path_text(&other.path),
            first.count
        )
    } else {
        format!(
            "{} says {} solutions, {} says {}",
            path_text(&first.path),
            first.count,
            path_text(&other.path),
            other.count
        )
    };
    Some(format!("shard {shard}/{shards}: {said}"))
}
