//! Writes a campaign folder of many shard records at once, to time
//! `queens-simd status` on it (docs/plan.md, "A campaign at a glance"):
//!
//! ```sh
//! cargo run --release --example campaign_records -- /tmp/campaign 16 100000
//! /usr/bin/time -f '%e s, %M KiB' target/release/queens-simd status /tmp/campaign
//! ```
//!
//! Every subproblem of the plan of N (the one `auto` counts through) is
//! counted once here, then each of the M shards gets the record that
//! `queens-simd N --count --shard I/M` would print (most of them empty
//! when M passes the plan's size), in `DIR/records/shard-I.json`. The
//! folder's records then merge to Q(N).

use std::path::PathBuf;

use queens_simd::plan::Shard;
use queens_simd::{Kernel, dispatch};
use queens_simd_cli::records::{Origin, PlanId, ShardRecord, Tally};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, n, m] = args.as_slice() else {
        return Err("usage: campaign_records DIR N M".into());
    };
    let (dir, n, m) = (PathBuf::from(dir), n.parse()?, m.parse()?);
    let plan = dispatch::plan_for(Kernel::Auto, n)?;
    let counts: Vec<_> = plan
        .subproblems()
        .iter()
        .map(|s| dispatch::count_subproblem(Kernel::Auto, s))
        .collect::<Result<_, _>>()?;
    let records = dir.join("records");
    std::fs::create_dir_all(&records)?;
    for i in 0..m {
        let shard = Shard::new(i, m)?;
        let mut tally = Tally::empty(plan.len());
        for index in plan.shard(shard) {
            tally.insert(index, counts[index]);
        }
        let record = ShardRecord {
            plan: PlanId::of(&plan),
            shard,
            count: tally.total().ok_or("a count past 128 bits")?,
            tally,
            kernel: "auto".into(),
            threads: 1,
            seconds: 0.001,
            origin: Origin::default(),
            attempts: 1,
            core_seconds: 0.001,
        };
        std::fs::write(records.join(format!("shard-{i}.json")), record.to_bytes())?;
    }
    Ok(())
}
