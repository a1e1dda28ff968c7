//! A number with its noun in the right number: "1 row set", "2 row sets".
//! Every message that counts something goes through [`counted`], so that
//! none says "1 threads".

use core::fmt::Display;

/// `n` and `one` if `n` is 1, else `n` and `many`.
pub fn counted<N: Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(counted(1usize, "row set", "row sets"), "1 row set");
        assert_eq!(counted(0usize, "row set", "row sets"), "0 row sets");
        assert_eq!(counted(2u64, "thread", "threads"), "2 threads");
    }
}
