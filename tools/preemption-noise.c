// A neighbour that takes each CPU now and then: one thread pinned to each CPU spins for ON
// microseconds, then sleeps for OFF microseconds, for SECONDS. Beside a benchmark it preempts the
// benchmark's threads at random points, as another process or the hypervisor would (PThreadPrimitives
// README, "A probe after waking a sleeper"); it cannot delay a wake-up the way a descheduled vCPU
// does, only the thread that was woken.
//
//   cc -O2 -pthread -o preemption-noise tools/preemption-noise.c
//   ./preemption-noise 300 300 600 &   # 300 µs of every 600 on each CPU, for ten minutes
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long on_us, off_us;
static double seconds;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *take_cpu(void *cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)(long)cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    double end = now() + seconds;
    while (now() < end) {
        double busy_until = now() + (double)on_us * 1e-6;
        while (now() < busy_until) {}
        usleep((useconds_t)off_us);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 || atol(argv[1]) <= 0 || atol(argv[2]) < 0 || atof(argv[3]) <= 0) {
        fprintf(stderr, "usage: %s ON_US OFF_US SECONDS (each CPU busy ON_US, then idle OFF_US)\n", argv[0]);
        return 2;
    }
    on_us = atol(argv[1]);
    off_us = atol(argv[2]);
    seconds = atof(argv[3]);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 256) cpus = 256;
    pthread_t threads[256];
    for (long cpu = 0; cpu < cpus; cpu++) pthread_create(&threads[cpu], NULL, take_cpu, (void *)cpu);
    for (long cpu = 0; cpu < cpus; cpu++) pthread_join(threads[cpu], NULL);
    return 0;
}
