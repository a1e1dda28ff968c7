//! Writing solutions in each format, through one buffered writer.

use std::io::{self, Write};
use std::ops::ControlFlow;

use queens_simd::{Board, Count, Kernel, fundamental};

use super::Failure;
use super::args::Format;

/// Lists every solution (or every fundamental one) of `n` in `format`,
/// followed by the total where the format has one.
pub fn list(
    out: &mut impl Write,
    kernel: Kernel,
    n: usize,
    unique: bool,
    format: Format,
) -> Result<(), Failure> {
    if format == Format::Json {
        write_json_fields(out, kernel, n, unique)?;
        out.write_all(b",\"solutions\":[")?;
    }
    let mut total: Count = 0;
    let mut failed = None;
    let mut visit = |board: &Board| match write_one(out, board, format, total) {
        Ok(()) => {
            total += 1;
            ControlFlow::Continue(())
        }
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    };
    // A break can only come from a failed write, kept in `failed`.
    let _ = if unique {
        fundamental::for_each(kernel, n, &mut visit)?
    } else {
        queens_simd::dispatch::for_each_solution(kernel, n, &mut visit)?
    };
    if let Some(e) = failed {
        return Err(e.into());
    }
    match format {
        Format::Board => {
            let (one, many) = if unique {
                ("fundamental solution", "fundamental solutions")
            } else {
                ("solution", "solutions")
            };
            writeln!(out, "{}", super::plural::counted(total, one, many))?;
        }
        Format::Json => {
            out.write_all(b"],")?;
            write_json_integer(out, "count", total)?;
            out.write_all(b"}\n")?;
        }
        Format::Columns | Format::Hex => {}
    }
    Ok(())
}

fn write_one(out: &mut impl Write, board: &Board, format: Format, index: Count) -> io::Result<()> {
    match format {
        Format::Board => writeln!(out, "{board}"),
        Format::Columns => {
            write_columns(out, board, " ")?;
            out.write_all(b"\n")
        }
        Format::Hex => {
            let bits = board.to_bitboard().map_err(io::Error::other)?;
            writeln!(out, "{bits:x}")
        }
        Format::Json => {
            out.write_all(if index == 0 { b"[" } else { b",[" })?;
            write_columns(out, board, ",")?;
            out.write_all(b"]")
        }
    }
}

/// The board's column indices, row 0 first, separated by `sep`.
fn write_columns(out: &mut impl Write, board: &Board, sep: &str) -> io::Result<()> {
    for (row, col) in board.columns().iter().enumerate() {
        let sep = if row == 0 { "" } else { sep };
        write!(out, "{sep}{col}")?;
    }
    Ok(())
}

/// Opens the JSON object every JSON output starts with: `{"n":…,"kernel":…,"unique":…`.
pub fn write_json_fields(
    out: &mut impl Write,
    kernel: Kernel,
    n: usize,
    unique: bool,
) -> io::Result<()> {
    write!(
        out,
        "{{\"n\":{n},\"kernel\":\"{kernel}\",\"unique\":{unique}"
    )
}

/// The suffix of the field that repeats an integer field as a decimal
/// string (`count` and `count_text`).
pub const TEXT_SUFFIX: &str = "_text";

/// Writes the JSON fields of an integer that can pass 2^53 (a count:
/// Q(26) does): `"NAME":VALUE,"NAME_text":"VALUE"`. The number stays as
/// it always was; readers that hold JSON numbers as doubles (JavaScript,
/// jq 1.6) round it past 2^53, and read the string exactly.
pub fn write_json_integer(
    out: &mut impl Write,
    name: &str,
    value: impl std::fmt::Display,
) -> io::Result<()> {
    write!(
        out,
        "\"{name}\":{value},\"{name}{TEXT_SUFFIX}\":\"{value}\""
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_past_2_to_the_53_reads_back_exactly() {
        // Q(27), the largest count known: past 2^53 (and past 2^57).
        let q27: Count = 234_907_967_154_122_528;
        let mut text = b"{".to_vec();
        write_json_integer(&mut text, "count", q27).unwrap();
        text.push(b'}');
        assert_eq!(
            String::from_utf8(text.clone()).unwrap(),
            r#"{"count":234907967154122528,"count_text":"234907967154122528"}"#
        );
        let read: serde_json::Value = serde_json::from_slice(&text).unwrap();
        let exact: Count = read["count_text"].as_str().unwrap().parse().unwrap();
        assert_eq!(exact, q27);
        // Q(27) happens to be a multiple of 32, so a double holds it; the
        // fundamental count of N = 27 (29363495934315694, `--unique`) is
        // not a multiple of 4, and a reader of doubles gets another count
        // from the number, the right one from the string.
        let u27: Count = 29_363_495_934_315_694;
        let mut text = b"{".to_vec();
        write_json_integer(&mut text, "count", u27).unwrap();
        text.push(b'}');
        let read: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_ne!(read["count"].as_f64().unwrap() as Count, u27);
        assert_eq!(
            read["count_text"].as_str().unwrap().parse::<Count>(),
            Ok(u27)
        );
        // Past 64 bits too (counts are 128-bit).
        let mut wide = b"{".to_vec();
        write_json_integer(&mut wide, "count", Count::MAX).unwrap();
        wide.push(b'}');
        let read: serde_json::Value = serde_json::from_slice(&wide).unwrap();
        assert_eq!(read["count_text"].as_str().unwrap(), Count::MAX.to_string());
    }
}
