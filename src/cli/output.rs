//! Writing solutions in each format, through one buffered writer.

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::{Board, Count, Kernel, fundamental};

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
        write_json_fields(out, n, kernel, unique)?;
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
        kernel.for_each_solution(n, &mut visit)?
    };
    if let Some(e) = failed {
        return Err(e.into());
    }
    match format {
        Format::Board => {
            let what = if unique {
                "fundamental solution"
            } else {
                "solution"
            };
            let plural = if total == 1 { "" } else { "s" };
            writeln!(out, "{total} {what}{plural}")?;
        }
        Format::Json => writeln!(out, "],\"count\":{total}}}")?,
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
    n: usize,
    kernel: Kernel,
    unique: bool,
) -> io::Result<()> {
    write!(
        out,
        "{{\"n\":{n},\"kernel\":\"{kernel}\",\"unique\":{unique}"
    )
}
