/*
 * mirror.c: the classic C bitmask N-Queens counter with mirror symmetry, the
 * baseline of the `targets` group of `cargo bench --bench simd`. Built by
 * that bench only (with `cc -O3 -march=native`), never by the crate.
 *
 * The algorithm anyone can write: one row at a time, the taken columns and
 * both diagonals as bit masks, the next queen the lowest free bit, recursion
 * for backtracking. Mirror symmetry (left-right) halves the work: a row-0
 * queen in the left half counts twice (its mirror image starts in the right
 * half); for odd N, a row-0 queen in the middle column takes its row-1 queen
 * in the left half, twice.
 *
 * Usage: mirror N ITERATIONS
 * Counts N-Queens ITERATIONS times and prints the count and the total time
 * in nanoseconds (CLOCK_MONOTONIC around the loop only), one line:
 * "COUNT NANOSECONDS". N from 1 to 31.
 */
#include <stdint.h>

#include "timed_main.h"

/* The solutions below a row whose taken columns and attacked squares are
 * given: `full` has one bit per column. */
static uint64_t below(uint32_t full, uint32_t columns, uint32_t left, uint32_t right)
{
    if (columns == full)
        return 1;
    uint64_t count = 0;
    uint32_t free_squares = full & ~(columns | left | right);
    while (free_squares) {
        uint32_t bit = free_squares & -free_squares;
        free_squares ^= bit;
        count += below(full, columns | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

/* The solutions after placing row 0's queen `bit` and, if `second` is not
 * zero, row 1's queen `second`. */
static uint64_t from(uint32_t full, uint32_t bit, uint32_t second)
{
    uint32_t columns = bit, left = bit << 1, right = bit >> 1;
    if (second) {
        columns |= second;
        left = (left | second) << 1;
        right = (right | second) >> 1;
    }
    return below(full, columns, left, right);
}

static uint64_t count(int n)
{
    if (n == 1)
        return 1;
    uint32_t full = (uint32_t)((1ull << n) - 1);
    int half = n / 2;
    uint64_t total = 0;
    for (int column = 0; column < half; column++)
        total += 2 * from(full, 1u << column, 0);
    if (n % 2) {
        /* Row 0 in the middle: row 1 in the left half, not attacked. */
        uint32_t middle = 1u << half;
        uint32_t attacked = middle | middle << 1 | middle >> 1;
        for (int column = 0; column < half; column++) {
            uint32_t second = 1u << column;
            if (!(second & attacked))
                total += 2 * from(full, middle, second);
        }
    }
    return total;
}

int main(int argc, char **argv)
{
    return timed_main(argc, argv, count);
}
