//! When two files are one count: the one rule that `merge` and `status`
//! share. A count is in a file once: another path to the same file (the
//! same name given twice, a hard link, a symbolic link: the same device and
//! inode) or a copy of it (the same record, byte for byte or laid out
//! anew: the same shard, counts, kernel, threads and seconds) is that count
//! again, not a second one. Such a file is reported once, as a duplicate:
//! it is never a cross-check, and its seconds are not spent twice.
//!
//! What decides is what the file holds (its [`Content`], a SHA-256 of
//! every field): the same file always holds the same record, and a second
//! count of a shard never does (its seconds, at least, differ). The device
//! and inode only say which kind of duplicate it is.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::ser::{Serialize, SerializeStruct, Serializer};
use sha2::{Digest, Sha256};

use super::super::files::{FileId, path_text};
use super::{Checkpoint, Origin, PlanId, ShardRecord, Tally};

/// A digest of what a record or a checkpoint holds: equal for two files
/// only if every field of theirs is (SHA-256, so no file can be made to
/// match another that differs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Content([u8; 32]);

impl Content {
    /// What `record` holds.
    pub fn of_record(record: &ShardRecord) -> Content {
        let mut seal = Seal::new("queens-simd shard");
        seal.plan(&record.plan);
        seal.text(&record.shard.to_string());
        seal.tally(&record.tally);
        seal.number(record.count);
        seal.text(&record.kernel);
        seal.number(record.threads as u128);
        seal.number(u128::from(record.seconds.to_bits()));
        seal.origin(&record.origin);
        seal.number(u128::from(record.attempts));
        seal.number(u128::from(record.core_seconds.to_bits()));
        seal.finish()
    }

    /// What `checkpoint` holds.
    pub fn of_checkpoint(checkpoint: &Checkpoint) -> Content {
        let mut seal = Seal::new("queens-simd checkpoint");
        seal.plan(&checkpoint.plan);
        seal.text(&checkpoint.shard.to_string());
        seal.tally(&checkpoint.tally);
        seal.number(checkpoint.count);
        seal.number(checkpoint.in_flight.len() as u128);
        for (index, parts) in checkpoint.in_flight.iter() {
            seal.number(index as u128);
            seal.number(u128::from(parts.of()));
            seal.number(parts.ranges().len() as u128);
            for range in parts.ranges() {
                seal.number(u128::from(range.start) << 32 | u128::from(range.end));
            }
            seal.number(parts.count());
        }
        seal.number(u128::from(checkpoint.seconds.to_bits()));
        seal.origin(&checkpoint.origin);
        seal.number(u128::from(checkpoint.pid));
        seal.number(u128::from(checkpoint.attempt));
        seal.number(u128::from(checkpoint.heartbeat));
        seal.number(u128::from(checkpoint.interval.to_bits()));
        seal.number(u128::from(checkpoint.core_seconds.to_bits()));
        seal.finish()
    }

    /// The subproblems of `tally` and their counts alone: two records of
    /// one shard agree when this is the same for both.
    pub fn of_tally(tally: &Tally) -> Content {
        let mut seal = Seal::new("tally");
        seal.tally(tally);
        seal.finish()
    }
}

/// A SHA-256 of fields, each one's length or kind written before it, so
/// that no two different sequences of fields hash the same bytes.
struct Seal(Sha256);

impl Seal {
    fn new(kind: &str) -> Seal {
        let mut seal = Seal(Sha256::new());
        seal.text(kind);
        seal
    }

    fn text(&mut self, text: &str) {
        self.0.update((text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
    }

    fn number(&mut self, number: u128) {
        self.0.update(number.to_le_bytes());
    }

    fn plan(&mut self, plan: &PlanId) {
        self.number(plan.n as u128);
        self.text(plan.method.name());
        self.text(&plan.fingerprint);
        self.number(plan.subproblems as u128);
    }

    /// Each name, or that it is unknown (which no name is: a name's
    /// length comes first).
    fn origin(&mut self, origin: &Origin) {
        for name in [&origin.host, &origin.job, &origin.task] {
            match name {
                Some(name) => self.text(name),
                None => self.number(u128::MAX),
            }
        }
    }

    fn tally(&mut self, tally: &Tally) {
        self.number(tally.len() as u128);
        for (index, count) in tally.iter() {
            self.number(index as u128);
            self.number(count);
        }
    }

    fn finish(self) -> Content {
        Content(self.0.finalize().into())
    }
}

/// How a duplicate is the file it duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sameness {
    /// The same path, given twice.
    NamedTwice,
    /// Another path to the same file (its device and inode).
    SameFile,
    /// Another file that holds the same record.
    Copy,
}

impl Sameness {
    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Sameness::NamedTwice => "named twice",
            Sameness::SameFile => "same file",
            Sameness::Copy => "copy",
        }
    }
}

/// A file that is a count read already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The duplicate.
    pub path: PathBuf,
    /// The file read first, which counts.
    pub of: PathBuf,
    /// How it is that file.
    pub how: Sameness,
}

impl fmt::Display for Duplicate {
    /// `copy.json holds the same record as shard-1.json: counted once`,
    /// the words `merge` and `status` both print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = path_text(&self.path);
        let of = path_text(&self.of);
        match self.how {
            Sameness::NamedTwice => write!(f, "{path} is named twice"),
            Sameness::SameFile => write!(f, "{path} is the same file as {of}"),
            Sameness::Copy => write!(f, "{path} holds the same record as {of}"),
        }?;
        f.write_str(": counted once")
    }
}

impl Serialize for Duplicate {
    /// `{"file":"copy.json","same_as":"shard-1.json","how":"copy"}`, in
    /// `merge`'s JSON and `status`'s alike.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_struct("Duplicate", 3)?;
        fields.serialize_field("file", &path_text(&self.path))?;
        fields.serialize_field("same_as", &path_text(&self.of))?;
        fields.serialize_field("how", self.how.name())?;
        fields.end()
    }
}

/// The first file read of each count.
#[derive(Debug)]
struct First {
    path: PathBuf,
    key: Option<FileId>,
    /// Its number, as the caller numbers the counts it keeps.
    at: usize,
}

/// The counts read so far, each by its first file: what decides, for
/// `merge` and `status` alike, whether a file is a count of its own.
#[derive(Debug, Default)]
pub struct Counts {
    first: HashMap<Content, First>,
}

impl Counts {
    /// Whether the file at `path`, which holds `content`, is a count read
    /// already: the number of that count's first file, and how this one
    /// duplicates it. If not, it is the first file of its count, numbered
    /// `at`.
    pub fn duplicate(
        &mut self,
        path: &Path,
        content: Content,
        at: usize,
    ) -> Option<(usize, Duplicate)> {
        let key = FileId::of(path);
        match self.first.get(&content) {
            Some(first) => {
                let how = if first.path.as_os_str() == path.as_os_str() {
                    Sameness::NamedTwice
                } else if key.is_some() && key == first.key {
                    Sameness::SameFile
                } else {
                    Sameness::Copy
                };
                let duplicate = Duplicate {
                    path: path.to_path_buf(),
                    of: first.path.clone(),
                    how,
                };
                Some((first.at, duplicate))
            }
            None => {
                let path = path.to_path_buf();
                self.first.insert(content, First { path, key, at });
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_simd::kernel::Method;
    use queens_simd::plan::Shard;

    fn record(seconds: f64) -> ShardRecord {
        let mut tally = Tally::empty(10);
        assert!(tally.insert(3, 8));
        ShardRecord {
            plan: PlanId {
                n: 9,
                method: Method::Symmetric,
                fingerprint: "0123456789abcdef".into(),
                subproblems: 10,
            },
            shard: Shard::new(1, 2).unwrap(),
            tally,
            count: 8,
            kernel: "symmetric".into(),
            threads: 2,
            seconds,
            origin: Origin::default(),
            attempts: 1,
            core_seconds: 2.0 * seconds,
        }
    }

    #[test]
    fn every_field_is_part_of_the_content() {
        let base = record(1.5);
        let content = Content::of_record(&base);
        assert_eq!(content, Content::of_record(&base.clone()));
        let mut changes: Vec<ShardRecord> = Vec::new();
        let mut other = base.clone();
        other.seconds = 1.25;
        changes.push(other);
        let mut other = base.clone();
        other.threads = 1;
        changes.push(other);
        let mut other = base.clone();
        other.kernel = "symmetric-bmi".into();
        changes.push(other);
        let mut other = base.clone();
        other.origin.host = Some("node1".into());
        changes.push(other);
        let mut other = base.clone();
        other.attempts = 2;
        changes.push(other);
        let mut other = base.clone();
        other.core_seconds += 1.0;
        changes.push(other);
        let mut other = base.clone();
        other.shard = Shard::new(0, 2).unwrap();
        changes.push(other);
        let mut other = base.clone();
        other.tally = Tally::empty(10);
        assert!(other.tally.insert(4, 8));
        changes.push(other);
        for changed in &changes {
            assert_ne!(Content::of_record(changed), content, "{changed:?}");
            // The counts alone agree where only the run differs.
            let same_counts = changed.tally == base.tally;
            assert_eq!(
                Content::of_tally(&changed.tally) == Content::of_tally(&base.tally),
                same_counts
            );
        }
        // A checkpoint of the same counts is another kind of file.
        let checkpoint = Checkpoint {
            tally: base.tally.clone(),
            count: base.count,
            in_flight: queens_simd::plan::InFlight::new(),
            seconds: base.seconds,
            ..Checkpoint::start(base.plan.clone(), base.shard, 0.5)
        };
        assert_ne!(Content::of_checkpoint(&checkpoint), content);
        // Two saves of one count, a heartbeat apart, are two checkpoints.
        let later = Checkpoint {
            heartbeat: checkpoint.heartbeat + 1,
            ..checkpoint.clone()
        };
        assert_ne!(
            Content::of_checkpoint(&later),
            Content::of_checkpoint(&checkpoint)
        );
    }

    #[test]
    fn a_duplicate_names_the_first_file_and_how() {
        let mut counts = Counts::default();
        let one = Content::of_record(&record(1.5));
        let two = Content::of_record(&record(2.5));
        let (a, b) = (
            Path::new("no-such-dir/a.json"),
            Path::new("no-such-dir/b.json"),
        );
        assert_eq!(counts.duplicate(a, one, 0), None);
        assert_eq!(counts.duplicate(b, two, 1), None);
        let (at, twice) = counts.duplicate(a, one, 2).unwrap();
        assert_eq!((at, twice.how), (0, Sameness::NamedTwice));
        assert_eq!(
            twice.to_string(),
            "no-such-dir/a.json is named twice: counted once"
        );
        let copy = Path::new("no-such-dir/copy.json");
        let (at, copied) = counts.duplicate(copy, two, 2).unwrap();
        assert_eq!((at, copied.how), (1, Sameness::Copy));
        assert_eq!(
            copied.to_string(),
            "no-such-dir/copy.json holds the same record as no-such-dir/b.json: counted once"
        );
    }
}
