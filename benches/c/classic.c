/*
 * classic.c: the baseline the portable kernel is measured against.
 *
 * A classic N-Queens counter: iterative bitmask backtracking with an
 * explicit stack, written the way it is usually written in C. It is the same
 * algorithm as `count_solutions` in src/kernel/portable.rs: one frame per row
 * holding the squares still to try and the three attack masks (columns,
 * left-going and right-going diagonals) as uint32_t, the lowest free square
 * taken with `free & -free`, one leaf per solution. No symmetry tricks, no
 * precomputed answers.
 *
 * Usage: classic N SAMPLES
 *
 * Measures the way benches/c/compare.sh measures the Rust kernel: one
 * untimed warm-up solve; then a batch size is chosen, doubling from 1 until a
 * batch of solves takes at least 20 us; then SAMPLES batches are timed with
 * clock_gettime(CLOCK_MONOTONIC), each divided by the batch size, and the
 * median of those per-solve times is printed:
 *
 *   n=12 count=14200 median_us=123.456 batch=1 samples=101
 *
 * Build: gcc -O3 -march=native -o classic classic.c
 *
 * Built with -DSAME_LOOP_AS_RUST it times instead, for information, a C
 * transcription of the Rust kernel's current loop (see below).
 */
#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_N 32

struct frame {
    uint32_t free, cols, left, right;
};

#ifndef SAME_LOOP_AS_RUST

static uint64_t count_solutions(int n)
{
    const uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    struct frame stack[MAX_N];
    struct frame *sp = stack;      /* frames of the rows above */
    struct frame *const leaf = stack + (n - 1);
    uint32_t free = full, cols = 0, left = 0, right = 0;
    uint64_t solutions = 0;

    for (;;) {
        if (free) {
            uint32_t bit = free & -free;
            free ^= bit;
            if (sp == leaf) {
                solutions++;
                continue;
            }
            sp->free = free;
            sp->cols = cols;
            sp->left = left;
            sp->right = right;
            sp++;
            cols |= bit;
            left = (left | bit) << 1;
            right = (right | bit) >> 1;
            free = full & ~(cols | left | right);
        } else if (sp == stack) {
            return solutions;
        } else {
            sp--;
            free = sp->free;
            cols = sp->cols;
            left = sp->left;
            right = sp->right;
        }
    }
}

#else /* SAME_LOOP_AS_RUST */

/*
 * For information only (compare.sh's "C same loop" column): the loop
 * structure of the current Rust `count_solutions`, which differs from the
 * classic loop above in two ways that do not change the search: a row below
 * with no free square gets no frame (it is tested, found empty, and the
 * search goes on with the next square of the current row), and the columns
 * off the board start out taken, so the free squares are
 * ~(cols | left | right) with no `& full`. The stack keeps the C pointer
 * idiom: the Rust kernel's one-array-per-field stack is its way of getting
 * the same addressing (a pop loads straight from the old stack position).
 */
static uint64_t count_solutions(int n)
{
    const uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    struct frame stack[MAX_N];
    struct frame *sp = stack;
    struct frame *const leaf = stack + (n - 1);
    uint32_t free = full, cols = ~full, left = 0, right = 0;
    uint64_t solutions = 0;

    for (;;) {
        if (free) {
            uint32_t bit = free & -free;
            free ^= bit;
            if (sp == leaf) {
                solutions++;
                continue;
            }
            uint32_t c = cols | bit, l = (left | bit) << 1, r = (right | bit) >> 1;
            uint32_t f = ~(c | l | r);
            if (!f)
                continue;
            sp->free = free;
            sp->cols = cols;
            sp->left = left;
            sp->right = right;
            sp++;
            cols = c;
            left = l;
            right = r;
            free = f;
        } else if (sp == stack) {
            return solutions;
        } else {
            sp--;
            free = sp->free;
            cols = sp->cols;
            left = sp->left;
            right = sp->right;
        }
    }
}

#endif /* SAME_LOOP_AS_RUST */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Keeps the compiler from hoisting or merging repeated solves: `n` is
 * reloaded from a register it cannot reason about before every call. */
static inline int opaque(int n)
{
    __asm__ volatile("" : "+r"(n));
    return n;
}

static volatile uint64_t sink;

/* Runs `batch` solves and returns the time per solve in us. */
static double time_batch(int n, long batch)
{
    double start = now_us();
    for (long i = 0; i < batch; i++)
        sink = count_solutions(opaque(n));
    return (now_us() - start) / batch;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s N SAMPLES\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    long samples = atol(argv[2]);
    if (n < 1 || n > MAX_N || samples < 1) {
        fprintf(stderr, "N must be 1..32, SAMPLES >= 1\n");
        return 2;
    }

    uint64_t count = count_solutions(opaque(n)); /* warm-up, untimed */

    long batch = 1;
    while (time_batch(n, batch) * batch < 20.0)
        batch *= 2;

    double *per_solve = malloc(samples * sizeof *per_solve);
    if (!per_solve)
        return 1;
    for (long s = 0; s < samples; s++)
        per_solve[s] = time_batch(n, batch);
    qsort(per_solve, samples, sizeof *per_solve, cmp_double);
    double median = samples % 2 ? per_solve[samples / 2]
                                : (per_solve[samples / 2 - 1] + per_solve[samples / 2]) / 2;

    printf("n=%d count=%llu median_us=%.3f batch=%ld samples=%ld\n", n,
           (unsigned long long)count, median, batch, samples);
    free(per_solve);
    return 0;
}
