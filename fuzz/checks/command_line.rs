//! What must hold for any command line: never a panic; a refusal is one
//! line; whatever is accepted is a combination the program honours.
//! Shared by the fuzz target and by cli/tests/program/fuzz_corpus.rs.

use std::ffi::OsString;

use queens_simd::kernel::Method;
use queens_simd::kernel::Task;
use queens_simd_cli::args::{Format, Parsed, RecountBy, Request, parse_from};

/// The words of a command line: `bytes` split at NUL bytes.
pub fn words(bytes: &[u8]) -> Vec<OsString> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        bytes
            .split(|&b| b == 0)
            .map(|w| OsString::from_vec(w.to_vec()))
            .collect()
    }
    #[cfg(not(unix))]
    {
        bytes
            .split(|&b| b == 0)
            .map(|w| OsString::from(String::from_utf8_lossy(w).into_owned()))
            .collect()
    }
}

/// Parses `bytes` as the words after the program's name.
pub fn check(bytes: &[u8]) {
    let mut line = vec![OsString::from("queens-simd")];
    line.extend(words(bytes));
    match parse_from(line) {
        Err(why) => {
            assert!(!why.is_empty() && !why.contains('\n'), "{why:?}");
        }
        Ok(Parsed::Print(text)) => assert!(!text.is_empty()),
        Ok(Parsed::Request(request)) => check_request(&request),
    }
}

fn check_request(request: &Request) {
    match request {
        Request::Kernels { .. } => {}
        Request::Verify { max_n, .. } => assert!(*max_n <= queens_simd::verify::MAX_VERIFY_N),
        Request::Merge(merge) => {
            assert!(!merge.files.is_empty());
            if let Some(recount) = &merge.recount {
                assert!(recount.subproblems >= 1);
                assert!(recount.max_memory.is_none_or(|m| m > 0));
                // A search allocates nothing: no limit applies to it.
                if recount.by == RecountBy::Search {
                    assert!(recount.max_memory.is_none());
                }
            }
        }
        Request::Script(campaign) => {
            assert!(campaign.n <= queens_simd::MAX_N);
            assert!(campaign.shards >= 1 && campaign.cores >= 1);
            assert!(campaign.cross_check <= campaign.shards);
            assert!(campaign.time >= queens_simd_cli::time_limit::SHORTEST);
            assert!(campaign.max_array_size >= 1);
        }
        Request::Status(status) => {
            // --fresh, if given, is bounded (30 days), as its parser says.
            let month = std::time::Duration::from_secs(30 * 86_400);
            assert!(status.fresh.is_none_or(|fresh| fresh <= month));
        }
        Request::Solve(solve) => {
            assert!(solve.n <= queens_simd::MAX_N);
            if solve.format == Format::Hex {
                assert!(solve.n <= 8);
            }
            if solve.count && solve.format != Format::Board {
                assert_eq!(solve.format, Format::Json);
            }
            if let Some(plan) = &solve.plan {
                assert!(solve.count);
                // Auto, or a kernel whose row of the kernel table has a
                // plan method.
                assert!(solve.kernel.splits());
                if plan.shard.is_some() || plan.checkpoint.is_some() {
                    assert!(!solve.time);
                }
            }
            // A memory limit only for a count with a join kernel.
            if let Some(limit) = solve.max_memory {
                assert!(limit > 0);
                assert!(solve.count && solve.task == Task::Count);
                let counting =
                    queens_simd::dispatch::resolve_for(solve.kernel, Task::Count, solve.n);
                assert_eq!(Method::of(counting), Some(Method::Join));
            }
        }
    }
}
