//! (being written)

use crate::Picture;

pub const PICTURES: &[Picture] = &[];
