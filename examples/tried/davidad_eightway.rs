//! Tried and dropped: davidad's register machine with all eight symmetries
//! of the square (Takaken's method), timed beside the kernel `auto` counts
//! N = 8 with. Issue 29 asked whether such a variant, one xmm state as in
//! seed 002, could be the fastest count of N = 8; BENCHMARKS.md ("davidad's
//! machine with eight symmetries, tried") has the answer this program
//! prints.
//!
//! ```sh
//! cargo run --release --example davidad_eightway          # N = 8
//! cargo run --release --example davidad_eightway -- 10    # another N, 4 to 16
//! ```
//!
//! # The machine
//!
//! The register and its step are the `sse41` kernel's (`src/kernel/davidad.rs`):
//! columns, and the two diagonals, as three 16-bit words of one xmm
//! register, moved a row down by `psllw`, `psrlw`, two `pblendw`, gathered
//! by `psrldq` and `por`, and the free squares taken by `pandn`. What
//! changes is which squares each row may try, a mask applied to the free
//! squares in a general register, and what a solution counts:
//!
//! - **Corner boards** (row 0's queen in column 0): row 1's queen stands in
//!   column `b` from 2 to N - 2, and the rows above row `b` keep out of
//!   column 1. Every solution stands for 8 (its class has 8 members, one
//!   of them with these properties).
//! - **Side boards** (row 0's queen in column `b` from 1, while `b < N - 1 -
//!   b`): the rows above row `b` keep out of the two edge columns; row
//!   `N - 1 - b` must see an edge column taken above it, and takes the
//!   other if only one is; the last row keeps out of the edges' band of
//!   width `b`. A solution left is compared with its rotations (the queens
//!   of each row kept as one bit) to learn its class's size, 2, 4 or 8, or
//!   that it is not the class's representative.
//!
//! The rules are Takaken's, as public N-Queens material describes them;
//! the code is ours.

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod eightway {
    use core::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_blend_epi16, _mm_cvtsi64_si128, _mm_cvtsi128_si64,
        _mm_or_si128, _mm_slli_epi16, _mm_srli_epi16, _mm_srli_si128,
    };

    /// The largest N: 16-bit words, as in davidad's machine.
    pub const MAX_N: usize = 16;

    /// One step of davidad's machine: a queen placed in `column`, the state
    /// moved a row down, and the next row's free squares on `board`.
    #[target_feature(enable = "sse4.1")]
    #[inline]
    fn step(state: __m128i, column: u32, board: __m128i) -> (__m128i, u64) {
        const QUEEN: u64 = 0x0001_0001_0001;
        let placed = _mm_or_si128(state, _mm_cvtsi64_si128((QUEEN << column) as i64));
        let left = _mm_slli_epi16::<1>(placed);
        let right = _mm_srli_epi16::<1>(placed);
        let moved = _mm_blend_epi16::<0b010>(_mm_blend_epi16::<0b100>(placed, left), right);
        (moved, free_squares(moved, board))
    }

    /// The free squares of the row whose attacks are `state`: its three
    /// words gathered into word 0 (`psrldq`, `por`), then `pandn` with the
    /// board's columns.
    #[target_feature(enable = "sse4.1")]
    #[inline]
    fn free_squares(state: __m128i, board: __m128i) -> u64 {
        let attacked = _mm_or_si128(
            _mm_or_si128(_mm_srli_si128::<4>(state), _mm_srli_si128::<2>(state)),
            state,
        );
        _mm_cvtsi128_si64(_mm_andnot_si128(attacked, board)) as u64
    }

    /// Which squares each row may try, and the side boards' rules.
    struct Rules {
        /// The columns row `r` may try (all of them for a row with no rule).
        row_mask: [u64; MAX_N],
        /// The row that must see an edge column taken above it (side boards),
        /// or `MAX_N` for none.
        bound2: usize,
        /// The two edge columns.
        sides: u64,
    }

    /// What the search does with the queen it places in the last row.
    trait Leaf {
        fn last(&mut self, queens: &[u64; MAX_N], bit: u64);
    }

    /// Corner boards: every solution counts once here, 8 times in all.
    struct Corner(u64);

    impl Leaf for Corner {
        #[inline(always)]
        fn last(&mut self, _queens: &[u64; MAX_N], _bit: u64) {
            self.0 += 1;
        }
    }

    /// Side boards: a solution whose last queen keeps out of `last_mask` is
    /// compared with its rotations; the class sizes are summed.
    struct Side {
        n: usize,
        bound1: usize,
        bound2: usize,
        last_mask: u64,
        end_bit: u64,
        total: u64,
    }

    impl Leaf for Side {
        #[inline(always)]
        fn last(&mut self, queens: &[u64; MAX_N], bit: u64) {
            if bit & self.last_mask == 0 {
                let mut queens = *queens;
                queens[self.n - 1] = bit;
                self.total += class_size(self, &queens[..self.n]);
            }
        }
    }

    /// 2, 4 or 8, the size of the class of the board whose row `r` has its
    /// queen on bit `queens[r]`, if that board is its class's
    /// representative; 0 if one of its rotations comes first.
    fn class_size(side: &Side, queens: &[u64]) -> u64 {
        let n = queens.len();
        let top = 1u64 << (n - 1);
        // The quarter turn: row `own` against column `own` read upwards.
        if queens[side.bound2] == 1 {
            match compare(queens, |own| (n - 1, 1u64 << own, -1, 0)) {
                Order::Later => return 0,
                Order::Same => return 2,
                Order::Earlier => {}
            }
        }
        // The half turn: row `own` against row `n - 1 - own` mirrored.
        if queens[n - 1] == side.end_bit {
            match compare(queens, |own| (n - 1 - own, top, 0, -1)) {
                Order::Later => return 0,
                Order::Same => return 4,
                Order::Earlier => {}
            }
        }
        // Three quarter turns: row `own` against column `n - 1 - own`.
        if queens[side.bound1] == top
            && compare(queens, |own| (0, top >> own, 1, 0)) == Order::Later
        {
            return 0;
        }
        8
    }

    #[derive(PartialEq)]
    enum Order {
        Earlier,
        Same,
        Later,
    }

    /// Compares the board with one of its images row by row from row 1:
    /// `image(own)` gives, for row `own`, where the scan of the image's
    /// row starts (`you`), the bit it looks for (`pattern`), and how
    /// `you` and `pattern` move per column scanned (+1 or -1 for `you`,
    /// -1 for a pattern shifted right).
    fn compare(queens: &[u64], image: impl Fn(usize) -> (usize, u64, isize, isize)) -> Order {
        let n = queens.len();
        for own in 1..n {
            let (mut you, mut pattern, step_you, shift_pattern) = image(own);
            let mut bit = 1u64;
            while queens[you] != pattern && queens[own] >= bit {
                bit <<= 1;
                if step_you != 0 {
                    you = you.wrapping_add_signed(step_you);
                }
                if shift_pattern != 0 {
                    pattern >>= 1;
                }
            }
            if queens[own] > bit {
                return Order::Later;
            }
            if queens[own] < bit {
                return Order::Earlier;
            }
        }
        Order::Same
    }

    /// The machine from row `row` (the rows above placed: their queens in
    /// `queens`, their attacks in `state`), every placement in the last row
    /// handed to `leaf`.
    #[target_feature(enable = "sse4.1,popcnt,bmi1")]
    fn search<L: Leaf>(
        n: usize,
        row: usize,
        state: __m128i,
        queens: &mut [u64; MAX_N],
        rules: &Rules,
        leaf: &mut L,
    ) {
        let board = _mm_cvtsi64_si128(((1u64 << n) - 1) as i64);
        let last = n - 1;
        let first = row;
        let mut stack_free = [0u64; MAX_N];
        let mut stack_state = [0u64; MAX_N];
        let mut depth = row;
        let mut state = state;
        let mut free = rules.row_mask[depth] & free_squares(state, board);
        loop {
            if free == 0 {
                if depth == first {
                    return;
                }
                depth -= 1;
                free = stack_free[depth];
                state = _mm_cvtsi64_si128(stack_state[depth] as i64);
                continue;
            }
            let column = free.trailing_zeros();
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            if depth == last {
                leaf.last(queens, bit);
                continue;
            }
            queens[depth] = bit;
            stack_free[depth] = free;
            stack_state[depth] = _mm_cvtsi128_si64(state) as u64;
            depth += 1;
            let (moved, next) = step(state, column, board);
            state = moved;
            free = next & rules.row_mask[depth];
            if depth == rules.bound2 {
                let down = _mm_cvtsi128_si64(state) as u64 & 0xFFFF;
                if down & rules.sides == 0 {
                    free = 0;
                } else if down & rules.sides != rules.sides {
                    free &= rules.sides;
                }
            }
        }
    }

    /// The solutions of the `n`x`n` board, `n` from 4 to 16.
    #[target_feature(enable = "sse4.1,popcnt,bmi1")]
    pub fn count(n: usize) -> u64 {
        assert!((4..=MAX_N).contains(&n));
        let all = (1u64 << n) - 1;
        let empty = _mm_cvtsi64_si128(0);
        let board = _mm_cvtsi64_si128(all as i64);
        let mut queens = [0u64; MAX_N];
        // Corner boards.
        let mut corner = Corner(0);
        let (after_corner, _) = step(empty, 0, board);
        queens[0] = 1;
        for b in 2..n - 1 {
            let (state, _) = step(after_corner, b as u32, board);
            queens[1] = 1 << b;
            let mut rules = Rules {
                row_mask: [u64::MAX; MAX_N],
                bound2: MAX_N,
                sides: 0,
            };
            rules.row_mask[2..b.max(2)].fill(!2);
            search(n, 2, state, &mut queens, &rules, &mut corner);
        }
        // Side boards.
        let top = 1u64 << (n - 1);
        let sides = top | 1;
        let mut side = Side {
            n,
            bound1: 0,
            bound2: 0,
            last_mask: sides,
            end_bit: top >> 1,
            total: 0,
        };
        let mut b = 1;
        while b < n - 1 - b {
            let (state, _) = step(empty, b as u32, board);
            queens[0] = 1 << b;
            side.bound1 = b;
            side.bound2 = n - 1 - b;
            let mut rules = Rules {
                row_mask: [u64::MAX; MAX_N],
                bound2: n - 1 - b,
                sides,
            };
            rules.row_mask[1..b.max(1)].fill(!sides);
            search(n, 1, state, &mut queens, &rules, &mut side);
            side.last_mask |= side.last_mask >> 1 | side.last_mask << 1;
            side.end_bit >>= 1;
            b += 1;
        }
        8 * corner.0 + side.total
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use queens_simd::Kernel;
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    let n: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 8,
        Some(Ok(n)) if (4..=eightway::MAX_N).contains(&n) => n,
        _ => {
            eprintln!("usage: davidad_eightway [N], N from 4 to 16");
            std::process::exit(2);
        }
    };
    let has = std::arch::is_x86_feature_detected!("sse4.1")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1");
    if !has {
        eprintln!("this CPU lacks SSE4.1, POPCNT or BMI1");
        std::process::exit(2);
    }
    // SAFETY: the features `count` is compiled for were detected above.
    let eightway = || unsafe { eightway::count(black_box(n)) };
    let expected = queens_simd::dispatch::count(Kernel::Portable, n).expect("N from 4 to 16");
    for m in 4..=12 {
        // SAFETY: as above.
        let got = unsafe { eightway::count(m) };
        assert_eq!(
            got,
            queens_simd::dispatch::count(Kernel::Portable, m).unwrap() as u64,
            "N = {m}"
        );
    }
    assert_eq!(u128::from(eightway()), expected, "N = {n}");

    // As `queens-simd --time`: 0.5 s of warm-up, then batches of at
    // least 50 µs for a second; the median batch per solve.
    let median_ns = |solve: &dyn Fn() -> u128| {
        let warm = Instant::now();
        let mut per_batch = 1u32;
        while warm.elapsed() < Duration::from_millis(500) {
            let t = Instant::now();
            for _ in 0..per_batch {
                black_box(solve());
            }
            if t.elapsed() < Duration::from_micros(50) {
                per_batch *= 2;
            }
        }
        let mut samples = Vec::new();
        let run = Instant::now();
        while run.elapsed() < Duration::from_secs(1) {
            let t = Instant::now();
            for _ in 0..per_batch {
                black_box(solve());
            }
            samples.push(t.elapsed().as_nanos() as f64 / f64::from(per_batch));
        }
        samples.sort_by(f64::total_cmp);
        samples[samples.len() / 2]
    };
    let auto = queens_simd::dispatch::solver_for(Kernel::Auto, queens_simd::kernel::Task::Count, n)
        .expect("auto counts every N")
        .solver();
    let sse41 =
        queens_simd::dispatch::solver_for(Kernel::Sse41, queens_simd::kernel::Task::Count, n)
            .expect("SSE4.1 was detected")
            .solver();
    let rows: [(&str, &dyn Fn() -> u128); 3] = [
        (
            "davidad-eightway (this program)",
            &|| u128::from(eightway()),
        ),
        (auto.kernel().name(), &|| auto.count(black_box(n)).unwrap()),
        ("sse41 (davidad's machine, no symmetry)", &|| {
            sse41.count(black_box(n)).unwrap()
        }),
    ];
    println!("N = {n}, {expected} solutions; median per count:");
    for (name, solve) in rows {
        println!("{:>10.1} ns  {name}", median_ns(solve));
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {
    eprintln!("davidad_eightway runs on x86-64 Linux only");
    std::process::exit(2);
}
