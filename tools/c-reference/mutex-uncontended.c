// Reference for the `mutex-uncontended` workload: the same operation (lock, increment, unlock on
// one pthread mutex), timed in plain C, so the harness's figure can be checked against it.
// Usage: mutex-uncontended THREADS   (1: only this thread; 2: an idle second thread exists)
// Prints the median ns per operation of 20 samples of 10 ms each, after a warm-up.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sampling.h"

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile long counter;
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static int released;

static void *idle_thread(void *unused) {
    (void)unused;
    pthread_mutex_lock(&idle_lock);
    while (!released) pthread_cond_wait(&idle_cond, &idle_lock);
    pthread_mutex_unlock(&idle_lock);
    return NULL;
}

static void run(long n) {
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&mutex);
        counter++;
        pthread_mutex_unlock(&mutex);
    }
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    pthread_t idle;
    if (threads == 2) pthread_create(&idle, NULL, idle_thread, NULL);
    run(1000000);  // warm-up
    printf("%.2f\n", median_ns_per_operation(run));
    if (threads == 2) {
        pthread_mutex_lock(&idle_lock); released = 1; pthread_cond_signal(&idle_cond); pthread_mutex_unlock(&idle_lock);
        pthread_join(idle, NULL);
    }
    return 0;
}
