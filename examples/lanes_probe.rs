use queens_simd::Kernel;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kernel = Kernel::from_name(&args[1]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let reps: usize = args[3].parse().unwrap();
    let solver = kernel.solver_for(n, queens_simd::kernel::Task::Count).unwrap();
    let mut total = 0;
    for _ in 0..reps {
        total += solver.count(std::hint::black_box(n)).unwrap();
    }
    println!("{total}");
}
