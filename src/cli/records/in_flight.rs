//! A checkpoint's pieces in flight: for each join piece begun and not
//! finished, how many row sets it has, which of them are counted (ranges
//! of their numbers, `start..end`, end excluded: `"0..12,30..41"`) and
//! their share of the count. A resumed count leaves those row sets out, so
//! that a stop loses only the blocks that were being counted.

use serde::{Deserialize, Serialize};

use crate::Count;
use crate::plan::{InFlight, PartsDone};

use super::{Tally, parse_decimal, shown};

/// One piece in flight as written.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PieceFile {
    subproblem: usize,
    row_sets: u32,
    done: String,
    count: String,
}

/// `in_flight` as written, by subproblem number.
pub(super) fn encode(in_flight: &InFlight) -> Vec<PieceFile> {
    in_flight
        .iter()
        .map(|(index, parts)| PieceFile {
            subproblem: index,
            row_sets: parts.of(),
            done: parts
                .ranges()
                .iter()
                .map(|range| format!("{}..{}", range.start, range.end))
                .collect::<Vec<_>>()
                .join(","),
            count: parts.count().to_string(),
        })
        .collect()
}

/// The pieces in flight of a checkpoint whose finished subproblems are
/// `tally`, those of its shard marked in `in_shard`: each in the shard,
/// not finished, listed once, with some of its row sets counted.
pub(super) fn decode(
    pieces: &[PieceFile],
    in_shard: &[bool],
    tally: &Tally,
) -> Result<InFlight, String> {
    let mut in_flight = InFlight::new();
    for piece in pieces {
        let index = piece.subproblem;
        if !in_shard.get(index).copied().unwrap_or(false) {
            return Err(format!(
                "has subproblem {index} in flight, which is not in its shard"
            ));
        }
        if tally.contains(index) {
            return Err(format!(
                "has subproblem {index} both finished and in flight"
            ));
        }
        if in_flight.get(index).is_some() {
            return Err(format!("has subproblem {index} in flight twice"));
        }
        let parts = parts_of(piece)
            .map_err(|why| format!("has subproblem {index} in flight with {why}"))?;
        in_flight.insert(index, parts);
    }
    Ok(in_flight)
}

/// The parts of one piece in flight, checked.
fn parts_of(piece: &PieceFile) -> Result<PartsDone, String> {
    let count: Count = parse_decimal(&piece.count)?;
    let mut parts = PartsDone::new(piece.row_sets);
    // The whole count goes with the first range: only the sum is kept.
    let mut share = Some(count);
    for text in piece.done.split(',') {
        let range = text
            .split_once("..")
            .and_then(|(start, end)| Some(start.parse::<u32>().ok()?..end.parse::<u32>().ok()?))
            .ok_or_else(|| format!("row sets '{}', not START..END", shown(text)))?;
        parts
            .add(range, share.take().unwrap_or(0))
            .map_err(str::to_owned)?;
    }
    // Every row set counted is possible: a save between a piece's last
    // part and its end. The resumed count then reports it finished.
    Ok(parts)
}
