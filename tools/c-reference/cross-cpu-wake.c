// What a thread hand-off costs when the woken thread sleeps in the kernel: two threads pinned to
// CPUs A and B take turns, each waking the other through a futex and then sleeping until woken
// back. The figure is ns per one-way hand-off (the wake-up, the woken thread getting its CPU,
// and its return from the wait). On one CPU it is two context switches; across two it is an
// interprocessor interrupt to a halted or busy CPU, which a virtual machine may have to deliver
// through its host. The reference for the pools' idle searches: a worker still looking when a
// job comes back saves the job this hand-off (FIFODispatch/README.md, "Searching slowly").
//   clang -O2 -pthread tools/c-reference/cross-cpu-wake.c -o /tmp/cross-cpu-wake
// Usage: /tmp/cross-cpu-wake A B [ROUNDS]   e.g. 0 0 (one CPU), then 0 1 (two)
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static _Atomic int turn;  // 1: the partner's turn, 0: the main thread's
static int rounds, partner_cpu;

static void sleep_while(int value) {
    while (atomic_load(&turn) == value) syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void hand_to(int value) {
    atomic_store(&turn, value);
    syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static int pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *partner(void *unused) {
    (void)unused;
    if (pin(partner_cpu) != 0) { fprintf(stderr, "cannot pin to CPU %d\n", partner_cpu); exit(2); }
    for (int i = 0; i < rounds; i++) {
        sleep_while(0);
        hand_to(0);
    }
    return NULL;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s CPU_A CPU_B [ROUNDS]\n", argv[0]); return 64; }
    int main_cpu = atoi(argv[1]);
    partner_cpu = atoi(argv[2]);
    rounds = argc > 3 ? atoi(argv[3]) : 20000;
    if (rounds <= 0) { fprintf(stderr, "ROUNDS must be positive\n"); return 64; }
    if (pin(main_cpu) != 0) { fprintf(stderr, "cannot pin to CPU %d\n", main_cpu); return 2; }
    pthread_t thread;
    pthread_create(&thread, NULL, partner, NULL);
    usleep(10000);  // the partner asleep in its first wait
    double start = now_ns();
    for (int i = 0; i < rounds; i++) {
        hand_to(1);
        sleep_while(1);
    }
    double end = now_ns();
    pthread_join(thread, NULL);
    printf("CPUs %d and %d: %.0f ns a hand-off (%d round trips)\n", main_cpu, partner_cpu, (end - start) / rounds / 2,
           rounds);
    return 0;
}
