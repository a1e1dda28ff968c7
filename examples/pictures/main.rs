//! Draws the pictures of `docs/` from the kernels' real states, read
//! through the library's trace hooks (`queens_simd::trace`): nothing in a
//! picture is drawn by hand.
//!
//! ```text
//! cargo run --release --features trace --example pictures             # (re)writes docs/pictures/*.svg
//! cargo run --release --features trace --example pictures -- --check  # fails if any picture differs
//! ```
//!
//! CI runs `--check`, so a committed picture cannot drift from the code
//! that draws it or from the kernel it shows. The pictures hold integers
//! only (coordinates, counts), so every machine draws the same bytes.

mod architecture;
mod band_rule;
mod board;
mod davidad;
mod join;
mod plan;
mod svg;
mod symmetric;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A picture: its file under `docs/pictures/`, and the code that draws it.
pub struct Picture {
    pub file: &'static str,
    pub draw: fn() -> Result<String, queens_simd::Error>,
}

fn pictures() -> Vec<&'static Picture> {
    [
        davidad::PICTURES,
        symmetric::PICTURES,
        plan::PICTURES,
        join::PICTURES,
        band_rule::PICTURES,
        architecture::PICTURES,
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn main() -> ExitCode {
    let mut check = false;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--only" => only = args.next(),
            _ => {
                eprintln!("usage: pictures [--check] [--only FILE]");
                return ExitCode::from(2);
            }
        }
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures");
    let mut failed = 0;
    for picture in pictures() {
        if only.as_deref().is_some_and(|only| only != picture.file) {
            continue;
        }
        let path: PathBuf = dir.join(picture.file);
        let drawn = match (picture.draw)() {
            Ok(drawn) => drawn,
            Err(error) => {
                eprintln!("{}: cannot draw it on this machine: {error}", picture.file);
                failed += 1;
                continue;
            }
        };
        if check {
            match std::fs::read_to_string(&path) {
                Ok(committed) if committed == drawn => println!("{}: unchanged", picture.file),
                Ok(_) => {
                    eprintln!(
                        "{}: differs from what the code draws; run \
                         `cargo run --release --features trace --example pictures` and commit it",
                        path.display()
                    );
                    failed += 1;
                }
                Err(error) => {
                    eprintln!("{}: {error}", path.display());
                    failed += 1;
                }
            }
        } else if let Err(error) = std::fs::write(&path, &drawn) {
            eprintln!("{}: {error}", path.display());
            failed += 1;
        } else {
            println!("{}: written", path.display());
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
