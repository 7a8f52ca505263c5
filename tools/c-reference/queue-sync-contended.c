// Reference for queue-vs-lock's contended cases on libdispatch's C API: THREADS threads each run
// sections on one shared counter, as dispatch_sync_f on one serial queue, as a pthread mutex
// lock + unlock, as a dispatch semaphore of 1 waited on and signalled (`semaphore`), or as a
// compare-and-exchange lock whose waiter looks at it once every LOOK pauses (`poll`, what a
// contended sync on fifo-dispatch and the strands does: Sources/PThreadPrimitives/README.md,
// "SpinBudget"; LOOK defaults to 16); each section holds the guard CRITICAL ns and then waits
// OUTSIDE ns before the next (busy waits on the monotonic clock, as the suite's spin busies the
// CPU). Prints ns per section of any thread: the whole run's time over every thread's sections,
// as the suite counts.
// One process gives one value; run it several times (samples of one process are not independent).
// Build (from the repository root):
//   clang -O2 -I/opt/swift/usr/lib/swift tools/c-reference/queue-sync-contended.c \
//     -o /tmp/queue-sync-contended -L/opt/swift/usr/lib/swift/linux -ldispatch -lBlocksRuntime \
//     -lpthread -Wl,-rpath,/opt/swift/usr/lib/swift/linux
// Usage: queue-sync-contended sync|mutex|semaphore|poll THREADS CRITICAL_NS OUTSIDE_NS [LOOK]
#include <dispatch/dispatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static dispatch_queue_t queue;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static long critical_ns, outside_ns, sections_per_thread;
static int use_queue, use_poll, use_semaphore;
static dispatch_semaphore_t semaphore;
static long pauses_between_looks = 16;
static _Atomic int poll_lock;

static void pause_once(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static int poll_try(void) {
    int idle = 0;
    return atomic_load_explicit(&poll_lock, memory_order_relaxed) == 0
        && atomic_compare_exchange_strong(&poll_lock, &idle, 1);
}

static void poll_acquire(void) {
    while (!poll_try()) {
        for (long i = 0; i < pauses_between_looks; i++) pause_once();
    }
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void busy(long ns) {
    if (ns == 0) return;
    long until = now_ns() + ns;
    while (now_ns() < until) {}
}

static void section(void *context) {
    (void)context;
    counter++;
    busy(critical_ns);
}

static void *thread_main(void *argument) {
    (void)argument;
    for (long i = 0; i < sections_per_thread; i++) {
        if (use_queue) {
            dispatch_sync_f(queue, NULL, section);
        } else if (use_semaphore) {
            dispatch_semaphore_wait(semaphore, DISPATCH_TIME_FOREVER);
            section(NULL);
            dispatch_semaphore_signal(semaphore);
        } else if (use_poll) {
            poll_acquire();
            section(NULL);
            atomic_store_explicit(&poll_lock, 0, memory_order_release);
        } else {
            pthread_mutex_lock(&mutex);
            section(NULL);
            pthread_mutex_unlock(&mutex);
        }
        busy(outside_ns);
    }
    return NULL;
}

static void nothing(void *context) { (void)context; }

int main(int argc, char **argv) {
    if ((argc != 5 && argc != 6)
        || (strcmp(argv[1], "sync") != 0 && strcmp(argv[1], "mutex") != 0 && strcmp(argv[1], "semaphore") != 0
            && strcmp(argv[1], "poll") != 0)
        || (argc == 6 && strcmp(argv[1], "poll") != 0)) {
        fprintf(stderr, "usage: %s sync|mutex|semaphore|poll THREADS CRITICAL_NS OUTSIDE_NS [LOOK (poll only)]\n", argv[0]);
        return 64;
    }
    use_queue = strcmp(argv[1], "sync") == 0;
    use_poll = strcmp(argv[1], "poll") == 0;
    use_semaphore = strcmp(argv[1], "semaphore") == 0;
    if (argc == 6) pauses_between_looks = atol(argv[5]);
    if (pauses_between_looks < 1) {
        fprintf(stderr, "LOOK is 1 or more pauses\n");
        return 64;
    }
    int threads = atoi(argv[2]);
    critical_ns = atol(argv[3]);
    outside_ns = atol(argv[4]);
    if (threads < 1 || threads > 64 || critical_ns < 0 || outside_ns < 0) {
        fprintf(stderr, "THREADS is 1 to 64, and the times are zero or more nanoseconds\n");
        return 64;
    }
    queue = dispatch_queue_create("queue-vs-lock", NULL);
    semaphore = dispatch_semaphore_create(1);
    dispatch_async_f(dispatch_get_global_queue(0, 0), NULL, nothing);  // a worker thread now exists
    // About 0.3 s of sections when they do not overlap at all; at least 20,000 of them.
    long per_section = critical_ns + outside_ns / threads + 50;
    sections_per_thread = 300000000L / per_section / threads;
    if (sections_per_thread * threads < 20000) sections_per_thread = 20000 / threads;
    pthread_t ids[64];
    long start = now_ns();
    for (int t = 0; t < threads; t++) pthread_create(&ids[t], NULL, thread_main, NULL);
    for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
    long elapsed = now_ns() - start;
    if (counter != sections_per_thread * threads) {
        fprintf(stderr, "lost sections: %ld of %ld\n", counter, sections_per_thread * threads);
        return 1;
    }
    printf("%.1f\n", (double)elapsed / (double)counter);
    return 0;
}
