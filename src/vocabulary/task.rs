//! [`Task`]: what a solve does, the key of `auto`'s choice.

/// What a solve does, for `auto`'s choice: the fastest kernel for counting
/// is not always the fastest for visiting every solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Task {
    /// Counting solutions.
    Count,
    /// Visiting every solution.
    Enumerate,
    /// Counting or visiting the fundamental solutions, one per class of
    /// the square's symmetries (`--unique`, [`crate::fundamental`]).
    Fundamental,
}

impl Task {
    /// Every task.
    pub const ALL: [Task; 3] = [Task::Count, Task::Enumerate, Task::Fundamental];
}
