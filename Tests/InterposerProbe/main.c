// Run with libRuntimeBenchInterposer.so preloaded: waves of threads, more of them alive at once
// than the interposer has slots, each making a known set of allocation calls between two
// readings of the interposer's totals. Every call must be counted exactly once, including those
// of threads that took over a slot an exited thread gave back. Exit 0 when they are, 1 when a
// total is off (printed), 3 when the interposer is not preloaded.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { KINDS = 6, MALLOCS = 0, FREES = 1, BYTES = 2 };  // CInterposer.h's RB_COUNT_*
enum { SIZE = 24 };

typedef void (*read_fn)(uint64_t *);
static pthread_barrier_t ready, go, finished;
static int rounds;

// Four blocks per round: malloc + resize (one block of 2×SIZE, the old one freed), calloc and
// posix_memalign: 4 mallocs, 4 frees and 5×SIZE bytes.
static void *work(void *unused) {
    (void)unused;
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&go);
    for (int round = 0; round < rounds; round++) {
        void *block = malloc(SIZE);
        block = realloc(block, 2 * SIZE);
        free(block);
        free(calloc(1, SIZE));
        void *aligned = NULL;
        if (posix_memalign(&aligned, 64, SIZE) == 0) free(aligned);
    }
    pthread_barrier_wait(&finished);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1100;
    int waves = argc > 2 ? atoi(argv[2]) : 3;
    rounds = argc > 3 ? atoi(argv[3]) : 300;
    read_fn read_totals = (read_fn)dlsym(RTLD_DEFAULT, "rb_interposer_read");
    if (read_totals == NULL) {
        fprintf(stderr, "rb_interposer_read not found: run with LD_PRELOAD=libRuntimeBenchInterposer.so\n");
        return 3;
    }
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    int failures = 0;
    for (int wave = 0; wave < waves; wave++) {
        pthread_barrier_init(&ready, NULL, (unsigned)threads + 1);
        pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
        pthread_barrier_init(&finished, NULL, (unsigned)threads + 1);
        for (int index = 0; index < threads; index++) {
            if (pthread_create(&ids[index], &attributes, work, NULL) != 0) {
                fprintf(stderr, "pthread_create failed at thread %d\n", index);
                return 2;
            }
        }
        // Every thread has started (its creation's own allocations done) and none has begun
        // its rounds at the first reading; none has exited at the second. Between them, only
        // the rounds allocate: the main thread and the barriers do not.
        uint64_t before[KINDS], after[KINDS];
        pthread_barrier_wait(&ready);
        read_totals(before);
        pthread_barrier_wait(&go);
        pthread_barrier_wait(&finished);
        read_totals(after);
        for (int index = 0; index < threads; index++) pthread_join(ids[index], NULL);
        pthread_barrier_destroy(&ready);
        pthread_barrier_destroy(&go);
        pthread_barrier_destroy(&finished);
        uint64_t calls = (uint64_t)threads * (uint64_t)rounds;
        uint64_t expected[3] = {4 * calls, 4 * calls, 5 * SIZE * calls};
        const char *names[3] = {"mallocs", "frees", "bytes"};
        for (int kind = 0; kind < 3; kind++) {
            uint64_t counted = after[kind] - before[kind];
            if (counted != expected[kind]) {
                fprintf(stderr, "wave %d: %s counted %" PRIu64 ", expected %" PRIu64 "\n", wave, names[kind], counted, expected[kind]);
                failures++;
            }
        }
    }
    printf("%d waves of %d threads x %d rounds: %s\n", waves, threads, rounds, failures == 0 ? "every call counted once" : "miscounted");
    return failures == 0 ? 0 : 1;
}
