/*
 * timed_main.h: the command line and the timing loop shared by the C
 * baselines of `cargo bench --bench simd` (mirror.c, eightway.c), each of
 * which defines its own count and calls timed_main from main.
 *
 * Usage of a baseline: NAME N ITERATIONS
 * Counts N-Queens ITERATIONS times and prints the count and the total time
 * in nanoseconds (CLOCK_MONOTONIC around the loop only), one line:
 * "COUNT NANOSECONDS". N from 1 to 31. Exit status 2 on bad arguments, 1 if
 * two iterations counted differently.
 */
#ifndef QUEENS_SIMD_TIMED_MAIN_H
#define QUEENS_SIMD_TIMED_MAIN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int timed_main(int argc, char **argv, uint64_t (*count)(int))
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s N ITERATIONS\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    long iterations = atol(argv[2]);
    if (n < 1 || n > 31 || iterations < 1) {
        fprintf(stderr, "%s: N from 1 to 31, ITERATIONS at least 1\n", argv[0]);
        return 2;
    }
    /* Read through a volatile each time, so that the compiler cannot hoist
     * the (pure) count out of the loop. */
    volatile int size = n;
    uint64_t first = 0, sum = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < iterations; i++) {
        uint64_t c = count(size);
        if (i == 0)
            first = c;
        sum += c;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (sum != first * (uint64_t)iterations) {
        fprintf(stderr, "%s: counts differ between iterations\n", argv[0]);
        return 1;
    }
    long long ns = (long long)(end.tv_sec - start.tv_sec) * 1000000000ll +
                   (end.tv_nsec - start.tv_nsec);
    printf("%llu %lld\n", (unsigned long long)first, ns);
    return 0;
}

#endif
