//! The exit statuses of `queens-simd`, and the lines it writes on stderr.
//!
//! Every line for stderr goes through [`Messages`], which never panics
//! (`eprintln!` does, on a full disk, `/dev/full` or a closed pipe): a
//! count whose warning cannot be written still prints its total on stdout,
//! and its exit status says that a message was lost. They are written
//! through a file of their own on descriptor 2 (the `streams` module), where
//! a closed or read-only stderr fails the write instead of taking it.

use std::cell::{Cell, OnceCell, RefCell};
use std::fmt::Display;
use std::fs::File;
use std::io::Write;
use std::process::ExitCode;

/// How `queens-simd` ends. README.md's "Exit status" table lists the same
/// codes and words (a test compares them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything asked was done and written. A reader that closes stdout
    /// early (`| head`) ends the output quietly with this status.
    Success = 0,
    /// Output failed: stdout, stderr or the checkpoint could not be written
    /// (a full disk, `/dev/full`, a closed or read-only stdout or stderr).
    /// What was written stands: a count whose warning was lost has printed
    /// its total. A stdout that is closed or read-only from the start is
    /// refused before anything is done.
    OutputFailed = 1,
    /// Bad input, or a request refused: N out of range, an unknown kernel,
    /// a malformed flag, a file that fails its checks, a count over
    /// `--max-memory`. One line on stderr says why.
    Refused = 2,
    /// A count was proved wrong by another count of the same thing:
    /// `--verify` found a kernel that disagrees with the portable one,
    /// `--sample K --check` a row set whose join and search differ,
    /// `merge` two records of one shard whose counts differ, or
    /// `merge --recount` a record that the recount here does not match.
    /// `merge --format json` prints its object all the same, with
    /// `"agree":false`.
    Disagreement = 3,
    /// The system refused memory that a count needed (an address-space
    /// limit, `ulimit -v`): the count stopped, nothing was printed.
    OutOfMemory = 4,
}

impl Status {
    /// Every status, in the order of the README's table.
    pub const ALL: [Status; 5] = [
        Status::Success,
        Status::OutputFailed,
        Status::Refused,
        Status::Disagreement,
        Status::OutOfMemory,
    ];

    /// The exit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Its name in the README's table.
    pub fn name(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::OutputFailed => "output failed",
            Status::Refused => "bad input or refused",
            Status::Disagreement => "counts disagree",
            Status::OutOfMemory => "out of memory",
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

/// The lines written on stderr, each prefixed `queens-simd: ` and written
/// whole, and whether any could not be.
#[derive(Debug, Default)]
pub struct Messages {
    lost: Cell<bool>,
    /// Descriptor 2, opened at the first line; `None` if it cannot take
    /// output (then every line is lost).
    stderr: OnceCell<Option<File>>,
    /// What a finished count says if its result cannot be written: its
    /// total, and where it is kept.
    finished: RefCell<Option<String>>,
}

impl Messages {
    /// Writes `queens-simd: {line}` on stderr.
    pub fn say(&self, line: impl Display) {
        self.write_line(format_args!("queens-simd: {line}"));
    }

    /// Writes `line` on stderr as it is; a failure is remembered, not
    /// raised: the work goes on, and [`Messages::status`] reports it at the
    /// end.
    pub fn write_line(&self, line: impl Display) {
        let text = format!("{line}\n");
        let stderr = self.stderr.get_or_init(|| super::streams::stderr().ok());
        // One `write_all` of the whole line on a `&File`: no buffer holds
        // part of it back.
        let written = match stderr {
            Some(file) => (&*file).write_all(text.as_bytes()).is_ok(),
            None => false,
        };
        if !written {
            self.lost.set(true);
        }
    }

    /// `error: {line}`, and the status it ends with.
    pub fn error(&self, line: impl Display, status: Status) -> Status {
        self.say(format_args!("error: {line}"));
        status
    }

    /// Keeps `note` (a finished count's total, and where it is kept) for
    /// the line of a result that cannot be written: a full disk must not
    /// lose hours of counting.
    pub fn finished(&self, note: String) {
        self.finished.replace(Some(note));
    }

    /// The note of [`Messages::finished`], if a count finished.
    pub fn finished_note(&self) -> Option<String> {
        self.finished.borrow().clone()
    }

    /// Remembers that something for stdout or stderr was lost.
    pub fn lose(&self) {
        self.lost.set(true);
    }

    /// `status`, unless it is a success after which a line was lost.
    pub fn status(&self, status: Status) -> Status {
        if status == Status::Success && self.lost.get() {
            Status::OutputFailed
        } else {
            status
        }
    }
}

/// A library error as the command line says it: the library's text, which
/// names no flag, with the flags that help ("--kernels lists them all",
/// "(see --kernels)", "(or --unique)"). Where a hint goes inside the
/// sentence, the command line writes the whole sentence from the error's
/// parts; it never edits the library's text, whose wording may change.
pub(crate) fn message(error: &queens_simd::Error) -> String {
    use queens_simd::kernel::Method;
    use queens_simd::suggest::quoted_or;
    use queens_simd::{Error, Kernel};
    let text = error.to_string();
    match error {
        Error::UnknownKernel(name) => match Error::kernels_near(name).as_slice() {
            // Not near any name: the library's list of them all.
            [] => text,
            near => format!(
                "unknown kernel '{name}' (did you mean {}? --kernels lists them all)",
                quoted_or(near)
            ),
        },
        Error::KernelUnavailable { .. } => format!("{text} (see --kernels)"),
        // The library speaks of plans; the command line of its flags.
        Error::NotSplittable(kernel) => {
            let splitting: Vec<String> = Method::ALL
                .iter()
                .map(|method| {
                    quoted_or(&method.kernels().rev().map(Kernel::name).collect::<Vec<_>>())
                })
                .collect();
            format!(
                "kernel '{kernel}' solves whole boards only; threads, shards and checkpoints need a kernel that splits the board into a plan: {} (or 'auto')",
                splitting.join(", ")
            )
        }
        Error::CountOnly(kernel) => format!(
            "kernel '{kernel}' counts solutions only; to list them (or --unique), use {}",
            quoted_or(
                &Error::listing_instead(*kernel)
                    .map(Kernel::name)
                    .collect::<Vec<_>>()
            )
        ),
        Error::OutOfMemory { .. } => {
            format!("{text}, which the command line checks before it starts")
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_simd::{Error, Kernel};

    /// The command line's words for the library's errors, as they were
    /// before the library's lost their flags: each hint lands where it was.
    #[test]
    fn messages_add_the_command_lines_hints() {
        let unknown = |name: &str| message(&Error::UnknownKernel(name.into()));
        assert_eq!(
            unknown("symetric"),
            "unknown kernel 'symetric' (did you mean 'symmetric'? --kernels lists them all)"
        );
        let whole = unknown("no-such-kernel-at-all");
        assert!(
            whole.contains(" (known: auto, ") && !whole.contains("--"),
            "{whole}"
        );
        assert_eq!(
            message(&Error::KernelUnavailable {
                kernel: Kernel::Avx,
                because: "this CPU or its operating system lacks AVX",
            }),
            "kernel 'avx' is not available: this CPU or its operating system lacks AVX \
             (see --kernels)"
        );
        assert_eq!(
            message(&Error::CountOnly(Kernel::JoinAvx2)),
            "kernel 'join-avx2' counts solutions only; to list them (or --unique), use \
             'symmetric', 'portable' or 'auto'"
        );
        assert_eq!(
            message(&Error::OutOfMemory { bytes: 96 << 20 }),
            "out of memory: a count could not allocate 96.0 MiB for its plan, tables or \
             buffers: the system gave it less than the memory it was estimated to need, which \
             the command line checks before it starts"
        );
        assert_eq!(
            message(&Error::InvalidThreads),
            Error::InvalidThreads.to_string()
        );
    }

    #[test]
    fn codes_are_distinct_and_in_order() {
        for (at, status) in Status::ALL.iter().enumerate() {
            assert_eq!(usize::from(status.code()), at);
        }
    }

    #[test]
    fn a_lost_line_turns_only_success_into_output_failed() {
        let messages = Messages::default();
        assert_eq!(messages.status(Status::Success), Status::Success);
        messages.lose();
        assert_eq!(messages.status(Status::Success), Status::OutputFailed);
        assert_eq!(messages.status(Status::Refused), Status::Refused);
        assert_eq!(messages.status(Status::Disagreement), Status::Disagreement);
    }
}
