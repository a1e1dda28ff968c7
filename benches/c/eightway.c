/*
 * eightway.c: the classic C bitmask N-Queens counter with all 8 symmetries
 * of the square (Takaken's method), the second baseline of the `targets`
 * group of `cargo bench --bench simd`. Built by that bench only (with
 * `cc -O3 -march=native`), never by the crate.
 *
 * Same search as mirror.c (one row at a time, the taken columns and both
 * diagonals as bit masks, the next queen the lowest free bit, recursion for
 * backtracking), but it visits about one board per class of the 8
 * symmetries (rotations by 90, 180 and 270 degrees, the reflections in
 * both axes and both diagonals) and counts each class with its size.
 * Column c is bit c; row r's queen is at column c[r].
 *
 * The 8 images of a board put in their row 0 the queen of one edge of the
 * board, read from one of its two ends: so the row-0 columns of the images
 * are the 8 distances of the edge queens from the corners. A board is the
 * representative of its class when it is the least of its images, rows
 * compared from row 0, each row by its queen's column. Two kinds of class:
 *
 * (a) A queen in a corner. Corners map to corners, and two corners never
 *     both hold a queen (any two share a row, a column or a diagonal), so
 *     every board of the class has one corner queen, and exactly two of
 *     them (the board and its reflection in the main diagonal) have it at
 *     (0, 0). No solution of N > 1 is its own diagonal reflection (the
 *     queens would pair up on the other diagonal's parallels), so the class
 *     has 8 boards. Of the two with (0, 0), keep the one whose row-1 queen,
 *     at column b1, is left of the column-1 queen's row r1 (b1 < r1; the
 *     reflection swaps them, and b1 = r1 would put (1, b1) and (b1, 1) on
 *     one diagonal). So b1 runs from 2 (column 1 is attacked from (0, 0))
 *     to N - 2, column 1 is forbidden in rows 2 to b1 - 1, and each
 *     solution found counts 8.
 *
 * (b) No corner queen. The least image has in row 0 the smallest distance
 *     b1 of an edge queen from a corner, so the search puts row 0's queen
 *     at column b1 and keeps the other 7 distances at least b1:
 *       - b1 < N - 1 - b1 (= b2): the row-0 queen in the left half (equal
 *         would need all four edge queens in the middle of their edges,
 *         and those of the top and left edges attack each other);
 *       - the queens of columns 0 and N - 1 in rows b1 to b2: both side
 *         columns are forbidden in rows 1 to b1 - 1 and b2 + 1 to N - 1;
 *       - the queen of row N - 1 in columns b1 to b2.
 *     Those are the boards whose row 0 equals that of their least image.
 *     An image ties with the board on row 0 only where an edge queen other
 *     than row 0's is also at distance b1 from a corner. Four of those are
 *     impossible: (b1, 0) and (b2, N - 1) share a diagonal with (0, b1),
 *     (N - 1, b1) shares its column, and column b2 of row 0 is not b1.
 *     The other three are the rotations, each with its own test on the
 *     placed rows (see `classify`): the board is then compared with that
 *     image row by row. The board counts if no image is smaller, with its
 *     class's size: 2 if the quarter turn leaves it unchanged, 4 if only
 *     the half turn does, 8 otherwise (no reflection leaves a solution of
 *     N > 1 unchanged: a side-to-side one would need a queen in a middle
 *     column in every row, a diagonal one is ruled out as in (a)).
 *
 * Usage: eightway N ITERATIONS
 * Counts N-Queens ITERATIONS times and prints the count and the total time
 * in nanoseconds (CLOCK_MONOTONIC around the loop only), one line:
 * "COUNT NANOSECONDS". N from 1 to 31.
 */
#include <stdint.h>

#include "timed_main.h"

/* The search's state for one N and one b1 (no recursion argument needs
 * them). */
static int last;          /* N - 1, the last row */
static int bound1;        /* b1: case (a) row 1's column, case (b) row 0's */
static int bound2;        /* b2 = N - 1 - b1 (case (b)) */
static uint32_t full;     /* one bit per column: bits 0 to N - 1 */
static uint32_t top_bit;  /* column N - 1 */
static uint32_t sides;    /* columns 0 and N - 1 */
static uint32_t last_out; /* case (b): the columns row N - 1 may not use,
                           * those left of b1 and right of b2 */
static uint32_t end_bit;  /* case (b): column b2 */
static uint32_t board[32];/* case (b): row r's queen as a bit, 1 << c[r] */

/* Case (a): the solutions below `row` with queens at (0, 0) and (1, b1),
 * the taken columns and the attacked squares of `row` given. */
static uint64_t corner(int row, uint32_t down, uint32_t left, uint32_t right)
{
    uint32_t free_squares = full & ~(down | left | right);
    /* N - 1 columns are taken: at most one free square, a solution. */
    if (row == last)
        return free_squares != 0;
    /* Column 1's queen below row b1 (see (a) above). */
    if (row < bound1)
        free_squares &= ~2u;
    uint64_t count = 0;
    while (free_squares) {
        uint32_t bit = free_squares & -free_squares;
        free_squares ^= bit;
        count += corner(row + 1, down | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

/* How the image of `board` whose row i has its queen at bit `image(i)`
 * compares with the board: the rows are compared in turn from row 1 (row 0
 * ties, which is why the image is compared at all). Each image row is a
 * bit found by a scan; the scan stops as soon as the bit it would give
 * exceeds the board's row, the board then being the smaller.
 *
 * Quarter turn (r, c) -> (c, N - 1 - r): image row i holds the queen of
 * column i, at column N - 1 - r where r is that queen's row. Scanning r
 * from N - 1 down gives the candidate bits 1, 2, 4, ... in increasing
 * order. Returns -1 if the image is smaller, 0 if equal, 1 if larger. */
static int quarter_turn(void)
{
    for (int i = 1; i <= last; i++) {
        uint32_t own = board[i], column = 1u << i, image = 1;
        int r = last;
        while (board[r] != column && image <= own) {
            r--;
            image <<= 1;
        }
        if (image > own)
            return 1;
        if (image < own)
            return -1;
    }
    return 0;
}

/* Half turn (r, c) -> (N - 1 - r, N - 1 - c): image row i is row N - 1 - i
 * reversed. Scanning the column of that row's queen from N - 1 down gives
 * the candidate bits 1, 2, 4, ... Rows past the middle need no comparison:
 * if the first half equals its image, so does the second. */
static int half_turn(void)
{
    for (int i = 1; i <= last / 2; i++) {
        uint32_t own = board[i], other = board[last - i], column = top_bit, image = 1;
        while (column != other && image <= own) {
            column >>= 1;
            image <<= 1;
        }
        if (image > own)
            return 1;
        if (image < own)
            return -1;
    }
    return 0;
}

/* Three-quarter turn (r, c) -> (N - 1 - c, r): image row i holds the queen
 * of column N - 1 - i, at column r, its row. Scanning r from 0 up gives the
 * candidate bits 1, 2, 4, ... */
static int three_quarter_turn(void)
{
    for (int i = 1; i <= last; i++) {
        uint32_t own = board[i], column = top_bit >> i, image = 1;
        int r = 0;
        while (board[r] != column && image <= own) {
            r++;
            image <<= 1;
        }
        if (image > own)
            return 1;
        if (image < own)
            return -1;
    }
    return 0;
}

/* Case (b): the complete `board`'s weight, its class's size if it is the
 * least of its images, 0 if not. Each rotation ties with the board on
 * row 0 (its image's row 0 is b1) only if:
 *   - quarter turn: image row 0 is column 0's queen at N - 1 - r, so
 *     column 0's queen is in row b2: board[b2] == 1;
 *   - half turn: image row 0 is row N - 1 reversed, so row N - 1's queen is
 *     at column b2: board[N - 1] == end_bit;
 *   - three-quarter turn: image row 0 is column N - 1's queen at its row,
 *     so that queen is in row b1: board[b1] == top_bit.
 * Without a tie the image's row 0 is larger (the search's masks), and so is
 * the image. A quarter turn that changes nothing gives the class 2 boards;
 * then the other turns change nothing either. A half turn that changes
 * nothing, with the quarter turn changing the board, gives it 4; the
 * three-quarter turn is then the quarter turn's image turned by a half, the
 * same board. */
static uint64_t classify(void)
{
    if (board[bound2] == 1) {
        int c = quarter_turn();
        if (c < 0)
            return 0;
        if (c == 0)
            return 2;
    }
    if (board[last] == end_bit) {
        int c = half_turn();
        if (c < 0)
            return 0;
        if (c == 0)
            return 4;
    }
    if (board[bound1] == top_bit && three_quarter_turn() < 0)
        return 0;
    return 8;
}

/* Case (b): the weighted solutions below `row`, row 0's queen at column b1
 * and rows 1 to row - 1 in `board`. */
static uint64_t edge(int row, uint32_t down, uint32_t left, uint32_t right)
{
    uint32_t free_squares = full & ~(down | left | right);
    if (row == last) {
        /* At most one free square; row N - 1 in columns b1 to b2. */
        free_squares &= ~last_out;
        if (!free_squares)
            return 0;
        board[row] = free_squares;
        return classify();
    }
    if (row < bound1 || row > bound2) {
        /* The side columns' queens are in rows b1 to b2. */
        free_squares &= ~sides;
    } else if (row == bound2) {
        /* The last row where a side column may take its queen: both must
         * be taken by the end of it. */
        uint32_t untaken = sides & ~down;
        if (untaken == sides)
            return 0;
        if (untaken)
            free_squares &= untaken;
    }
    uint64_t count = 0;
    while (free_squares) {
        uint32_t bit = free_squares & -free_squares;
        free_squares ^= bit;
        board[row] = bit;
        count += edge(row + 1, down | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

static uint64_t count(int n)
{
    if (n == 1)
        return 1;
    last = n - 1;
    full = (uint32_t)((1ull << n) - 1);
    top_bit = 1u << last;
    sides = top_bit | 1u;
    uint64_t total = 0;

    /* (a) Queen at (0, 0) (bit 0 of row 0, attacking bit 1 of row 1 on its
     * diagonal), row 1's at column b1. */
    for (bound1 = 2; bound1 <= n - 2; bound1++) {
        uint32_t bit = 1u << bound1;
        total += 8 * corner(2, 1u | bit, (2u | bit) << 1, bit >> 1);
    }

    /* (b) Row 0's queen at column b1, b1 < b2 = N - 1 - b1. */
    for (bound1 = 1, bound2 = n - 2; bound1 < bound2; bound1++, bound2--) {
        uint32_t bit = 1u << bound1;
        /* Columns 0 to b1 - 1, and b2 + 1 to N - 1 (b2 + 1 <= N - 2). */
        last_out = (bit - 1) | (full & ~((2u << bound2) - 1));
        end_bit = 1u << bound2;
        board[0] = bit;
        total += edge(1, bit, bit << 1, bit >> 1);
    }
    return total;
}

int main(int argc, char **argv)
{
    return timed_main(argc, argv, count);
}
