// Reference for the `spawn` workload's `outside` and `chain` patterns, on libdispatch's C API
// (dispatch_async_f to the default global queue), timed the way the harness times a case: warm-up,
// a batch calibrated to last about 10 ms, 20 samples, the median in ns per task (or per link).
//   outside: this thread submits `batch` empty tasks; each counts down, the last wakes this thread.
//   chain:   one task at a time; each submits the next until `batch` have run, the last wakes it.
// Build with the toolchain's libdispatch, e.g. (toolchain at /opt/swift):
//   clang -O2 -I/opt/swift/usr/lib/swift tools/c-reference/spawn.c -o /tmp/spawn \
//     -L/opt/swift/usr/lib/swift/linux -ldispatch -lBlocksRuntime -Wl,-rpath,/opt/swift/usr/lib/swift/linux
// Usage: spawn outside|chain   (LD_PRELOAD=libjemalloc.so.2 for the jemalloc column)
#include <dispatch/dispatch.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SAMPLES = 20, TARGET_NS = 10000000 };

static atomic_long due;
static dispatch_semaphore_t done;
static dispatch_queue_t queue;

static void arrive(void *unused) {
    (void)unused;
    if (atomic_fetch_sub_explicit(&due, 1, memory_order_acq_rel) == 1) dispatch_semaphore_signal(done);
}

static void link_task(void *unused) {
    (void)unused;
    if (atomic_fetch_sub_explicit(&due, 1, memory_order_acq_rel) == 1) dispatch_semaphore_signal(done);
    else dispatch_async_f(queue, NULL, link_task);
}

static int chain;

static void run(long n) {
    atomic_store(&due, n);
    if (chain) {
        dispatch_async_f(queue, NULL, link_task);
    } else {
        for (long i = 0; i < n; i++) dispatch_async_f(queue, NULL, arrive);
    }
    dispatch_semaphore_wait(done, DISPATCH_TIME_FOREVER);
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "outside") && strcmp(argv[1], "chain"))) {
        fprintf(stderr, "usage: spawn outside|chain\n");
        return 2;
    }
    chain = strcmp(argv[1], "chain") == 0;
    done = dispatch_semaphore_create(0);
    queue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    run(100000);  // warm-up: start the pool's threads
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
    qsort(samples, SAMPLES, sizeof samples[0], compare);
    printf("%.1f\n", (samples[SAMPLES / 2 - 1] + samples[SAMPLES / 2]) / 2);
    return 0;
}
