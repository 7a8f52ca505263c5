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

#include "sampling.h"

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

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "outside") && strcmp(argv[1], "chain"))) {
        fprintf(stderr, "usage: spawn outside|chain\n");
        return 2;
    }
    chain = strcmp(argv[1], "chain") == 0;
    done = dispatch_semaphore_create(0);
    queue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    run(100000);  // warm-up: start the pool's threads
    printf("%.1f\n", median_ns_per_operation(run));
    return 0;
}
