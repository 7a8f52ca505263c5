#define _GNU_SOURCE
#include "CMachineProbe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define RB_PAUSE() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define RB_PAUSE() __asm__ __volatile__("yield")
#else
#define RB_PAUSE() ((void)0)
#endif

/// Round trips before any is timed, and per timed batch. The probe reports its fastest batch: a
/// batch in which the OS preempted either thread (a time slice is milliseconds, a trip tens of
/// nanoseconds) times the preemption, not the machine, and the machine's state that the probe
/// is for lasts seconds, so it shows in every batch.
enum { warm_up = 200, batch = 500 };
/// The counter's value that tells the other thread to stop: it could not pin itself, or the
/// timing thread is done.
static const long stop = -1;

struct probe {
    /// Alone on its cache line: the line whose trips are timed. The timing thread writes odd
    /// values, the answering thread the next even one. Release/acquire on this one word is all the
    /// two threads share while they run; the rest is written before they start or read after
    /// they are joined.
    _Alignas(64) _Atomic long turn;
    _Alignas(64) int round_trips;
    long long budget;
    double result;
};

struct side {
    struct probe *probe;
    int cpu;
};

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/// Answers each odd value with the next even one until told to stop.
static void *answer(void *argument) {
    struct side *side = argument;
    struct probe *probe = side->probe;
    if (pin(side->cpu) != 0) {
        atomic_store_explicit(&probe->turn, stop, memory_order_release);
        return 0;
    }
    long expected = 1;
    for (;;) {
        long seen = atomic_load_explicit(&probe->turn, memory_order_acquire);
        if (seen == stop) return 0;
        if (seen == expected) {
            atomic_store_explicit(&probe->turn, expected + 1, memory_order_release);
            expected += 2;
        } else {
            RB_PAUSE();
        }
    }
}

/// Sends odd values and waits for their answers, timing batches of round trips after the
/// warm-up, until `round_trips` are timed or the budget is spent, then tells the answering thread
/// to stop. Leaves the fastest batch's time per hop in `result`, or -1 when no batch finished.
static void *ask(void *argument) {
    struct side *side = argument;
    struct probe *probe = side->probe;
    if (pin(side->cpu) != 0) {
        atomic_store_explicit(&probe->turn, stop, memory_order_release);
        return 0;
    }
    long long deadline = now_ns() + probe->budget, batch_start = 0;
    long trip = 0;
    for (;; trip++) {
        long into = trip - warm_up;
        if (into >= 0 && into % batch == 0) {
            long long now = now_ns();
            if (into > 0) {
                double hop = (double)(now - batch_start) / batch / 2;
                if (probe->result < 0 || hop < probe->result) probe->result = hop;
            }
            if (into >= probe->round_trips || now > deadline) break;
            batch_start = now;
        } else if (into < 0 && trip % 64 == 0 && now_ns() > deadline) {
            break;
        }
        // Only this thread writes odd values, and only after the answer to the last one came.
        long expected = 2 * trip + 1;
        if (!atomic_compare_exchange_strong_explicit(
                &probe->turn, &(long){expected - 1}, expected, memory_order_acq_rel, memory_order_acquire))
            return 0;  // the answering thread could not pin itself
        long seen;
        while ((seen = atomic_load_explicit(&probe->turn, memory_order_acquire)) != expected + 1) {
            if (seen == stop) return 0;
            RB_PAUSE();
        }
    }
    atomic_store_explicit(&probe->turn, stop, memory_order_release);
    return 0;
}

double rb_cpu_hop_nanoseconds(int first, int second, int round_trips, long long budget_nanoseconds) {
    struct probe probe = {.round_trips = round_trips, .budget = budget_nanoseconds, .result = -1};
    atomic_init(&probe.turn, 0);
    struct side asking = {&probe, first}, answering = {&probe, second};
    pthread_t asker, answerer;
    if (pthread_create(&answerer, 0, answer, &answering) != 0) return -1;
    if (pthread_create(&asker, 0, ask, &asking) != 0) {
        atomic_store_explicit(&probe.turn, stop, memory_order_release);
        pthread_join(answerer, 0);
        return -1;
    }
    pthread_join(asker, 0);
    pthread_join(answerer, 0);
    return probe.result;
}
