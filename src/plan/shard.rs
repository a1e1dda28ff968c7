//! [`Shard`]: one of `m` parts of a plan, for one machine of many.

use core::fmt;
use core::str::FromStr;

use crate::Error;

/// Part `index` of `shards` (`i/m`, `0 <= i < m`): every `m`-th subproblem of
/// a plan (see [`super::Plan::shard`]). `0/1` is the whole plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: usize,
    shards: usize,
}

impl Shard {
    /// The whole plan as one shard, `0/1`.
    pub const WHOLE: Shard = Shard {
        index: 0,
        shards: 1,
    };

    /// Shard `index` of `shards`; fails unless `index < shards`.
    pub fn new(index: usize, shards: usize) -> Result<Shard, Error> {
        if index < shards {
            Ok(Shard { index, shards })
        } else if shards == 0 {
            Err(Error::InvalidShard(
                "the number of shards must be at least 1".into(),
            ))
        } else {
            Err(Error::InvalidShard(format!(
                "shard {index}/{shards} does not exist: shards are numbered 0 to {}",
                shards - 1
            )))
        }
    }

    /// `i`: which part, from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// `m`: how many shards the plan is cut into. (Not a count of
    /// solutions, which every `count` of the crate returns.)
    pub fn shards(self) -> usize {
        self.shards
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.shards)
    }
}

impl FromStr for Shard {
    type Err = Error;

    /// Parses `i/m`, two whole numbers.
    fn from_str(text: &str) -> Result<Shard, Error> {
        let malformed =
            || Error::InvalidShard(format!("'{text}' is not i/m, two whole numbers with i < m"));
        let (index, shards) = text.split_once('/').ok_or_else(malformed)?;
        let index = index.trim().parse().map_err(|_| malformed())?;
        let shards = shards.trim().parse().map_err(|_| malformed())?;
        Shard::new(index, shards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!("2/5".parse::<Shard>(), Shard::new(2, 5));
        assert_eq!(Shard::new(2, 5).unwrap().to_string(), "2/5");
        for bad in ["5/5", "0/0", "-1/3", "1", "a/b", "1/2/3", ""] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(Error::InvalidShard(_))),
                "{bad}"
            );
        }
    }
}
