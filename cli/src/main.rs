//! `queens-simd`: the command line. Everything it does lives in this
//! package's library, [`queens_simd_cli`], where the fuzz targets and the
//! tests reach its parser and its record checks too.

fn main() -> std::process::ExitCode {
    queens_simd_cli::main()
}
