//! `merge --format json`: what a merge found, as one JSON object on
//! stdout, for scripts that watch a campaign.

use std::io::{self, Write};

use crate::Count;

use super::super::output::write_json_integer;
use super::super::records::PlanId;
use super::recount::Recounted;
use super::sum::CrossChecks;

/// Everything a successful merge prints as JSON.
pub(super) struct Merged<'a> {
    pub(super) plan: &'a PlanId,
    /// How many records were read.
    pub(super) records: usize,
    pub(super) total: Count,
    pub(super) cross_checks: &'a CrossChecks,
    pub(super) recounted: Option<Recounted>,
}

/// One line:
/// `{"n":14,"plan":"…","method":"join","subproblems":…,"shards":3,"records":4,
/// "count":365596,"count_text":"365596","cross_checked":1,
/// "cross_check_kernels":["join","join-avx2"]}`, and with a recount
/// `"recounted":K,"recount_by":"plan","seed":S,"seed_text":"S","agree":true`
/// before the closing brace. The count and the seed are written twice, as
/// numbers and as decimal strings (see [`write_json_integer`]).
pub(super) fn write(out: &mut impl Write, merged: &Merged<'_>) -> io::Result<()> {
    let plan = merged.plan;
    let checks = merged.cross_checks;
    write!(
        out,
        "{{\"n\":{},\"plan\":{},\"method\":{},\"subproblems\":{},\"shards\":{},\"records\":{},",
        plan.n,
        quoted(&plan.fingerprint),
        quoted(plan.method.name()),
        plan.subproblems,
        checks.shards,
        merged.records
    )?;
    write_json_integer(out, "count", merged.total)?;
    let kernels: Vec<String> = checks.kernels.iter().map(|k| quoted(k)).collect();
    write!(
        out,
        ",\"cross_checked\":{},\"cross_check_kernels\":[{}]",
        checks.checked,
        kernels.join(",")
    )?;
    if let Some(recounted) = merged.recounted {
        write!(
            out,
            ",\"recounted\":{},\"recount_by\":{},",
            recounted.subproblems,
            quoted(recounted.by.name())
        )?;
        write_json_integer(out, "seed", recounted.seed)?;
        // A recount that disagrees stops the merge with an error: one
        // that is printed agreed.
        out.write_all(b",\"agree\":true")?;
    }
    out.write_all(b"}\n")
}

/// `text` as a JSON string: a record's kernel name may hold quotes or
/// backslashes (never a control character).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}
