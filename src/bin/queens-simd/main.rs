//! `queens-simd`: the command line. Everything it does lives in the
//! library's [`queens_simd::cli`] module, where the fuzz targets and tests
//! reach it too.

fn main() -> std::process::ExitCode {
    queens_simd::cli::main()
}
