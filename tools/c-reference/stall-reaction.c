// How long libdispatch takes to add a thread when every worker blocks where it cannot see: the
// reference for the stall monitors of our pools (PThreadPrimitives/StallMonitor.swift).
// Each round: as many blocks as CPUs go to the default global queue, each blocked on a plain
// pthread condition (a wait libdispatch cannot see); once all are blocked, one more block is
// submitted and the time until it starts is the reaction. It then releases the blockers. Only a
// process's first round measures the monitor: libdispatch keeps idle threads for seconds, so a
// later round finds one waiting (0 ms). The first round reads about 1,000 ms (the monitor's
// once-a-second tick) or 0 ms when a submission happened to start a spare thread early: run it
// as fresh processes. Build with the toolchain's libdispatch (toolchain at /opt/swift):
//   clang -O2 -I/opt/swift/usr/lib/swift tools/c-reference/stall-reaction.c -o /tmp/stall-reaction \
//     -L/opt/swift/usr/lib/swift/linux -ldispatch -lBlocksRuntime -lpthread -Wl,-rpath,/opt/swift/usr/lib/swift/linux
// Usage: for i in $(seq 10); do /tmp/stall-reaction 1 | tail -n 1; done
#include <dispatch/dispatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int blocked, released;
static long long started_at;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void blocker(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    blocked += 1;
    pthread_cond_broadcast(&changed);
    while (!released) pthread_cond_wait(&changed, &lock);
    blocked -= 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

static void latecomer(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    started_at = now_ns();
    released = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    if (rounds < 1) rounds = 1;
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    dispatch_queue_t global = dispatch_get_global_queue(0, 0);
    long long *reactions = calloc((size_t)rounds, sizeof *reactions);
    for (int round = 0; round < rounds; round++) {
        pthread_mutex_lock(&lock);
        released = 0;
        started_at = 0;
        pthread_mutex_unlock(&lock);
        for (int i = 0; i < cpus; i++) dispatch_async_f(global, NULL, blocker);
        pthread_mutex_lock(&lock);
        while (blocked < cpus) pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        long long submitted = now_ns();
        dispatch_async_f(global, NULL, latecomer);
        pthread_mutex_lock(&lock);
        while (!released || blocked > 0) pthread_cond_wait(&changed, &lock);
        reactions[round] = started_at - submitted;
        pthread_mutex_unlock(&lock);
        printf("round %d: %.1f ms\n", round + 1, reactions[round] / 1e6);
        fflush(stdout);
        usleep(200000);  // let the pool settle between rounds
    }
    qsort(reactions, (size_t)rounds, sizeof *reactions, compare);
    printf("libdispatch stall reaction, %d CPUs: median %.1f ms, min %.1f, max %.1f (%d rounds)\n", cpus,
           reactions[rounds / 2] / 1e6, reactions[0] / 1e6, reactions[rounds - 1] / 1e6, rounds);
    return 0;
}
