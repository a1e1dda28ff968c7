//! Names close to a mistyped one, to suggest instead of listing every
//! name: `unknown kernel 'avx3' (did you mean 'avx'? ...)`, and a
//! misspelt subcommand on the command line.
//!
//! Closeness is the optimal-string-alignment distance (one edit: insert,
//! delete or replace a character, or swap two neighbours), ignoring ASCII
//! case, to the whole name or to one of its hyphen-separated words, so
//! that `avx2` finds `lanes-avx2` and `join-avx2`. A name is close when at
//! most a third of the typed characters, rounded up, must change. Of the
//! close names, those at the smallest distance are suggested, whole-name
//! matches before word matches: `avx3` gets `avx` (one edit from the whole
//! name), not also `join-avx2` (one edit from a word).

use alloc::string::String;
use alloc::vec::Vec;

/// The names among `names` closest to `typed`, in their order; none when
/// no name is close.
pub fn closest<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let typed: Vec<char> = typed.chars().map(|c| c.to_ascii_lowercase()).collect();
    let most = typed.len().div_ceil(3).max(1);
    // (edits, whether through a word rather than the whole name)
    let mut best = (most + 1, true);
    let mut found = Vec::new();
    for name in names {
        let whole = (distance(&typed, name, most), false);
        let words = name
            .split('-')
            .filter(|word| word.len() < name.len())
            .map(|word| (distance(&typed, word, most), true));
        let key = words.fold(whole, core::cmp::min);
        if key.0 > most || key > best {
            continue;
        }
        if key < best {
            best = key;
            found.clear();
        }
        found.push(name);
    }
    found
}

/// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
pub fn quoted_or(names: &[&str]) -> String {
    let mut text = String::new();
    for (at, name) in names.iter().enumerate() {
        let separator = match at {
            0 => "",
            _ if at + 1 == names.len() => " or ",
            _ => ", ",
        };
        text.push_str(separator);
        text.push('\'');
        text.push_str(name);
        text.push('\'');
    }
    text
}

/// The edits from `typed` to `name`, or `most + 1` for any number past
/// `most` (a long input is not compared character by character).
fn distance(typed: &[char], name: &str, most: usize) -> usize {
    let name: Vec<char> = name.chars().collect();
    if typed.len().abs_diff(name.len()) > most {
        return most + 1;
    }
    // Three rows of the edit table: two back (for a swap), one back, this.
    let mut before: Vec<usize> = (0..=name.len()).collect();
    let mut last = before.clone();
    let mut row = before.clone();
    for (i, &t) in typed.iter().enumerate() {
        row[0] = i + 1;
        for (j, &c) in name.iter().enumerate() {
            let replace = last[j] + usize::from(t != c);
            let mut edits = replace.min(last[j + 1] + 1).min(row[j] + 1);
            if i > 0 && j > 0 && t == name[j - 1] && typed[i - 1] == c {
                edits = edits.min(before[j - 1] + 1);
            }
            row[j + 1] = edits;
        }
        core::mem::swap(&mut before, &mut last);
        core::mem::swap(&mut last, &mut row);
    }
    last[name.len()].min(most + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNELS: [&str; 6] = ["asm", "lanes-avx2", "join-avx2", "join", "avx", "asm-avx"];

    #[test]
    fn suggests_the_nearest_names_only() {
        assert_eq!(closest("avx3", KERNELS), ["avx"]);
        assert_eq!(closest("avx2", KERNELS), ["lanes-avx2", "join-avx2"]);
        assert_eq!(closest("jion", KERNELS), ["join"]);
        assert_eq!(closest("JOIN-AVX", KERNELS), ["join-avx2"]);
        assert_eq!(closest("merg", ["merge", "status"]), ["merge"]);
        assert_eq!(closest("mrege", ["merge", "status"]), ["merge"]);
        assert_eq!(closest("mreg", ["merge", "status"]), ["merge"]);
    }

    #[test]
    fn suggests_nothing_far() {
        for typed in ["", "x", "nope", "portable-kernel", &"a".repeat(10_000)] {
            assert!(closest(typed, KERNELS).is_empty(), "{typed}");
        }
    }

    #[test]
    fn counts_edits() {
        let edits = |a: &str, b| distance(&a.chars().collect::<Vec<_>>(), b, 10);
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("ab", "ba"), 1);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(edits("abc", "abc"), 0);
    }

    #[test]
    fn lists_names_with_or() {
        assert_eq!(quoted_or(&["a"]), "'a'");
        assert_eq!(quoted_or(&["a", "b"]), "'a' or 'b'");
        assert_eq!(quoted_or(&["a", "b", "c"]), "'a', 'b' or 'c'");
    }
}
