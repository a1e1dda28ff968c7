//! The files the CLI writes for long counts, and the checks that make them
//! trustworthy: shard records (`--shard`, read back by `merge`) and
//! checkpoints (`--checkpoint`).
//!
//! Both are one JSON object (version 4) that carries, beside its total, the
//! count of every subproblem it covers (see [`Tally`]), its plan's method
//! (`"method": "symmetric"` or `"join"`, right after `"plan"`), who counted
//! ([`Origin`]: the host, Slurm's job and array task) and a SHA-256
//! checksum of its contents. A checkpoint also says when its count last
//! beat (`heartbeat`, Unix seconds, written at every save), its process,
//! its attempt (1, then one more at each resume) and its checkpoint
//! interval, so that `status` can tell a running count from a dead one; a
//! record says how many attempts its count took. Both carry the
//! core-seconds of all the attempts (threads × wall seconds of each, up to
//! its last save: what stops lost included). Older versions are refused
//! with one line: they say nothing of who counted.
//! Reading one proves its arithmetic before anything is added up:
//!
//! * it parses into a typed structure: an unknown key, a repeated key, a
//!   missing key or a value of the wrong type is refused;
//! * every text field is within its bound ([`MAX_NAME_BYTES`],
//!   [`MAX_CHECKSUM_BYTES`], [`MAX_TOTAL_DIGITS`]; the bitmap and the
//!   counts are bounded by the plan, the file by
//!   [`MAX_RECORD_BYTES`](super::files::MAX_RECORD_BYTES)): a record with a
//!   valid checksum cannot make `merge` keep, or print, more than a real
//!   one would;
//! * the checksum matches (`sha256:` and the hex digest of the record's
//!   compact JSON without its `checksum` key, keys in the order written:
//!   `jq -cj 'del(.checksum)' FILE | sha256sum` computes it);
//! * it belongs to this version's plan of its N and method (fingerprint and
//!   size), its shard is `i/m` and the subproblems it covers are that
//!   shard's (all of them for a shard record, some for a checkpoint);
//! * every subproblem's count fits a `u128` and is a multiple of what its
//!   kind counts per board (a symmetric plan's 8, or 2 for a tie; a join
//!   piece's 1), the counts add up, with checked arithmetic, to the
//!   record's own count.
//!
//! The checksum catches a damaged or hand-edited file; it is no signature:
//! a faulty or dishonest machine can write a consistent record with wrong
//! counts. `merge --recount K` catches those by recounting some subproblems.
//! Counts are strings: JSON readers that hold numbers as doubles (jq,
//! JavaScript) would round counts above 2^53.

mod duplicates;
mod in_flight;
mod origin;
mod tally;

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use duplicates::{Content, Counts, Duplicate, Sameness};
pub use origin::{Origin, unix_now};
pub use tally::Tally;

use queens_simd::kernel::Method;
use queens_simd::plan::{InFlight, MemoryNeeds, Plan, Shard, SubproblemKind};
use queens_simd::{Count, MAX_N};

/// The `format` of a shard record.
pub const SHARD_FORMAT: &str = "queens-simd shard";
/// The `format` of a checkpoint.
pub const CHECKPOINT_FORMAT: &str = "queens-simd checkpoint";
/// The version this crate writes, and the one it reads.
pub const VERSION: u32 = 4;

/// The most bytes of each short text field of a record (`format`, `plan`,
/// `method`, `shard`, `kernel`, `host`, `slurm_job`, `slurm_array_task`). `merge` keeps a record's kernel name for
/// every file and a refusal prints the others, so without a bound a
/// record with a valid checksum could make either as large as the file.
/// Real ones are far shorter: a format has 22 bytes at most, a fingerprint
/// 16, a method 9, a shard 41 (two 20-digit numbers), a kernel name 13
/// (`symmetric-bmi`, the longest), a Linux host name 64.
pub const MAX_NAME_BYTES: usize = 64;

/// The most bytes of a record's `checksum`: a real one, `sha256:` and 64
/// hex digits, has 71.
pub const MAX_CHECKSUM_BYTES: usize = 128;

/// The longest checkpoint interval a checkpoint may say it runs with
/// (`--checkpoint-interval`'s bound, a day): `status` takes a count as
/// running for a few of its intervals.
pub const MAX_INTERVAL_SECONDS: f64 = 86_400.0;

/// The most digits of a record's `count`, a decimal [`Count`]: the largest,
/// `u128::MAX`, has 39 (and leading zeros are refused).
pub const MAX_TOTAL_DIGITS: usize = 39;

/// The plan a record belongs to; two records can be combined only if these
/// agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanId {
    /// Board side.
    pub n: usize,
    /// [`Plan::method`].
    pub method: Method,
    /// [`Plan::fingerprint`] in hexadecimal.
    pub fingerprint: String,
    /// [`Plan::len`].
    pub subproblems: usize,
}

impl PlanId {
    /// The identity of `plan`.
    pub fn of(plan: &Plan) -> PlanId {
        PlanId {
            n: plan.n(),
            method: plan.method(),
            fingerprint: format!("{:016x}", plan.fingerprint()),
            subproblems: plan.len(),
        }
    }
}

impl std::fmt::Display for PlanId {
    /// `N = 16 (symmetric plan 87c4d249fb58cb12, 2430 subproblems)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "N = {} ({} plan {}, {} subproblems)",
            self.n, self.method, self.fingerprint, self.subproblems
        )
    }
}

/// The plans records are checked against, built once per N and method: a
/// merge of many records of one N builds one plan.
#[derive(Debug, Default)]
pub struct Plans {
    plans: BTreeMap<(usize, Method), Plan>,
}

impl Plans {
    /// The plan of `n` (0 to 32) by `method`.
    pub fn get(&mut self, method: Method, n: usize) -> Result<&Plan, String> {
        match self.plans.entry((n, method)) {
            Entry::Occupied(known) => Ok(known.into_mut()),
            Entry::Vacant(slot) => {
                // Checked before it is built, as a count's plan is.
                let needs = MemoryNeeds::new(method, n).map_err(|e| super::status::message(&e))?;
                // merge and status take no --max-memory for their plans:
                // a refusal names no flag to set.
                let limits = super::memory::Limits::without_max_memory();
                super::memory::check_plan(method, n, needs.plan(), &limits)?;
                Ok(slot
                    .insert(Plan::with_method(method, n).map_err(|e| super::status::message(&e))?))
            }
        }
    }
}

/// What `--shard` prints: one finished shard, every subproblem's count.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardRecord {
    /// Its plan.
    pub plan: PlanId,
    /// Which shard.
    pub shard: Shard,
    /// Every subproblem of the shard, with its count.
    pub tally: Tally,
    /// Their total.
    pub count: Count,
    /// The kernel that counted.
    pub kernel: String,
    /// The threads it counted on.
    pub threads: usize,
    /// Wall-clock seconds of counting (across resumed runs, with a
    /// checkpoint).
    pub seconds: f64,
    /// Where the run that finished it ran.
    pub origin: Origin,
    /// How many runs it took: 1, and one more for each resume.
    pub attempts: u32,
    /// Core-seconds of all of them (threads × wall seconds of each, up to
    /// its last save).
    pub core_seconds: f64,
}

/// What `--checkpoint` keeps: the subproblems of a shard finished so far,
/// each with its count.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Its plan.
    pub plan: PlanId,
    /// The shard being counted (`0/1` for a whole count).
    pub shard: Shard,
    /// The finished subproblems, with their counts.
    pub tally: Tally,
    /// Their total.
    pub count: Count,
    /// The join pieces begun and not finished: their row sets counted and
    /// those row sets' share (not in `count`).
    pub in_flight: InFlight,
    /// Wall-clock seconds of counting so far.
    pub seconds: f64,
    /// Where the run that wrote it runs.
    pub origin: Origin,
    /// That run's process id.
    pub pid: u32,
    /// Which run it is: 1, and one more for each resume.
    pub attempt: u32,
    /// When it was written, in Unix seconds: the count's last sign of life.
    pub heartbeat: u64,
    /// The run's checkpoint interval, in seconds.
    pub interval: f64,
    /// Core-seconds of all the runs so far (threads × wall seconds of
    /// each, up to its last save: time lost to stops included).
    pub core_seconds: f64,
}

impl Checkpoint {
    /// Nothing counted yet of `shard` of the plan `plan`: the first
    /// attempt, by this process, beating now.
    pub fn start(plan: PlanId, shard: Shard, interval: f64) -> Checkpoint {
        Checkpoint {
            tally: Tally::empty(plan.subproblems),
            plan,
            shard,
            count: 0,
            in_flight: InFlight::new(),
            seconds: 0.0,
            origin: Origin::of_this_process(),
            pid: std::process::id(),
            attempt: 1,
            heartbeat: unix_now(),
            interval,
            core_seconds: 0.0,
        }
    }

    /// This checkpoint, resumed by this process with checkpoint interval
    /// `interval`: its next attempt, beating now.
    pub fn resumed(self, interval: f64) -> Checkpoint {
        Checkpoint {
            tally: self.tally,
            count: self.count,
            in_flight: self.in_flight,
            seconds: self.seconds,
            core_seconds: self.core_seconds,
            attempt: self.attempt.saturating_add(1),
            ..Checkpoint::start(self.plan, self.shard, interval)
        }
    }
}

/// A shard record as written, field by field, in this order.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShardFile {
    format: String,
    version: u32,
    n: usize,
    plan: String,
    method: String,
    subproblems_in_plan: usize,
    shard: String,
    subproblems: usize,
    covered: String,
    counts: String,
    count: String,
    kernel: String,
    threads: usize,
    seconds: f64,
    host: Option<String>,
    slurm_job: Option<String>,
    slurm_array_task: Option<String>,
    attempts: u32,
    core_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    checksum: Option<String>,
}

/// A checkpoint as written, field by field, in this order.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckpointFile {
    format: String,
    version: u32,
    n: usize,
    plan: String,
    method: String,
    subproblems_in_plan: usize,
    shard: String,
    subproblems_done: usize,
    done: String,
    counts: String,
    count: String,
    in_flight: Vec<in_flight::PieceFile>,
    seconds: f64,
    host: Option<String>,
    pid: u32,
    slurm_job: Option<String>,
    slurm_array_task: Option<String>,
    attempt: u32,
    heartbeat: u64,
    checkpoint_interval: f64,
    core_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    checksum: Option<String>,
}

/// What both kinds of file have in common, for the shared checks.
trait RecordFile: Serialize + DeserializeOwned {
    const FORMAT: &'static str;
    /// What a file of this kind is called in messages: a checkpoint is no
    /// record.
    const NOUN: &'static str;
    fn checksum(&mut self) -> &mut Option<String>;
    fn fields(&self) -> Fields<'_>;
}

/// The fields both kinds of file have, under their names in each.
struct Fields<'a> {
    /// [`RecordFile::NOUN`].
    noun: &'static str,
    format: &'a str,
    /// A shard record's; a checkpoint has none.
    kernel: Option<&'a str>,
    checksum: Option<&'a str>,
    n: usize,
    method: &'a str,
    fingerprint: &'a str,
    subproblems_in_plan: usize,
    shard: &'a str,
    /// How many subproblems it says it lists (`subproblems`,
    /// `subproblems_done`).
    listed: usize,
    /// Which (`covered`, `done`).
    bitmap: &'a str,
    counts: &'a str,
    count: &'a str,
    seconds: f64,
    origin: [(&'static str, Option<&'a str>); 3],
    /// `attempt` or `attempts`, and its value.
    attempts: (&'static str, u32),
    /// The checkpoint interval, a checkpoint's alone.
    interval: Option<f64>,
    core_seconds: f64,
}

impl RecordFile for ShardFile {
    const FORMAT: &'static str = SHARD_FORMAT;
    const NOUN: &'static str = "record";
    fn checksum(&mut self) -> &mut Option<String> {
        &mut self.checksum
    }
    fn fields(&self) -> Fields<'_> {
        Fields {
            noun: Self::NOUN,
            format: &self.format,
            kernel: Some(&self.kernel),
            checksum: self.checksum.as_deref(),
            n: self.n,
            method: &self.method,
            fingerprint: &self.plan,
            subproblems_in_plan: self.subproblems_in_plan,
            shard: &self.shard,
            listed: self.subproblems,
            bitmap: &self.covered,
            counts: &self.counts,
            count: &self.count,
            seconds: self.seconds,
            origin: [
                ("host", self.host.as_deref()),
                ("slurm_job", self.slurm_job.as_deref()),
                ("slurm_array_task", self.slurm_array_task.as_deref()),
            ],
            attempts: ("attempts", self.attempts),
            interval: None,
            core_seconds: self.core_seconds,
        }
    }
}

impl RecordFile for CheckpointFile {
    const FORMAT: &'static str = CHECKPOINT_FORMAT;
    const NOUN: &'static str = "checkpoint";
    fn checksum(&mut self) -> &mut Option<String> {
        &mut self.checksum
    }
    fn fields(&self) -> Fields<'_> {
        Fields {
            noun: Self::NOUN,
            format: &self.format,
            kernel: None,
            checksum: self.checksum.as_deref(),
            n: self.n,
            method: &self.method,
            fingerprint: &self.plan,
            subproblems_in_plan: self.subproblems_in_plan,
            shard: &self.shard,
            listed: self.subproblems_done,
            bitmap: &self.done,
            counts: &self.counts,
            count: &self.count,
            seconds: self.seconds,
            origin: [
                ("host", self.host.as_deref()),
                ("slurm_job", self.slurm_job.as_deref()),
                ("slurm_array_task", self.slurm_array_task.as_deref()),
            ],
            attempts: ("attempt", self.attempt),
            interval: Some(self.checkpoint_interval),
            core_seconds: self.core_seconds,
        }
    }
}

/// `sha256:` and the digest of the compact JSON of `file` without its
/// checksum.
fn checksum_of<F: RecordFile>(file: &mut F) -> String {
    let kept = file.checksum().take();
    let json = serde_json::to_vec(file).expect("a record serializes");
    *file.checksum() = kept;
    let digest = Sha256::digest(&json);
    let mut text = String::from("sha256:");
    for byte in digest {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

/// Pretty JSON with its checksum, and a final newline.
fn to_bytes<F: RecordFile>(mut file: F) -> Vec<u8> {
    let checksum = checksum_of(&mut file);
    *file.checksum() = Some(checksum);
    let mut bytes = serde_json::to_vec_pretty(&file).expect("a record serializes");
    bytes.push(b'\n');
    bytes
}

/// Parses `bytes` as a record of `F`'s format, checks its fields' bounds
/// and its checksum: the checks that need nothing but the file.
fn parse_file<F: RecordFile>(bytes: &[u8]) -> Result<F, String> {
    let (what, noun) = (kind_of(F::FORMAT), F::NOUN);
    // A first look for the format and version, so that another kind of
    // file, or another version, is named as such.
    let peek: Peek = serde_json::from_slice(bytes).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => format!("is not a {what}: {e}"),
        _ => format!("is not a JSON {noun}: {e}"),
    })?;
    match peek.format {
        Loose::Text(format) if format == F::FORMAT => {}
        Loose::Text(other) => {
            return Err(format!("is a {}, not a {what}", kind_of(&shown(&other))));
        }
        _ => {
            return Err(format!(
                "is not a {what} (no \"format\": \"{}\")",
                F::FORMAT
            ));
        }
    }
    let versions = format!("only version {VERSION}");
    // What to do with an older file: a checkpoint is in the way of a
    // count, which would refuse it again.
    let again = if noun == "checkpoint" {
        "remove it and count again"
    } else {
        "count it again"
    };
    match peek.version {
        Loose::Whole(v) if v == u64::from(VERSION) => {}
        Loose::Whole(1) => {
            return Err(format!(
                "is a version 1 {what}, which carries no per-subproblem counts and no checksum; this version reads {versions}: {again}"
            ));
        }
        Loose::Whole(v @ (2 | 3)) => {
            return Err(format!(
                "is a version {v} {what}, which does not say who counted or when; this version reads {versions}: {again}"
            ));
        }
        Loose::Whole(v) => {
            return Err(format!(
                "is a {what} of version {v}; this version reads {versions}"
            ));
        }
        Loose::Text(text) => {
            // A hostile file's text is shown short, and escaped.
            let shown: String = text.chars().take(24).collect();
            let more = if shown.len() < text.len() { "…" } else { "" };
            return Err(format!(
                "is a {what} whose \"version\" is the text {shown:?}{more}, where a {noun} has a whole number; this version reads {versions}"
            ));
        }
        Loose::Other => {
            return Err(format!(
                "is a {what} with no whole-number \"version\"; this version reads {versions}"
            ));
        }
    }
    // Parsed again, typed, which refuses a repeated key (the peek kept
    // the last of two).
    let mut file: F =
        serde_json::from_slice(bytes).map_err(|e| format!("is not a valid {what}: {e}"))?;
    check_bounds(&file.fields())?;
    let Some(written) = file.checksum().clone() else {
        return Err(format!("has no checksum: not a {what} as written"));
    };
    if written != checksum_of(&mut file) {
        return Err(
            "does not match its checksum: it was changed or damaged after it was written".into(),
        );
    }
    let n = file.fields().n;
    if n > MAX_N {
        return Err(format!("is for N = {n}, but N is at most {MAX_N}"));
    }
    Ok(file)
}

/// What a file of `format` is called: `queens-simd checkpoint`, or a
/// record of any other format (`queens-simd shard record`).
fn kind_of(format: &str) -> String {
    if format == CHECKPOINT_FORMAT {
        format.to_owned()
    } else {
        format!("{format} record")
    }
}

/// Refuses a text field longer than its bound ([`MAX_NAME_BYTES`],
/// [`MAX_CHECKSUM_BYTES`], [`MAX_TOTAL_DIGITS`]), or a name with a control
/// character (which would split a refusal's one line): before the checksum
/// is computed, and before anything of the record is kept.
fn check_bounds(fields: &Fields<'_>) -> Result<(), String> {
    let names = [
        ("format", Some(fields.format)),
        ("plan", Some(fields.fingerprint)),
        ("method", Some(fields.method)),
        ("shard", Some(fields.shard)),
        ("kernel", fields.kernel),
    ];
    for (name, text) in names.into_iter().chain(fields.origin) {
        let Some(text) = text else { continue };
        if text.len() > MAX_NAME_BYTES {
            return Err(format!(
                "has a \"{name}\" of {} bytes, more than the {MAX_NAME_BYTES} a {}'s {name} may have",
                text.len(),
                fields.noun
            ));
        }
        if text.chars().any(char::is_control) {
            return Err(format!(
                "has a \"{name}\" with a control character: {}",
                shown(text)
            ));
        }
    }
    if let Some(checksum) = fields.checksum
        && checksum.len() > MAX_CHECKSUM_BYTES
    {
        return Err(format!(
            "has a \"checksum\" of {} bytes, more than the {MAX_CHECKSUM_BYTES} a checksum may have",
            checksum.len()
        ));
    }
    if fields.count.len() > MAX_TOTAL_DIGITS {
        return Err(format!(
            "has a \"count\" of {} bytes, more than the {MAX_TOTAL_DIGITS} digits of the largest 128-bit number",
            fields.count.len()
        ));
    }
    Ok(())
}

/// Text from a record for a refusal's one line: its first 40 characters,
/// quoted with escapes if they hold a control character.
fn shown(text: &str) -> String {
    let start: String = text.chars().take(40).collect();
    if start.chars().any(char::is_control) {
        format!("{start:?}")
    } else {
        start
    }
}

/// What [`parse_file`] looks at first: a record's `format` and `version`,
/// whatever their type (the last of a repeated key, as a JSON object's
/// reader would keep). Every other value is skipped, not built: a file of
/// millions of small JSON values (`{"x": [0,0,0,…]}`) costs no memory but
/// its bytes, where a `serde_json::Value` of it took 17 times the file.
#[derive(Default)]
struct Peek {
    format: Loose,
    version: Loose,
}

/// A value of the peek: a string (at most [`MAX_NAME_BYTES`] + 1
/// characters of it, which is enough to tell whether it is a format), a
/// whole number, or anything else, skipped.
#[derive(Default)]
enum Loose {
    Text(String),
    Whole(u64),
    #[default]
    Other,
}

/// A key of the peek's object.
enum PeekKey {
    Format,
    Version,
    Other,
}

impl<'de> Deserialize<'de> for Peek {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Peek, D::Error> {
        struct PeekVisitor;
        impl<'de> serde::de::Visitor<'de> for PeekVisitor {
            type Value = Peek;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Peek, A::Error> {
                let mut peek = Peek::default();
                while let Some(key) = map.next_key::<PeekKey>()? {
                    match key {
                        PeekKey::Format => peek.format = map.next_value()?,
                        PeekKey::Version => peek.version = map.next_value()?,
                        PeekKey::Other => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(peek)
            }
        }
        deserializer.deserialize_map(PeekVisitor)
    }
}

impl<'de> Deserialize<'de> for PeekKey {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PeekKey, D::Error> {
        struct PeekKeyVisitor;
        impl serde::de::Visitor<'_> for PeekKeyVisitor {
            type Value = PeekKey;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<PeekKey, E> {
                Ok(match key {
                    "format" => PeekKey::Format,
                    "version" => PeekKey::Version,
                    _ => PeekKey::Other,
                })
            }
        }
        deserializer.deserialize_identifier(PeekKeyVisitor)
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Loose, D::Error> {
        struct LooseVisitor;
        impl<'de> serde::de::Visitor<'de> for LooseVisitor {
            type Value = Loose;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Loose, E> {
                Ok(Loose::Text(text.chars().take(MAX_NAME_BYTES + 1).collect()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Loose, E> {
                Ok(Loose::Whole(v))
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Loose, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Loose::Other)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Loose, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Loose::Other)
            }
        }
        deserializer.deserialize_any(LooseVisitor)
    }
}

/// The method of the plan a record of `fields` belongs to.
fn method_of(fields: &Fields<'_>) -> Result<Method, String> {
    fields.method.parse().map_err(|_| {
        let known: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        format!(
            "has method '{}'; this version knows {}",
            shown(fields.method),
            known.join(" and ")
        )
    })
}

/// What both kinds of record prove: the plan, the shard, the tally and its
/// arithmetic (every subproblem of the tally is in the shard), the
/// number it says it lists, and a time that is a time.
struct CheckedRecord {
    id: PlanId,
    shard: Shard,
    /// How many subproblems the shard has.
    shard_size: usize,
    tally: Tally,
    count: Count,
}

fn check_fields(plan: &Plan, fields: &Fields<'_>) -> Result<CheckedRecord, String> {
    let expected = PlanId::of(plan);
    let id = PlanId {
        n: plan.n(),
        method: plan.method(),
        fingerprint: fields.fingerprint.to_owned(),
        subproblems: fields.subproblems_in_plan,
    };
    if id != expected {
        return Err(format!(
            "is for {id}, but this version splits it as {expected}"
        ));
    }
    let shard: Shard = fields
        .shard
        .parse()
        .map_err(|e: queens_simd::Error| format!("has {}", super::status::message(&e)))?;
    let tally = Tally::decode(fields.bitmap, fields.counts, plan.len())?;
    let count = parse_decimal(fields.count)?;
    let members = plan.shard(shard);
    let mut in_shard = vec![false; plan.len()];
    for &index in &members {
        in_shard[index] = true;
    }
    if let Some((index, _)) = tally.iter().find(|&(index, _)| !in_shard[index]) {
        return Err(format!(
            "counts subproblem {index}, which is not in shard {shard}"
        ));
    }
    for (index, sub_count) in tally.iter() {
        let step = per_board(plan, index);
        if sub_count % step != 0 {
            return Err(format!(
                "says subproblem {index} ({}) has {sub_count} solutions, but its count is always a multiple of {step}",
                plan.get(index)
                    .map_or_else(String::new, |s| s.kind().to_string())
            ));
        }
    }
    let Some(total) = tally.total() else {
        return Err("has subproblem counts whose sum does not fit 128 bits".into());
    };
    // N queens, one per row and column, can be placed in N! ways: no count
    // of N can be larger (and N! < 2^118 for N <= 32, so sums of counts
    // that pass this check cannot overflow).
    let arrangements: Count = (1..=plan.n() as Count).product();
    if total > arrangements {
        return Err(format!(
            "says its subproblems have {total} solutions, more than the {arrangements} ways to place {} queens one per row and column",
            plan.n()
        ));
    }
    if total != count {
        return Err(format!(
            "says its count is {count}, but its {} subproblems' counts add up to {total}",
            tally.len()
        ));
    }
    if fields.listed != tally.len() {
        return Err(format!(
            "says it lists {} subproblems, but its bitmap has {}",
            fields.listed,
            tally.len()
        ));
    }
    check_run(fields)?;
    Ok(CheckedRecord {
        id: expected,
        shard,
        shard_size: members.len(),
        tally,
        count,
    })
}

/// Refuses times that are no times, an attempt 0, and a checkpoint
/// interval that is not one `--checkpoint-interval` allows (a huge one
/// would make a dead count look running for ever).
fn check_run(fields: &Fields<'_>) -> Result<(), String> {
    let is_time = |seconds: f64| seconds.is_finite() && seconds >= 0.0;
    if !is_time(fields.seconds) {
        return Err(format!("has {} seconds, not a time", fields.seconds));
    }
    if !is_time(fields.core_seconds) {
        return Err(format!(
            "has {} core-seconds, not a time",
            fields.core_seconds
        ));
    }
    if let (name, 0) = fields.attempts {
        return Err(format!("has \"{name}\": 0, where the first is 1"));
    }
    if let Some(interval) = fields.interval
        && !(is_time(interval) && interval <= MAX_INTERVAL_SECONDS)
    {
        return Err(format!(
            "has a checkpoint interval of {interval} seconds, not one from 0 to {MAX_INTERVAL_SECONDS}"
        ));
    }
    Ok(())
}

/// What every count of subproblem `index` is a multiple of: each board of a
/// corner or edge subproblem stands for the 8 of its class, each of a tie
/// for 2, 4 or 8; a join piece's row sets stand for 1, 2 or 4 each, and a
/// row set may have any number of solutions, so its count is any number
/// (as is the whole board's, for N < 4).
fn per_board(plan: &Plan, index: usize) -> Count {
    match plan.get(index).map(|s| s.kind()) {
        Some(SubproblemKind::Corner | SubproblemKind::Edge { .. }) => 8,
        Some(SubproblemKind::Tie { .. }) => 2,
        // (A kind this crate does not know yet: any count, the weakest check.)
        Some(SubproblemKind::Join { .. } | SubproblemKind::WholeBoard | _) | None => 1,
    }
}

/// A count as this crate writes it: decimal digits, no sign, no leading
/// zero, fitting a [`Count`].
fn parse_decimal(text: &str) -> Result<Count, String> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if !canonical {
        return Err(format!(
            "has count '{}', not a whole decimal number",
            shown(text)
        ));
    }
    text.parse()
        .map_err(|_| format!("has count '{text}', which does not fit 128 bits"))
}

impl ShardRecord {
    /// Parses and checks a shard record (see the module's documentation);
    /// one line saying what is wrong otherwise, to follow the file's name.
    pub fn parse(bytes: &[u8], plans: &mut Plans) -> Result<ShardRecord, String> {
        let file = parse_file::<ShardFile>(bytes)?;
        let plan = plans.get(method_of(&file.fields())?, file.n)?;
        let CheckedRecord {
            id,
            shard,
            shard_size,
            tally,
            count,
        } = check_fields(plan, &file.fields())?;
        // Every subproblem of the tally is in the shard: as many means all.
        if tally.len() != shard_size {
            let missing = plan.shard(shard).into_iter().find(|&i| !tally.contains(i));
            return Err(format!(
                "covers {} of the {shard_size} subproblems of shard {shard}{}",
                tally.len(),
                missing.map_or_else(String::new, |i| format!(" (not {i})"))
            ));
        }
        if file.threads == 0 {
            return Err("says it counted on 0 threads".into());
        }
        Ok(ShardRecord {
            plan: id,
            shard,
            tally,
            count,
            kernel: file.kernel,
            threads: file.threads,
            seconds: file.seconds,
            origin: Origin {
                host: file.host,
                job: file.slurm_job,
                task: file.slurm_array_task,
            },
            attempts: file.attempts,
            core_seconds: file.core_seconds,
        })
    }

    /// The record as written: pretty JSON with its checksum, ending in a
    /// newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        to_bytes(ShardFile {
            format: SHARD_FORMAT.into(),
            version: VERSION,
            n: self.plan.n,
            plan: self.plan.fingerprint.clone(),
            method: self.plan.method.to_string(),
            subproblems_in_plan: self.plan.subproblems,
            shard: self.shard.to_string(),
            subproblems: self.tally.len(),
            covered: self.tally.bitmap(),
            counts: self.tally.counts(),
            count: self.count.to_string(),
            kernel: self.kernel.clone(),
            threads: self.threads,
            seconds: self.seconds,
            host: self.origin.host.clone(),
            slurm_job: self.origin.job.clone(),
            slurm_array_task: self.origin.task.clone(),
            attempts: self.attempts,
            core_seconds: self.core_seconds,
            checksum: None,
        })
    }
}

impl Checkpoint {
    /// Parses and checks a checkpoint (see the module's documentation); one
    /// line saying what is wrong otherwise, to follow the file's name.
    pub fn parse(bytes: &[u8], plans: &mut Plans) -> Result<Checkpoint, String> {
        let file = parse_file::<CheckpointFile>(bytes)?;
        let plan = plans.get(method_of(&file.fields())?, file.n)?;
        let CheckedRecord {
            id,
            shard,
            tally,
            count,
            ..
        } = check_fields(plan, &file.fields())?;
        let mut in_shard = vec![false; plan.len()];
        for index in plan.shard(shard) {
            in_shard[index] = true;
        }
        let in_flight = in_flight::decode(&file.in_flight, &in_shard, &tally)?;
        // With the pieces in flight, still no more than N! (so no sum
        // overflows).
        let arrangements: Count = (1..=plan.n() as Count).product();
        if count
            .checked_add(in_flight.count())
            .is_none_or(|all| all > arrangements)
        {
            return Err(format!(
                "says its subproblems and pieces in flight have more than the {arrangements} ways to place {} queens one per row and column",
                plan.n()
            ));
        }
        Ok(Checkpoint {
            plan: id,
            shard,
            tally,
            count,
            in_flight,
            seconds: file.seconds,
            origin: Origin {
                host: file.host,
                job: file.slurm_job,
                task: file.slurm_array_task,
            },
            pid: file.pid,
            attempt: file.attempt,
            heartbeat: file.heartbeat,
            interval: file.checkpoint_interval,
            core_seconds: file.core_seconds,
        })
    }

    /// The checkpoint as written: pretty JSON with its checksum, ending in
    /// a newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        to_bytes(CheckpointFile {
            format: CHECKPOINT_FORMAT.into(),
            version: VERSION,
            n: self.plan.n,
            plan: self.plan.fingerprint.clone(),
            method: self.plan.method.to_string(),
            subproblems_in_plan: self.plan.subproblems,
            shard: self.shard.to_string(),
            subproblems_done: self.tally.len(),
            done: self.tally.bitmap(),
            counts: self.tally.counts(),
            count: self.count.to_string(),
            in_flight: in_flight::encode(&self.in_flight),
            seconds: self.seconds,
            host: self.origin.host.clone(),
            pid: self.pid,
            slurm_job: self.origin.job.clone(),
            slurm_array_task: self.origin.task.clone(),
            attempt: self.attempt,
            heartbeat: self.heartbeat,
            checkpoint_interval: self.interval,
            core_seconds: self.core_seconds,
            checksum: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_simd::Kernel;

    /// A real shard record of `n`, counted here.
    fn record(n: usize, shard: Shard) -> ShardRecord {
        record_of(Method::Symmetric, n, shard)
    }

    /// A real shard record of the plan of `n` by `method`, counted here.
    fn record_of(method: Method, n: usize, shard: Shard) -> ShardRecord {
        let plan = Plan::with_method(method, n).unwrap();
        let mut tally = Tally::empty(plan.len());
        for index in plan.shard(shard) {
            let count =
                queens_simd::dispatch::count_subproblem(Kernel::Auto, plan.get(index).unwrap())
                    .unwrap();
            assert!(tally.insert(index, count));
        }
        ShardRecord {
            plan: PlanId::of(&plan),
            shard,
            count: tally.total().unwrap(),
            tally,
            kernel: method.to_string(),
            threads: 1,
            seconds: 0.25,
            origin: Origin {
                host: Some("node17".into()),
                job: Some("1234".into()),
                task: None,
            },
            attempts: 2,
            core_seconds: 0.5,
        }
    }

    #[test]
    fn a_record_round_trips() {
        let written = record(9, Shard::new(1, 3).unwrap());
        let mut plans = Plans::default();
        let read = ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap();
        assert_eq!(read, written);
        assert_eq!(
            plans.get(Method::Symmetric, 9).unwrap().len(),
            written.plan.subproblems
        );
        let checkpoint = Checkpoint {
            tally: written.tally.clone(),
            count: written.count,
            in_flight: InFlight::new(),
            seconds: 1.5,
            ..Checkpoint::start(written.plan.clone(), written.shard, 0.5)
        };
        assert_eq!(
            Checkpoint::parse(&checkpoint.to_bytes(), &mut plans).unwrap(),
            checkpoint
        );
    }

    #[test]
    fn every_time_survives_its_checksum() {
        // The checksum is recomputed from the record as read back, so the
        // `seconds` float must parse to the very value that was printed
        // (serde_json's `float_roundtrip`); without it about one time in a
        // few hundred failed its own checksum.
        let mut written = record(8, Shard::WHOLE);
        let mut plans = Plans::default();
        let mut state = 0x5eed_u64;
        for _ in 0..20_000 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let bits = (state ^ (state >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            // Times as a run measures them: up to a few thousand seconds,
            // every mantissa bit in use.
            written.seconds = (bits >> 11) as f64 / (1u64 << 53) as f64 * 4096.0;
            let read = ShardRecord::parse(&written.to_bytes(), &mut plans);
            assert_eq!(
                read.as_ref(),
                Ok(&written),
                "seconds = {:?}",
                written.seconds
            );
        }
    }

    #[test]
    fn every_text_field_is_bounded() {
        let mut written = record(8, Shard::WHOLE);
        let mut plans = Plans::default();
        written.kernel = "k".repeat(MAX_NAME_BYTES);
        assert_eq!(
            ShardRecord::parse(&written.to_bytes(), &mut plans),
            Ok(written.clone())
        );
        // A valid checksum does not make a longer one a record.
        written.kernel.push('k');
        let refused = ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap_err();
        assert_eq!(
            refused,
            "has a \"kernel\" of 65 bytes, more than the 64 a record's kernel may have"
        );
        written.kernel = "a\tb".into();
        let refused = ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap_err();
        assert_eq!(
            refused,
            "has a \"kernel\" with a control character: \"a\\tb\""
        );
    }

    #[test]
    fn who_counted_is_bounded_as_every_name_is() {
        let mut written = record(8, Shard::WHOLE);
        let mut plans = Plans::default();
        written.origin.task = Some("7".repeat(MAX_NAME_BYTES));
        assert_eq!(
            ShardRecord::parse(&written.to_bytes(), &mut plans),
            Ok(written.clone())
        );
        written.origin.host = Some("h".repeat(MAX_NAME_BYTES + 1));
        assert_eq!(
            ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap_err(),
            "has a \"host\" of 65 bytes, more than the 64 a record's host may have"
        );
        written.origin.host = None;
        written.origin.job = Some("12\u{1b}[2J".into());
        assert_eq!(
            ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap_err(),
            "has a \"slurm_job\" with a control character: \"12\\u{1b}[2J\""
        );
        written.origin.job = None;
        written.attempts = 0;
        assert_eq!(
            ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap_err(),
            "has \"attempts\": 0, where the first is 1"
        );
        written.attempts = 1;
        written.core_seconds = -1.0;
        assert_eq!(
            ShardRecord::parse(&written.to_bytes(), &mut plans).unwrap_err(),
            "has -1 core-seconds, not a time"
        );
        let checkpoint = Checkpoint {
            interval: MAX_INTERVAL_SECONDS * 2.0,
            ..Checkpoint::start(written.plan.clone(), written.shard, 0.5)
        };
        assert_eq!(
            Checkpoint::parse(&checkpoint.to_bytes(), &mut plans).unwrap_err(),
            "has a checkpoint interval of 172800 seconds, not one from 0 to 86400"
        );
    }

    #[test]
    fn older_versions_are_refused_in_one_line() {
        let record = String::from_utf8(record(8, Shard::WHOLE).to_bytes()).unwrap();
        let plan = PlanId::of(&Plan::with_method(Method::Symmetric, 8).unwrap());
        let checkpoint = Checkpoint::start(plan, Shard::WHOLE, 0.5).to_bytes();
        let checkpoint = String::from_utf8(checkpoint).unwrap();
        for version in [2, 3] {
            let old =
                |text: &str| text.replace("\"version\": 4", &format!("\"version\": {version}"));
            assert_eq!(
                ShardRecord::parse(old(&record).as_bytes(), &mut Plans::default()).unwrap_err(),
                format!(
                    "is a version {version} queens-simd shard record, which does not say who counted or when; this version reads only version 4: count it again"
                )
            );
            assert_eq!(
                Checkpoint::parse(old(&checkpoint).as_bytes(), &mut Plans::default()).unwrap_err(),
                format!(
                    "is a version {version} queens-simd checkpoint, which does not say who counted or when; this version reads only version 4: remove it and count again"
                )
            );
        }
    }

    #[test]
    fn the_first_look_builds_nothing_it_skips() {
        // Another kind of file, named whatever its fields hold; a format
        // that is not a string, or no object at all, is no format.
        let cases: [(&[u8], &str); 6] = [
            (
                br#"{"x": [[0, {"a": null}], -1.5, true], "format": "other", "version": 3}"#,
                "is a other record, not a queens-simd shard record",
            ),
            (
                br#"{"format": 3}"#,
                "is not a queens-simd shard record (no \"format\"",
            ),
            (
                br#"{"format": "x", "format": "queens-simd shard", "version": "3"}"#,
                "is a queens-simd shard record whose \"version\" is the text \"3\", where a record has a whole number",
            ),
            (b"[1, 2]", "is not a queens-simd shard record: invalid type"),
            (b"{\"format\": ", "is not a JSON record: EOF"),
            (b"{} {}", "is not a JSON record: trailing characters"),
        ];
        for (bytes, why) in cases {
            let refused = ShardRecord::parse(bytes, &mut Plans::default()).unwrap_err();
            assert!(refused.starts_with(why), "{refused}");
        }
    }

    #[test]
    fn one_kind_is_not_the_other() {
        let written = record(8, Shard::WHOLE);
        let refused = Checkpoint::parse(&written.to_bytes(), &mut Plans::default()).unwrap_err();
        assert!(
            refused.contains("is a queens-simd shard record"),
            "{refused}"
        );
    }

    #[test]
    fn a_checkpoint_is_called_a_checkpoint() {
        let written = record(8, Shard::WHOLE);
        let parse = |bytes: &[u8]| Checkpoint::parse(bytes, &mut Plans::default()).unwrap_err();
        assert_eq!(
            parse(&written.to_bytes()),
            "is a queens-simd shard record, not a queens-simd checkpoint"
        );
        assert!(
            parse(b"{\"format\": ").starts_with("is not a JSON checkpoint: EOF"),
            "{}",
            parse(b"{")
        );
        let cases: [(&[u8], &str); 4] = [
            (
                br#"{"format": "queens-simd checkpoint", "version": 9}"#,
                "is a queens-simd checkpoint of version 9; this version reads only version 4",
            ),
            (
                br#"{"format": "queens-simd checkpoint", "version": "3"}"#,
                "is a queens-simd checkpoint whose \"version\" is the text \"3\", where a checkpoint has a whole number",
            ),
            (
                br#"{"format": "queens-simd checkpoint", "version": 4}"#,
                "is not a valid queens-simd checkpoint: missing field",
            ),
            (b"[]", "is not a queens-simd checkpoint: invalid type"),
        ];
        for (bytes, why) in cases {
            let refused = parse(bytes);
            assert!(refused.starts_with(why), "{refused}");
        }
        // A shard record given to merge that is a checkpoint.
        let checkpoint = Checkpoint {
            tally: written.tally.clone(),
            count: written.count,
            in_flight: InFlight::new(),
            seconds: 1.5,
            ..Checkpoint::start(written.plan.clone(), written.shard, 0.5)
        };
        assert_eq!(
            ShardRecord::parse(&checkpoint.to_bytes(), &mut Plans::default()).unwrap_err(),
            "is a queens-simd checkpoint, not a queens-simd shard record"
        );
    }

    #[test]
    fn counts_are_multiples_of_their_boards_orbits() {
        // The check that refuses a count not a multiple of 8 (2 for ties)
        // must hold for every honest count; a join piece's is any number.
        for n in [0, 1, 4, 5, 8, 9, 10, 12] {
            for method in Method::ALL {
                let honest = record_of(method, n, Shard::WHOLE);
                let read = ShardRecord::parse(&honest.to_bytes(), &mut Plans::default());
                assert!(read.is_ok(), "N = {n}, {method}: {read:?}");
            }
        }
        // A join piece's count need not be a multiple of anything: N = 1's
        // one piece has 1 solution.
        let join = record_of(Method::Join, 1, Shard::WHOLE);
        assert_eq!(join.tally.iter().collect::<Vec<_>>(), [(0, 1)]);
    }

    #[test]
    fn join_records_name_their_method_and_round_trip() {
        let written = record_of(Method::Join, 11, Shard::new(2, 3).unwrap());
        let bytes = written.to_bytes();
        let text = String::from_utf8(bytes.clone()).unwrap();
        // Version 4, the method right after the plan.
        assert!(text.contains("\"version\": 4,"), "{text}");
        assert!(
            text.contains(&format!(
                "\"plan\": \"{}\",\n  \"method\": \"join\",",
                written.plan.fingerprint
            )),
            "{text}"
        );
        let mut plans = Plans::default();
        assert_eq!(ShardRecord::parse(&bytes, &mut plans), Ok(written.clone()));
        // The symmetric plan of the same N is another plan.
        let symmetric = record_of(Method::Symmetric, 11, Shard::new(2, 3).unwrap());
        assert_ne!(symmetric.plan, written.plan);
        assert_eq!(
            plans.get(Method::Join, 11).unwrap().len(),
            written.plan.subproblems
        );
    }
}
