//! Any bytes as a shard record or checkpoint, as given and re-sealed with a
//! matching checksum (to reach the checks behind it).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/records.rs"]
mod records;

fuzz_target!(|bytes: &[u8]| {
    records::check(bytes);
    if let Some(resealed) = records::reseal(bytes) {
        records::check(&resealed);
    }
});
