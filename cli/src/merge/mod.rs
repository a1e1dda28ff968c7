//! `queens-simd merge FILES… [--recount K] [--format json]`: adds up shard
//! records after checking each one's arithmetic and that together they
//! cover every subproblem of one plan exactly once. Two records of one
//! shard are a cross-check (`sum.rs`): they must agree, and count once. A
//! file that is a count read already (the same file again, a link, a copy)
//! is a duplicate, by the rule `status` follows ([`Counts`]): counted once,
//! said on stderr, never a cross-check. Optionally recounts a random
//! sample of subproblems here to catch a machine that counted wrong
//! (`recount.rs`). A proof that a count is wrong (a cross-check or a
//! recount that disagrees) ends with exit status 3, after `--format json`
//! has printed what was found.

mod json;
mod recount;
mod sum;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use queens_simd::plan::Plan;

use super::Failure;
use super::args::{Merge, MergeFormat};
use super::files::{self, path_text};
use super::plural::counted;
use super::records::{Content, Counts, Duplicate, Plans, ShardRecord};
use super::status::Messages;
use sum::{CrossChecks, Disagreement, Owners, Sum, Wrong};

/// How many missing subproblems, or shards, or duplicates, a line names.
const NAMED: usize = 5;

pub fn merge(request: &Merge, out: &mut impl Write, messages: &Messages) -> Result<(), Failure> {
    let refuse = Failure::Refused;
    if request.files.len() >= Owners::NONE as usize {
        return Err(refuse(format!(
            "merge reads at most {} files",
            Owners::NONE - 1
        )));
    }
    let (mut sum, mut plans, duplicates) = read(&request.files)?;
    match sum.wrong.take() {
        Some(Wrong::Refused(why)) => return Err(refuse(why)),
        Some(Wrong::Disagrees(wrong)) => {
            say_duplicates(&duplicates, messages);
            let merged = found(&sum, &duplicates, None, Some(&wrong));
            return disagreed(request, out, messages, &merged, &wrong);
        }
        None => {}
    }
    let id = &sum.records[0].1.plan;
    let plan = plans.get(id.method, id.n).map_err(refuse)?;
    refuse_missing(plan, &sum)?;
    // Said once the merge is bound to add up: a refusal is one line.
    say_duplicates(&duplicates, messages);
    let cross_checks = sum.cross_checks();
    if cross_checks.checked > 0 {
        messages.say(cross_checked(&cross_checks));
    }
    let recounted = match &request.recount {
        Some(recount) => Some(recount::spot_check(
            plan,
            recount,
            &sum.records,
            &sum.owners,
            messages,
        )?),
        None => None,
    };
    let wrong = recounted.as_ref().and_then(|r| r.wrong.as_ref());
    let merged = found(&sum, &duplicates, recounted.as_ref(), wrong);
    if let Some(wrong) = wrong {
        return disagreed(request, out, messages, &merged, wrong);
    }
    match request.format {
        MergeFormat::Text => writeln!(out, "{}", sum.total)?,
        MergeFormat::Json => json::write(out, &merged)?,
    }
    Ok(())
}

/// What the merge found, for `--format json`: the total, unless
/// `disagreement` proves a count wrong.
fn found<'a>(
    sum: &'a Sum<'_>,
    duplicates: &'a [Duplicate],
    recounted: Option<&'a recount::Recounted>,
    disagreement: Option<&'a Disagreement>,
) -> json::Merged<'a> {
    json::Merged {
        plan: &sum.records[0].1.plan,
        records: sum.records.len(),
        total: Some(sum.total).filter(|_| disagreement.is_none()),
        cross_checks: sum.cross_checks(),
        duplicates,
        recounted,
        disagreement,
    }
}

/// Reads, checks and adds up every file, in order: the sum, the plans
/// built to check them, and the files that are a count read already.
fn read(files: &[std::path::PathBuf]) -> Result<(Sum<'_>, Plans, Vec<Duplicate>), Failure> {
    let refuse = Failure::Refused;
    let mut plans = Plans::default();
    let mut sum: Option<Sum<'_>> = None;
    let mut counts = Counts::default();
    let mut duplicates = Vec::new();
    for path in files {
        let shown = path_text(path);
        let bytes = files::read_record(path, files::Holding::RECORD).map_err(refuse)?;
        let record = ShardRecord::parse(&bytes, &mut plans)
            .map_err(|why| refuse(format!("{shown} {why}")))?;
        let at = sum.as_ref().map_or(0, |sum| sum.records.len());
        if let Some((_, duplicate)) = counts.duplicate(path, Content::of_record(&record), at) {
            duplicates.push(duplicate);
            continue;
        }
        match &mut sum {
            None => sum = Some(Sum::new(path, record)),
            Some(sum) => sum.add(path, record).map_err(refuse)?,
        }
    }
    let sum = sum.expect("merge has at least one file, and the first is no duplicate");
    Ok((sum, plans, duplicates))
}

/// Says on stderr which files were counted once as duplicates: the first
/// [`NAMED`], and how many more.
fn say_duplicates(duplicates: &[Duplicate], messages: &Messages) {
    for duplicate in duplicates.iter().take(NAMED) {
        messages.say(duplicate);
    }
    if duplicates.len() > NAMED {
        messages.say(format_args!(
            "and {}, each counted once",
            counted(
                duplicates.len() - NAMED,
                "more duplicate",
                "more duplicates"
            )
        ));
    }
}

/// A count proved wrong: with `--format json`, what was found is printed
/// all the same (a write that fails is noted, and the status stays the
/// disagreement's); the one line on stderr follows.
fn disagreed(
    request: &Merge,
    out: &mut impl Write,
    messages: &Messages,
    merged: &json::Merged<'_>,
    wrong: &Disagreement,
) -> Result<(), Failure> {
    if request.format == MergeFormat::Json
        && json::write(out, merged).and_then(|()| out.flush()).is_err()
    {
        messages.lose();
    }
    Err(Failure::Disagreement(wrong.line.clone()))
}

/// Refuses a merge whose records leave a subproblem of the plan uncounted,
/// naming the first few, and their shards where that can be told.
fn refuse_missing(plan: &Plan, sum: &Sum<'_>) -> Result<(), Failure> {
    let missing: Vec<usize> = (0..plan.len())
        .filter(|&i| sum.owners.get(i).is_none())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let named: Vec<String> = missing.iter().take(NAMED).map(usize::to_string).collect();
    Err(Failure::Refused(format!(
        "{} of the {} subproblems of N = {} are in no file (first: {}){}",
        missing.len(),
        plan.len(),
        plan.n(),
        named.join(", "),
        missing_shards(plan, &sum.records, &missing)
    )))
}

/// `of the 3 shards, 2 were counted twice, by join and join-avx2, and the
/// counts agree`: what the cross-checks found.
fn cross_checked(checks: &CrossChecks) -> String {
    let times = match checks.most_copies {
        2 => "twice".to_owned(),
        most => format!("up to {most} times"),
    };
    let kernels: Vec<&str> = checks.kernels.iter().map(String::as_str).collect();
    let by = match kernels.split_last() {
        Some((last, [])) => format!("by {last} each time"),
        Some((last, rest)) => format!("by {} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!(
        "of the {}, {} counted {times}, {by}, and the counts agree",
        counted(checks.shards, "shard", "shards"),
        counted(checks.checked, "was", "were"),
    )
}

/// `"; shard 2/4 is missing"` when every record is a shard of the same
/// `m`: the shards of the missing subproblems, at most [`NAMED`] of them
/// (never a list of every shard: `m` can be huge).
fn missing_shards(plan: &Plan, records: &[(&Path, ShardRecord)], missing: &[usize]) -> String {
    let m = records[0].1.shard.shards();
    if records.iter().any(|(_, r)| r.shard.shards() != m) {
        return String::new();
    }
    let owners = plan.owners(m);
    let shards: BTreeSet<usize> = missing.iter().map(|&i| owners[i]).collect();
    let mut named: Vec<String> = shards
        .iter()
        .take(NAMED)
        .map(|i| format!("{i}/{m}"))
        .collect();
    if shards.len() > NAMED {
        named.push(format!("and {} more", shards.len() - NAMED));
    }
    match shards.len() {
        1 => format!("; shard {} is missing", named[0]),
        _ => format!("; shards {} are missing", named.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_checks_say_how_many_and_by_whom() {
        let checks = |checked, most_copies, kernels: &[&str]| CrossChecks {
            shards: 3,
            checked,
            most_copies,
            kernels: kernels.iter().map(|k| k.to_string()).collect(),
        };
        assert_eq!(
            cross_checked(&checks(1, 2, &["join-avx2", "join"])),
            "of the 3 shards, 1 was counted twice, by join and join-avx2, and the counts agree"
        );
        assert_eq!(
            cross_checked(&checks(3, 3, &["join", "join-avx2", "join-avx512"])),
            "of the 3 shards, 3 were counted up to 3 times, by join, join-avx2 and join-avx512, and the counts agree"
        );
        assert_eq!(
            cross_checked(&checks(2, 2, &["join"])),
            "of the 3 shards, 2 were counted twice, by join each time, and the counts agree"
        );
    }
}
