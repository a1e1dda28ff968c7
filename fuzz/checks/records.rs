//! What must hold for any bytes read as a shard record or a checkpoint:
//! never a panic; anything accepted adds up, and writes back to a file that
//! reads the same. Shared by the fuzz target and by cli/tests/program/fuzz_corpus.rs.

use queens_simd_cli::records::{Checkpoint, Plans, ShardRecord};

/// Reads `bytes` both ways and checks what is accepted.
pub fn check(bytes: &[u8]) {
    let mut plans = Plans::default();
    if let Ok(record) = ShardRecord::parse(bytes, &mut plans) {
        let plan = plans
            .get(record.plan.method, record.plan.n)
            .expect("its plan was built");
        assert_eq!(plan.method(), record.plan.method);
        assert_eq!(record.tally.total(), Some(record.count));
        assert_eq!(record.tally.len(), plan.shard(record.shard).len());
        assert_eq!(record.plan.n, plan.n());
        let again =
            ShardRecord::parse(&record.to_bytes(), &mut plans).expect("written records read back");
        assert_eq!(again, record);
    }
    if let Ok(checkpoint) = Checkpoint::parse(bytes, &mut plans) {
        let plan = plans
            .get(checkpoint.plan.method, checkpoint.plan.n)
            .expect("its plan was built");
        assert_eq!(checkpoint.tally.total(), Some(checkpoint.count));
        let shard = plan.shard(checkpoint.shard);
        assert!(checkpoint.tally.iter().all(|(i, _)| shard.contains(&i)));
        let again = Checkpoint::parse(&checkpoint.to_bytes(), &mut plans)
            .expect("written checkpoints read back");
        assert_eq!(again, checkpoint);
    }
}

/// `bytes` with its checksum recomputed, as `jq -cj 'del(.checksum)' |
/// sha256sum` would give it, if it is a JSON object: so that the fuzzer
/// also reaches the checks behind the checksum.
pub fn reseal(bytes: &[u8]) -> Option<Vec<u8>> {
    use sha2::{Digest, Sha256};
    let mut value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let object = value.as_object_mut()?;
    object.shift_remove("checksum");
    let digest = Sha256::digest(serde_json::to_vec(object).ok()?);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    object.insert("checksum".into(), format!("sha256:{hex}").into());
    serde_json::to_vec_pretty(object).ok()
}
