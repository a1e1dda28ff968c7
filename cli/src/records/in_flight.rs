//! A checkpoint's pieces in flight: for each join piece begun and not
//! finished, how many row sets it has, which of them are counted (ranges
//! of their numbers, `start..end`, end excluded: `"0..12,30..41"`) and
//! their share of the count. A resumed count leaves those row sets out, so
//! that a stop loses only the blocks that were being counted.

use serde::{Deserialize, Serialize};

use queens_simd::Count;
use queens_simd::plan::{InFlight, PartsDone};

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
    // Its refusal says "has count ...", which follows "with" here.
    let count: Count = parse_decimal(&piece.count)
        .map_err(|why| why.strip_prefix("has ").unwrap_or(&why).to_owned())?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{Checkpoint, PlanId, Plans};
    use queens_simd::kernel::Method;
    use queens_simd::plan::{Plan, Shard};

    fn piece(subproblem: usize, row_sets: u32, done: &str, count: &str) -> PieceFile {
        PieceFile {
            subproblem,
            row_sets,
            done: done.into(),
            count: count.into(),
        }
    }

    #[test]
    fn pieces_in_flight_round_trip_in_a_checkpoint() {
        let plan = Plan::with_method(Method::Join, 12).unwrap();
        let mut in_flight = InFlight::new();
        in_flight.add(3, 0..2, 9, 40).unwrap();
        in_flight.add(3, 5..9, 9, 2).unwrap();
        in_flight.add(7, 1..2, 4, 0).unwrap();
        let checkpoint = Checkpoint {
            in_flight,
            ..Checkpoint::start(PlanId::of(&plan), Shard::WHOLE, 0.5)
        };
        let bytes = checkpoint.to_bytes();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains("\"done\": \"0..2,5..9\""), "{text}");
        assert!(text.contains("\"count\": \"42\""), "{text}");
        let read = Checkpoint::parse(&bytes, &mut Plans::default()).unwrap();
        assert_eq!(read, checkpoint);
    }

    #[test]
    fn a_piece_in_flight_that_no_count_writes_is_refused() {
        let mut tally = Tally::empty(10);
        tally.insert(4, 1);
        let mut in_shard = vec![true; 10];
        in_shard[9] = false;
        let cases = [
            (
                piece(9, 5, "0..1", "0"),
                "has subproblem 9 in flight, which is not in its shard",
            ),
            (
                piece(12, 5, "0..1", "0"),
                "has subproblem 12 in flight, which is not in its shard",
            ),
            (
                piece(4, 5, "0..1", "0"),
                "has subproblem 4 both finished and in flight",
            ),
            (
                piece(2, 5, "0..3,2..4", "0"),
                "has subproblem 2 in flight with row sets counted twice",
            ),
            (
                piece(2, 5, "0..6", "0"),
                "has subproblem 2 in flight with a range of row sets that is empty or past the piece's",
            ),
            (
                piece(2, 5, "3..3", "0"),
                "has subproblem 2 in flight with a range of row sets that is empty or past the piece's",
            ),
            (
                piece(2, 5, "", "0"),
                "has subproblem 2 in flight with row sets '', not START..END",
            ),
            (
                piece(2, 5, "1-2", "0"),
                "has subproblem 2 in flight with row sets '1-2', not START..END",
            ),
            (
                piece(2, 5, "0..1", "-1"),
                "has subproblem 2 in flight with count '-1', not a whole decimal number",
            ),
        ];
        for (bad, why) in cases {
            assert_eq!(decode(&[bad], &in_shard, &tally).unwrap_err(), why);
        }
        let twice = [piece(2, 5, "0..1", "0"), piece(2, 5, "1..2", "0")];
        assert_eq!(
            decode(&twice, &in_shard, &tally).unwrap_err(),
            "has subproblem 2 in flight twice"
        );
        // All of a piece's row sets counted: saved between its last part
        // and its end, and read.
        let whole = decode(&[piece(2, 5, "0..5", "7")], &in_shard, &tally).unwrap();
        assert_eq!(whole.get(2).map(|p| (p.len(), p.count())), Some((5, 7)));
    }
}
