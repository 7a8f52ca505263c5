// An independent check of the `direct` workload's C references (Benchmarks/CReferences): the
// same operations on libdispatch's C API, POSIX semaphores and pthreads, written again here from
// the headers, timed the way the harness times a case (sampling.h). The C references for `chain`,
// `outside`, `sync` and the mutex have programs of their own (spawn.c, queue-sync.c,
// mutex-uncontended.c). Run each operation in several processes and compare the medians with
// `bench fidelity --backend libdispatch-c`'s direct column of the same sitting.
// Build with the toolchain's libdispatch, e.g. (toolchain at /opt/swift):
//   clang -O2 -I/opt/swift/usr/lib/swift tools/c-reference/direct-ops.c -o /tmp/direct-ops \
//     -L/opt/swift/usr/lib/swift/linux -ldispatch -lBlocksRuntime -lpthread \
//     -Wl,-rpath,/opt/swift/usr/lib/swift/linux
// Usage: direct-ops async-drain|fan-out|enter-leave|semaphore|posix-semaphore|thread|apply STRIDE
//   prints the median ns per operation (per block, task, pair, thread; per iteration for apply,
//   an empty body over 100,000 iterations, STRIDE iterations per piece: the stride the suite's
//   report names for the case, e.g. "automatic chose").
#include <dispatch/dispatch.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampling.h"

static dispatch_queue_t serial;
static dispatch_group_t group;
static dispatch_semaphore_t semaphore;
static sem_t posix;
static long counter;

enum { APPLY_ITERATIONS = 100000 };
// The suite's round: 2 × workers tasks, then a wait (Benchmarks/Workloads/GroupFanOut.swift); the
// pool's workers are the online CPUs.
static long fan_out_width = 2;
static long apply_stride = 1;

static void count_one(void *unused) { (void)unused; counter++; }
static void count_atomically(void *unused) { (void)unused; __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED); }
static void nothing(void *unused) { (void)unused; }
static void *thread_main(void *unused) { (void)unused; __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED); return NULL; }

static void run_async_drain(long n) {
    for (long i = 0; i < n; i++) dispatch_async_f(serial, NULL, count_one);
    dispatch_sync_f(serial, NULL, nothing);
}

static void run_fan_out(long n) {
    for (long left = n; left > 0; left -= fan_out_width) {
        long wave = left < fan_out_width ? left : fan_out_width;
        for (long i = 0; i < wave; i++)
            dispatch_group_async_f(group, dispatch_get_global_queue(0, 0), NULL, count_atomically);
        dispatch_group_wait(group, DISPATCH_TIME_FOREVER);
    }
}

static void run_enter_leave(long n) {
    for (long i = 0; i < n; i++) { dispatch_group_enter(group); dispatch_group_leave(group); }
}

static void run_semaphore(long n) {
    for (long i = 0; i < n; i++) {
        dispatch_semaphore_wait(semaphore, DISPATCH_TIME_FOREVER);
        dispatch_semaphore_signal(semaphore);
    }
}

static void run_posix_semaphore(long n) {
    for (long i = 0; i < n; i++) { while (sem_wait(&posix) != 0) {} sem_post(&posix); }
}

static void run_thread(long n) {
    for (long i = 0; i < n; i++) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, thread_main, NULL) != 0) abort();
        pthread_join(thread, NULL);
    }
}

// Each piece runs `apply_stride` empty iterations; an opaque store keeps the loop from vanishing.
static void apply_piece(void *unused, size_t piece) {
    (void)unused;
    long lower = (long)piece * apply_stride, upper = lower + apply_stride;
    if (upper > APPLY_ITERATIONS) upper = APPLY_ITERATIONS;
    for (long i = lower; i < upper; i++) __asm__ volatile("" ::"r"(i) : "memory");
}

// One operation is one whole loop of APPLY_ITERATIONS; the figure is divided by them below.
static void run_apply(long n) {
    size_t pieces = (size_t)((APPLY_ITERATIONS + apply_stride - 1) / apply_stride);
    for (long i = 0; i < n; i++) dispatch_apply_f(pieces, dispatch_get_global_queue(0, 0), NULL, apply_piece);
}

int main(int argc, char **argv) {
    const char *operation = argc >= 2 ? argv[1] : "";
    void (*run)(long) = NULL;
    double per = 1;
    serial = dispatch_queue_create("direct-ops", NULL);
    group = dispatch_group_create();
    semaphore = dispatch_semaphore_create(1);
    sem_init(&posix, 0, 1);
    fan_out_width = 2 * sysconf(_SC_NPROCESSORS_ONLN);
    if (!strcmp(operation, "async-drain")) run = run_async_drain;
    else if (!strcmp(operation, "fan-out")) run = run_fan_out;
    else if (!strcmp(operation, "enter-leave")) run = run_enter_leave;
    else if (!strcmp(operation, "semaphore")) run = run_semaphore;
    else if (!strcmp(operation, "posix-semaphore")) run = run_posix_semaphore;
    else if (!strcmp(operation, "thread")) run = run_thread;
    else if (!strcmp(operation, "apply") && argc == 3 && atol(argv[2]) >= 1) {
        apply_stride = atol(argv[2]);
        run = run_apply;
        per = APPLY_ITERATIONS;
    }
    if (!run) {
        fprintf(stderr,
                "usage: direct-ops async-drain|fan-out|enter-leave|semaphore|posix-semaphore|thread|apply STRIDE\n");
        return 64;
    }
    printf("%s %.3f ns\n", operation, median_ns_per_operation(run) / per);
    return 0;
}
