// Reference for the `mutex-uncontended` workload: the same operation (lock, increment, unlock on
// one pthread mutex), timed in plain C, so the harness's figure can be checked against it.
// Usage: mutex-uncontended THREADS   (1: only this thread; 2: an idle second thread exists)
// Prints the median ns per operation of 20 samples of 10 ms each, after a warm-up.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { SAMPLES = 20, TARGET_NS = 10000000 };

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

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void run(long n) {
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&mutex);
        counter++;
        pthread_mutex_unlock(&mutex);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    pthread_t idle;
    if (threads == 2) pthread_create(&idle, NULL, idle_thread, NULL);
    run(1000000);  // warm-up
    long batch = 1;
    for (;;) {  // calibrate: a batch lasting about TARGET_NS
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
    printf("%.2f\n", (samples[SAMPLES / 2 - 1] + samples[SAMPLES / 2]) / 2);
    if (threads == 2) {
        pthread_mutex_lock(&idle_lock); released = 1; pthread_cond_signal(&idle_cond); pthread_mutex_unlock(&idle_lock);
        pthread_join(idle, NULL);
    }
    return 0;
}
