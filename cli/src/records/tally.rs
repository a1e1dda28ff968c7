//! [`Tally`]: the count of each subproblem of a plan that a record accounts
//! for, and its two text fields: a bitmap of which subproblems, and their
//! counts.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use queens_simd::Count;

/// Which subproblems of a plan of `plan_len` a record accounts for, and
/// each one's count.
///
/// Only the subproblems here take memory (a B-tree of them, about 26 to 40
/// bytes each), not the plan: `merge` holds one tally per file, and a shard
/// of a plan of 59,640 subproblems may hold none of them. A dense
/// `Option<Count>` per subproblem of the plan took 32 bytes × plan × files.
/// A B-tree also keeps a checkpoint's inserts, which come in the order the
/// counts finish, at O(log n) each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// The subproblems here, by index, with their counts; every index is
    /// below `plan_len`.
    counts: BTreeMap<usize, Count>,
    plan_len: usize,
}

/// The most hexadecimal digits of one count: a `u128`.
const MAX_COUNT_DIGITS: usize = 32;

/// The digits [`Tally::bitmap`] writes.
const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

impl Tally {
    /// No subproblem of a plan of `plan_len`.
    pub fn empty(plan_len: usize) -> Tally {
        Tally {
            counts: BTreeMap::new(),
            plan_len,
        }
    }

    /// Records `count` for subproblem `index`; false (and nothing changed)
    /// if it is already there or past the plan.
    pub fn insert(&mut self, index: usize, count: Count) -> bool {
        if index >= self.plan_len {
            return false;
        }
        match self.counts.entry(index) {
            Entry::Vacant(slot) => {
                slot.insert(count);
                true
            }
            Entry::Occupied(_) => false,
        }
    }

    /// Subproblem `index`'s count, if it is here.
    pub fn get(&self, index: usize) -> Option<Count> {
        self.counts.get(&index).copied()
    }

    /// Whether subproblem `index` is here.
    pub fn contains(&self, index: usize) -> bool {
        self.counts.contains_key(&index)
    }

    /// How many subproblems are here.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The subproblems here and their counts, by index.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Count)> + '_ {
        self.counts.iter().map(|(&index, &count)| (index, count))
    }

    /// The sum of the counts, or `None` if it does not fit a [`Count`].
    pub fn total(&self) -> Option<Count> {
        self.iter()
            .try_fold(0 as Count, |sum, (_, count)| sum.checked_add(count))
    }

    /// Which subproblems are here: lowercase hexadecimal, two digits per
    /// byte of 8 subproblems, bit `i % 8` of byte `i / 8` for subproblem
    /// `i`. The whole plan's bits, as the file format has them: a file
    /// holds the plan's length once, memory holds only what is here.
    pub fn bitmap(&self) -> String {
        let mut bytes = vec![0u8; self.plan_len.div_ceil(8)];
        for &index in self.counts.keys() {
            // Every index is below `plan_len` (`insert`, `decode`).
            bytes[index / 8] |= 1 << (index % 8);
        }
        let mut text = String::with_capacity(bytes.len() * 2);
        for byte in bytes {
            text.push(char::from(HEX_DIGITS[usize::from(byte >> 4)]));
            text.push(char::from(HEX_DIGITS[usize::from(byte & 15)]));
        }
        text
    }

    /// Their counts, by index, in lowercase hexadecimal without leading
    /// zeros, separated by commas; empty if none is here.
    pub fn counts(&self) -> String {
        let mut text = String::new();
        for (at, (_, count)) in self.iter().enumerate() {
            if at > 0 {
                text.push(',');
            }
            text.push_str(&format!("{count:x}"));
        }
        text
    }

    /// The inverse of [`Tally::bitmap`] and [`Tally::counts`] for a plan of
    /// `plan_len`. Only what they write is accepted: exact length (the
    /// bitmap's, and for the counts at most 33 bytes per subproblem),
    /// lowercase digits, no bit past the plan, no leading zero, no empty
    /// item, one count per subproblem, each fitting a [`Count`]. What it
    /// holds grows with the subproblems named, not with the plan: a record
    /// of an empty shard of a huge plan costs its bitmap's text only.
    pub fn decode(bitmap: &str, counts: &str, plan_len: usize) -> Result<Tally, String> {
        let digits = plan_len.div_ceil(8) * 2;
        if bitmap.len() != digits {
            return Err(format!(
                "has a bitmap of {} hex digits, where a plan of {plan_len} subproblems needs {digits}",
                bitmap.len()
            ));
        }
        // At most one count per subproblem of the plan, each of at most
        // 32 digits and a comma: checked before any is read.
        let most = plan_len.saturating_mul(MAX_COUNT_DIGITS + 1);
        if counts.len() > most {
            return Err(format!(
                "has counts of {} bytes, more than the {most} that {plan_len} counts of at most {MAX_COUNT_DIGITS} hex digits take",
                counts.len()
            ));
        }
        let mut items = (!counts.is_empty())
            .then(|| counts.split(','))
            .into_iter()
            .flatten();
        // In increasing index order, so that the B-tree is built full.
        let mut entries: Vec<(usize, Count)> = Vec::new();
        for (at, pair) in bitmap.as_bytes().chunks(2).enumerate() {
            let byte = (hex_digit(pair[0])? << 4) | hex_digit(pair[1])?;
            for bit in 0..8 {
                if byte & 1 << bit == 0 {
                    continue;
                }
                let index = at * 8 + bit;
                if index >= plan_len {
                    return Err(format!(
                        "has a bitmap that names subproblem {index}, past the plan's {plan_len}"
                    ));
                }
                let item = items.next().ok_or_else(|| {
                    format!(
                        "has a bitmap that names more subproblems than it has counts ({})",
                        entries.len()
                    )
                })?;
                entries.push((index, parse_count(item, index)?));
            }
        }
        if items.next().is_some() {
            return Err(format!(
                "has more counts than its bitmap names subproblems ({})",
                entries.len()
            ));
        }
        Ok(Tally {
            counts: entries.into_iter().collect(),
            plan_len,
        })
    }
}

/// One lowercase hexadecimal digit.
fn hex_digit(byte: u8) -> Result<u8, String> {
    match byte {
        b'0'..=b'9' => Ok(byte - b'0'),
        b'a'..=b'f' => Ok(byte - b'a' + 10),
        _ => Err(format!(
            "has {:?} in its bitmap, not a lowercase hex digit",
            char::from(byte)
        )),
    }
}

/// One count of the counts field: `0`, or lowercase hex without leading
/// zeros, at most 32 digits.
fn parse_count(item: &str, index: usize) -> Result<Count, String> {
    let canonical = !item.is_empty()
        && item.len() <= MAX_COUNT_DIGITS
        && item
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && (item == "0" || !item.starts_with('0'));
    if !canonical {
        let shown: String = item.chars().take(40).collect();
        return Err(format!(
            "has '{shown}' as the count of subproblem {index}, not a hex number of at most {MAX_COUNT_DIGITS} digits"
        ));
    }
    Count::from_str_radix(item, 16)
        .map_err(|_| format!("has a count of subproblem {index} that is not a hex number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(plan_len: usize, entries: &[(usize, Count)]) -> Tally {
        let mut tally = Tally::empty(plan_len);
        for &(index, count) in entries {
            assert!(tally.insert(index, count));
        }
        tally
    }

    #[test]
    fn round_trips_through_its_fields() {
        for plan_len in [1, 7, 8, 9, 646, 4018] {
            let entries: Vec<(usize, Count)> = (0..plan_len)
                .filter(|i| i % 3 == 1 || *i == plan_len - 1)
                .map(|i| (i, (i as Count) << (i % 100)))
                .collect();
            let tally = tally(plan_len, &entries);
            assert_eq!(tally.len(), entries.len());
            let (bitmap, counts) = (tally.bitmap(), tally.counts());
            assert_eq!(Tally::decode(&bitmap, &counts, plan_len), Ok(tally.clone()));
            assert!(Tally::decode(&bitmap, &counts, plan_len + 8).is_err());
        }
        let empty = Tally::empty(9);
        assert_eq!(
            (empty.bitmap().as_str(), empty.counts().as_str()),
            ("0000", "")
        );
        assert_eq!(Tally::decode("0000", "", 9), Ok(empty));
    }

    #[test]
    fn only_what_it_writes_is_read() {
        let good = tally(9, &[(0, 8), (8, 0x10)]);
        assert_eq!(Tally::decode("0101", "8,10", 9), Ok(good));
        for (bitmap, counts) in [
            ("0101", "8"),                                   // a count missing
            ("0101", "8,10,1"),                              // one too many
            ("0101", "8,,10"),                               // an empty item
            ("0101", "8,010"),                               // a leading zero
            ("0101", "8,1G"),                                // not hex
            ("0101", "8,1A"),                                // upper case
            ("0101", "8,+1"),                                // a sign
            ("0101", "8, 10"),                               // a space
            ("0101", "8,100000000000000000000000000000000"), // 33 digits
            ("0102", "8,10"),                                // a bit past the plan
            ("01A1", "8,10"),                                // upper-case bitmap
            ("010", "8"),                                    // odd length
            ("010100", "8,10"),                              // too long
            ("0000", "8"),                                   // a count for nothing
        ] {
            assert!(
                Tally::decode(bitmap, counts, 9).is_err(),
                "{bitmap} {counts}"
            );
        }
        assert!(Tally::decode("01", &format!("{:x}", Count::MAX), 1).is_ok());
    }

    #[test]
    fn totals_are_checked() {
        assert_eq!(tally(3, &[(0, 5), (2, 7)]).total(), Some(12));
        assert_eq!(tally(3, &[(0, Count::MAX), (1, 1)]).total(), None);
        let mut once = Tally::empty(2);
        assert!(once.insert(1, 3));
        assert!(!once.insert(1, 4), "a subproblem is counted once");
        assert!(!once.insert(2, 4), "past the plan");
        assert_eq!(once.get(1), Some(3));
    }

    #[test]
    fn memory_follows_the_subproblems_here_not_the_plan() {
        // A plan far too large for a slot per subproblem: a dense tally
        // could not even be made empty.
        let huge = usize::MAX / 2;
        let mut many = Tally::empty(huge);
        // Out of order, as a checkpoint's counts finish.
        for (index, count) in [(huge - 1, 0x10), (3, 8), (1 << 40, 0)] {
            assert!(many.insert(index, count));
        }
        assert!(!many.insert(huge, 1), "past the plan");
        assert!(!many.insert(3, 9), "a subproblem is counted once");
        assert_eq!(
            many.iter().collect::<Vec<_>>(),
            [(3, 8), (1 << 40, 0), (huge - 1, 0x10)]
        );
        assert_eq!((many.len(), many.total()), (3, Some(0x18)));
        assert!(many.contains(1 << 40) && !many.contains(4));
        assert_eq!(many.get(huge - 1), Some(0x10));
        assert_eq!(many.counts(), "8,0,10");
        // Its text is still the whole plan's bitmap, and reads back.
        let plan_len = 1 << 24;
        let sparse = tally(plan_len, &[(plan_len - 1, 2), (0, 8), (1 << 20, 0)]);
        let bitmap = sparse.bitmap();
        assert_eq!(bitmap.len(), plan_len / 4);
        assert_eq!(&bitmap[..2], "01");
        assert_eq!(&bitmap[bitmap.len() - 2..], "80");
        assert_eq!(bitmap.bytes().filter(|&b| b != b'0').count(), 3);
        assert_eq!(sparse.counts(), "8,0,2");
        assert_eq!(
            Tally::decode(&bitmap, &sparse.counts(), plan_len),
            Ok(sparse)
        );
    }
}
