// The harness's way of timing a case, for the C reference programs: a batch calibrated to last
// about 10 ms (doubling until a tenth of that, then scaled with 20% headroom), then 20 samples of
// that batch; the result is the median ns per operation. `run(n)` performs n operations.
#ifndef RUNTIMEBENCH_C_REFERENCE_SAMPLING_H
#define RUNTIMEBENCH_C_REFERENCE_SAMPLING_H

#include <stdlib.h>
#include <time.h>

enum { SAMPLES = 20, TARGET_NS = 10000000 };

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_ns_per_operation(void (*run)(long)) {
    long batch = 1;
    for (;;) {
        long long start = now_ns();
        run(batch);
        long long elapsed = now_ns() - start;
        if (elapsed * 10 >= TARGET_NS) { batch = (long)(batch * 1.2 * TARGET_NS / elapsed) + 1; break; }
        batch *= 2;
    }
    double samples[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
        long long start = now_ns();
        run(batch);
        samples[s] = (double)(now_ns() - start) / batch;
    }
    qsort(samples, SAMPLES, sizeof samples[0], compare_doubles);
    return (samples[SAMPLES / 2 - 1] + samples[SAMPLES / 2]) / 2;
}

#endif
