//! Counts in JSON: every JSON object that carries a count writes it as a
//! number (`count`) and as the same number in a decimal string
//! (`count_text`), which readers that hold numbers as doubles read exactly
//! past 2^53; `--sample`'s 64-bit seed likewise (`seed_text`).

use crate::common;

use common::stdout_of;

/// The JSON object `queens-simd ARGS` prints.
fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

/// `object`'s field `name` is a whole number, and `name_text` the same in
/// decimal: the number, as a `u128`.
fn both(object: &serde_json::Value, name: &str) -> u128 {
    let number = &object[name];
    assert!(number.is_u64(), "{name} in {object}");
    let text = object[format!("{name}_text")].as_str().unwrap();
    assert_eq!(text, number.to_string(), "{object}");
    text.parse().unwrap()
}

#[test]
fn every_count_in_json_is_also_an_exact_string() {
    // A count, a fundamental count, a listing, and a count through the
    // plan on threads.
    for (args, count) in [
        (&["10", "--count", "--format", "json"][..], 724),
        (&["10", "--count", "--unique", "--format", "json"], 92),
        (&["6", "--format", "json"], 4),
        (&["8", "--unique", "--format", "json"], 12),
        (
            &["12", "--count", "--threads", "2", "--format", "json"],
            14200,
        ),
        (
            &[
                "12",
                "--count",
                "--threads",
                "2",
                "--kernel",
                "join",
                "--format",
                "json",
            ],
            14200,
        ),
    ] {
        let object = json_of(args);
        assert_eq!(both(&object, "count"), count, "{args:?}");
    }
}

#[test]
fn a_samples_seed_is_also_an_exact_string() {
    // The largest seed: a double would read it as 2^64.
    let seed = u64::MAX.to_string();
    let object = json_of(&[
        "14", "--count", "--sample", "20", "--seed", &seed, "--kernel", "join", "--format", "json",
    ]);
    assert_eq!(both(&object, "seed"), u128::from(u64::MAX));
    assert_eq!(object["seed_text"], seed.as_str());
}
