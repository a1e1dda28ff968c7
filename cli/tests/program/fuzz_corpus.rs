//! The fuzz targets' checks (fuzz/checks/) on stable, on every `cargo test`:
//! their committed corpora (seeds, and any input a fuzz run ever found),
//! plus property tests over arbitrary bytes and single-byte edits of real
//! records. `cargo +nightly fuzz run <target>` in fuzz/ explores further.

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use queens_simd_cli::records::{Plans, ShardRecord};

#[path = "../../../fuzz/checks/command_line.rs"]
mod command_line;
#[path = "../../../fuzz/checks/records.rs"]
#[allow(dead_code)]
mod records;

/// Every file of the corpus of `target`.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("fuzz/corpus")
        .join(target);
    let mut inputs: Vec<Vec<u8>> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| fs::read(entry.unwrap().path()).unwrap())
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 5, "{}: a corpus to replay", dir.display());
    inputs
}

#[test]
fn the_record_corpus_replays() {
    let mut accepted = 0;
    for input in corpus("records") {
        records::check(&input);
        if let Some(resealed) = records::reseal(&input) {
            records::check(&resealed);
        }
        accepted += usize::from(ShardRecord::parse(&input, &mut Plans::default()).is_ok());
    }
    // The seeds are real records: the fuzzer starts from accepted ones.
    assert!(accepted >= 3, "{accepted}");
}

#[test]
fn the_command_line_corpus_replays() {
    for input in corpus("command_line") {
        command_line::check(&input);
    }
}

/// A real record, written by this crate.
fn real_record() -> Vec<u8> {
    fs::read(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("fuzz/corpus/records/shard-8-0of1.json"),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_are_refused_or_consistent(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        records::check(&bytes);
        if let Some(resealed) = records::reseal(&bytes) {
            records::check(&resealed);
        }
    }

    #[test]
    fn one_changed_byte_is_refused_or_changes_nothing(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let original = real_record();
        let honest = ShardRecord::parse(&original, &mut Plans::default()).unwrap();
        let mut edited = original.clone();
        let at = at.index(edited.len());
        edited[at] = byte;
        records::check(&edited);
        // Accepted only if it reads as the same record (a change in
        // whitespace between tokens, say).
        if let Ok(read) = ShardRecord::parse(&edited, &mut Plans::default()) {
            prop_assert_eq!(read, honest.clone());
        }
        // Re-sealed (the checksum made to match), it still may not say
        // something else: the arithmetic and the plan are checked too,
        // but the kernel's name, threads and seconds are free text.
        if let Some(resealed) = records::reseal(&edited)
            && let Ok(read) = ShardRecord::parse(&resealed, &mut Plans::default())
        {
            prop_assert_eq!((read.plan, read.shard, read.tally, read.count),
                (honest.plan.clone(), honest.shard, honest.tally.clone(), honest.count));
        }
    }

    #[test]
    fn arbitrary_command_lines_are_refused_or_honoured(words in prop::collection::vec(
        prop_oneof![
            Just("--count".to_owned()), Just("--unique".to_owned()), Just("--format".to_owned()),
            Just("json".to_owned()), Just("hex".to_owned()), Just("--kernel".to_owned()),
            Just("symmetric".to_owned()), Just("portable".to_owned()), Just("--kernels".to_owned()),
            Just("--verify".to_owned()), Just("--max-n".to_owned()), Just("--threads".to_owned()),
            Just("--shard".to_owned()), Just("1/3".to_owned()), Just("--checkpoint".to_owned()),
            Just("c.json".to_owned()), Just("--checkpoint-interval".to_owned()),
            Just("--quiet".to_owned()), Just("--time".to_owned()), Just("merge".to_owned()),
            Just("--recount".to_owned()), Just("--seed".to_owned()),
            (0u32..40).prop_map(|n| n.to_string()),
            "\\PC{0,6}",
        ],
        0..8,
    )) {
        command_line::check(words.join("\0").as_bytes());
    }
}
