//! `merge --format json`: what a merge found, as one JSON object on
//! stdout, for scripts that watch a campaign; printed also when the merge
//! proves a count wrong (`"agree":false`, exit status 3).

use std::io::{self, Write};

use queens_simd::Count;

use super::super::output::write_json_integer;
use super::super::records::{Duplicate, PlanId};
use super::recount::Recounted;
use super::sum::{CrossChecks, Disagreement};

/// Everything a merge prints as JSON.
pub(super) struct Merged<'a> {
    pub(super) plan: &'a PlanId,
    /// How many records were counted (duplicates aside).
    pub(super) records: usize,
    /// The total, unless a count was proved wrong.
    pub(super) total: Option<Count>,
    pub(super) cross_checks: CrossChecks,
    pub(super) duplicates: &'a [Duplicate],
    pub(super) recounted: Option<&'a Recounted>,
    /// The first two counts found to differ, if any were.
    pub(super) disagreement: Option<&'a Disagreement>,
}

/// One line:
/// `{"n":14,"plan":"…","method":"join","subproblems":…,"shards":3,"records":4,
/// "count":365596,"count_text":"365596","cross_checked":1,
/// "cross_check_kernels":["join","join-avx2"],"duplicates":[],"agree":true}`,
/// with a recount `"recounted":K,"recount_by":"plan","seed":S,"seed_text":"S"`
/// before `agree`. The count and the seed are written twice, as numbers and
/// as decimal strings (see [`write_json_integer`]). A disagreement makes the
/// count `null`, `agree` false, and names the subproblem, its shard, what
/// each record said and what a recount found:
/// `"disagreement":{"shard":"1/3","subproblem":17,"records":[{"file":…,
/// "kernel":…,"count":1234,"count_text":"1234"},…],"recount":null}`.
pub(super) fn write(out: &mut impl Write, merged: &Merged<'_>) -> io::Result<()> {
    let plan = merged.plan;
    let checks = &merged.cross_checks;
    write!(
        out,
        "{{\"n\":{},\"plan\":{},\"method\":{},\"subproblems\":{},\"shards\":{},\"records\":{},",
        plan.n,
        json(&plan.fingerprint),
        json(plan.method.name()),
        plan.subproblems,
        checks.shards,
        merged.records
    )?;
    match merged.total {
        Some(total) => write_json_integer(out, "count", total)?,
        None => out.write_all(b"\"count\":null,\"count_text\":null")?,
    }
    write!(
        out,
        ",\"cross_checked\":{},\"cross_check_kernels\":{},\"duplicates\":{}",
        checks.checked,
        json(&checks.kernels),
        json(&merged.duplicates)
    )?;
    if let Some(recounted) = merged.recounted {
        write!(
            out,
            ",\"recounted\":{},\"recount_by\":{},",
            recounted.subproblems,
            json(recounted.by.name())
        )?;
        write_json_integer(out, "seed", recounted.seed)?;
    }
    match merged.disagreement {
        None => out.write_all(b",\"agree\":true")?,
        Some(disagreement) => write!(
            out,
            ",\"agree\":false,\"disagreement\":{}",
            json(disagreement)
        )?,
    }
    out.write_all(b"}\n")
}

/// `value` as compact JSON (a record's kernel name may hold quotes or
/// backslashes, never a control character).
fn json(value: &(impl serde::Serialize + ?Sized)) -> String {
    serde_json::to_string(value).expect("a merge's findings serialize")
}
