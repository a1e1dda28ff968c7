//! The architecture: the crate's layers, bottom up, each a band that lists
//! the folders and files of `src/` in it as they are on disk, and an arrow
//! from a layer to each layer below that it imports, with how many pairs
//! of files import there, read from the source. (No line counts: they
//! would change the picture with every edit of `src/`; files, folders and
//! imports change it only when the structure changes.)
//!
//! The one thing written by hand is [`LAYERS`]: which folders and files of
//! `src/` make up each layer. Everything else is read from `src/` when the
//! picture is drawn. An import is a path outside comments and strings, in
//! a `use` or in code: from the root (`crate::…`), relative (`super::…`, `self::…`, a child module's name), or
//! through a name a `use` of the file brought in; it is followed through
//! the `pub use`s that re-export it to the file that defines it
//! (`crate::Kernel` is `vocabulary/kernel/mod.rs`, through `lib.rs` and
//! `kernel/mod.rs`).
//!
//! Drawing it checks the layering, and fails (exit status 1, with each file
//! and import named) if a file of `src/` is in no layer, if a layer names
//! what is not there, or if a file imports from a layer above its own. So
//! CI's `--check` holds the code to its layers, and the picture to the
//! code: a file added, moved or removed, or an import between layers
//! added or dropped, changes what is drawn.
//!
//! Its parts, in `architecture/`: `house.rs` puts each file of `src/` in
//! its layer and checks the imports between layers; `modules.rs` knows
//! the crate's modules and follows a path through the `pub use`s;
//! `scan.rs` reads one file's imports from its tokens (`tokens.rs`);
//! `picture.rs` draws what was read.

mod house;
mod modules;
mod picture;
mod scan;
mod tokens;

use std::path::Path;

use crate::Picture;
use house::House;

pub const PICTURES: &[Picture] = &[Picture {
    file: "architecture.svg",
    draw,
}];

/// A layer: its name, what lives there (in a few words), and its folders
/// and files, as paths under `src/` (a folder holds everything under it).
struct Layer {
    name: &'static str,
    what: &'static str,
    paths: &'static [&'static str],
}

/// The layers, bottom up: a layer may import its own and those below,
/// never one above. The one hand-written thing of the picture (and of
/// docs/architecture.md, which describes each): a file moved into a new
/// folder, or a new folder, is placed here.
const LAYERS: &[Layer] = &[
    Layer {
        name: "vocabulary",
        what: "the words every layer shares",
        paths: &["vocabulary"],
    },
    Layer {
        name: "support",
        what: "threads, random numbers",
        paths: &["support"],
    },
    Layer {
        name: "kernels",
        what: "the algorithms behind Solver",
        paths: &["kernel", "reference"],
    },
    Layer {
        name: "plan",
        what: "subproblems and shards",
        paths: &["plan"],
    },
    Layer {
        name: "dispatch",
        what: "which kernel runs, and how",
        paths: &["dispatch"],
    },
    Layer {
        name: "crate root",
        what: "count, solutions, verify",
        paths: &["lib.rs", "fundamental.rs", "verify.rs"],
    },
    Layer {
        name: "traces",
        what: "the kernels' states, for the pictures",
        paths: &["trace"],
    },
];

fn draw() -> Result<String, queens_simd::Error> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    match House::read(&src) {
        Ok(house) => Ok(picture::picture(&house)),
        Err(problems) => {
            eprintln!(
                "architecture.svg: src/ does not keep to the layers of examples/pictures/architecture.rs \
                 (LAYERS, bottom up; docs/architecture.md):"
            );
            for problem in &problems {
                eprintln!("  {problem}");
            }
            eprintln!(
                "Put each file in a layer, and import only from a file's own layer or one below; \
                 then run `cargo run --release --features trace --example pictures` to redraw."
            );
            std::process::exit(1);
        }
    }
}
