#include "CReferences.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

// libdispatch's C entry points, declared here rather than included: the toolchain keeps its
// headers outside the C include path, and every dispatch object is a pointer in the C ABI (see
// Sources/CDispatchShim).
typedef void (*dispatch_function)(void *context);
extern void *dispatch_queue_create(const char *label, void *attribute);
extern void *dispatch_get_global_queue(long identifier, unsigned long flags);
extern void dispatch_sync_f(void *queue, void *context, dispatch_function work);
extern void dispatch_async_f(void *queue, void *context, dispatch_function work);
extern void dispatch_group_async_f(void *group, void *queue, void *context, dispatch_function work);
extern void dispatch_apply_f(size_t iterations, void *queue, void *context, void (*work)(void *context, size_t iteration));
extern void *dispatch_group_create(void);
extern void dispatch_group_enter(void *group);
extern void dispatch_group_leave(void *group);
extern long dispatch_group_wait(void *group, uint64_t timeout);
extern void *dispatch_semaphore_create(long value);
extern long dispatch_semaphore_wait(void *semaphore, uint64_t timeout);
extern long dispatch_semaphore_signal(void *semaphore);
extern void dispatch_release(void *object);
static const uint64_t DISPATCH_NOW = 0, DISPATCH_FOREVER = ~0ull;

struct rb_direct {
    rb_direct_kind kind;
    /// Operations performed by completed runs: what every check compares with.
    long performed;
    /// The guarded counter (mutex, sync, async) or the links run (chain).
    long counter;
    /// Semaphore signals that claimed to wake a waiter, with none waiting.
    long claimed_wake_ups;
    pthread_mutex_t mutex;
    sem_t posix_semaphore;
    void *queue, *group, *semaphore, *done;
    /// Chain: links still to run in this run. Outside: tasks still to arrive.
    long links_left;
    /// Fan-out: tasks per round.
    long width;
    /// Fan-out: group waits that returned before their round's tasks were all counted.
    long early_waits;
    /// Apply.
    long iterations, stride, pieces;
    rb_spin_piece_context body;
};

static void increment(void *context) { ((rb_direct *)context)->counter++; }
static void nothing(void *context) { (void)context; }

// A link reads the count left and submits the next; the last wakes the measuring thread. Relaxed:
// consecutive links are ordered by the submission between them, and the semaphore publishes the
// last to the measuring thread.
static void chain_link(void *context) {
    rb_direct *direct = context;
    direct->counter++;
    if (__atomic_sub_fetch(&direct->links_left, 1, __ATOMIC_RELAXED) > 0) {
        dispatch_async_f(dispatch_get_global_queue(0, 0), direct, chain_link);
    } else {
        dispatch_semaphore_signal(direct->done);
    }
}

// Counts itself and wakes the measuring thread if it is the last of the run's tasks. acq_rel:
// every task's count reaches the one that brings the total to zero, and the semaphore hands them
// to the measuring thread.
static void outside_task(void *context) {
    rb_direct *direct = context;
    __atomic_fetch_add(&direct->counter, 1, __ATOMIC_RELAXED);
    if (__atomic_sub_fetch(&direct->links_left, 1, __ATOMIC_ACQ_REL) == 0) dispatch_semaphore_signal(direct->done);
}

// relaxed: the group orders every task's end before the wait that returns after it.
static void fan_out_task(void *context) { __atomic_fetch_add(&((rb_direct *)context)->counter, 1, __ATOMIC_RELAXED); }

// relaxed: pthread_join orders the thread's count before the measuring thread reads it.
static void *thread_body(void *context) {
    __atomic_fetch_add(&((rb_direct *)context)->counter, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void apply_piece(void *context, size_t piece) {
    rb_direct *direct = context;
    long lower = (long)piece * direct->stride;
    long upper = lower + direct->stride < direct->iterations ? lower + direct->stride : direct->iterations;
    rb_spin_piece(&direct->body, lower, upper);
}

rb_direct *rb_direct_create(rb_direct_kind kind, long iterations, long stride, rb_spin_rounds spin) {
    rb_direct *direct = calloc(1, sizeof *direct);
    if (!direct) return NULL;
    direct->kind = kind;
    switch (kind) {
    case RB_DIRECT_PTHREAD_MUTEX:
        pthread_mutex_init(&direct->mutex, NULL);
        break;
    case RB_DIRECT_POSIX_SEMAPHORE:
        if (sem_init(&direct->posix_semaphore, 0, 1) != 0) { free(direct); return NULL; }
        break;
    case RB_DIRECT_DISPATCH_SYNC:
    case RB_DIRECT_DISPATCH_ASYNC_DRAIN:
        direct->queue = dispatch_queue_create("direct", NULL);  // NULL attribute: serial
        break;
    case RB_DIRECT_DISPATCH_CHAIN:
    case RB_DIRECT_DISPATCH_OUTSIDE:
        direct->done = dispatch_semaphore_create(0);
        break;
    case RB_DIRECT_DISPATCH_GROUP_FAN_OUT:
        if (iterations < 1) { free(direct); errno = EINVAL; return NULL; }
        direct->width = iterations;
        direct->group = dispatch_group_create();
        break;
    case RB_DIRECT_PTHREAD_CREATE_JOIN:
        break;
    case RB_DIRECT_DISPATCH_GROUP_ENTER_LEAVE:
        direct->group = dispatch_group_create();
        break;
    case RB_DIRECT_DISPATCH_SEMAPHORE:
        direct->semaphore = dispatch_semaphore_create(1);
        break;
    case RB_DIRECT_DISPATCH_APPLY:
        if (iterations < 0 || stride < 1) { free(direct); errno = EINVAL; return NULL; }
        direct->iterations = iterations;
        direct->stride = stride;
        direct->pieces = (iterations + stride - 1) / stride;
        direct->body.spin = spin;
        direct->body.tally = rb_piece_tally_create();
        if (!direct->body.tally) { free(direct); return NULL; }
        break;
    }
    return direct;
}

void rb_direct_run(rb_direct *direct, long count) {
    switch (direct->kind) {
    case RB_DIRECT_PTHREAD_MUTEX:
        for (long i = 0; i < count; i++) {
            pthread_mutex_lock(&direct->mutex);
            direct->counter++;
            pthread_mutex_unlock(&direct->mutex);
        }
        break;
    case RB_DIRECT_POSIX_SEMAPHORE:
        for (long i = 0; i < count; i++) {
            while (sem_wait(&direct->posix_semaphore) != 0) {}  // EINTR: try again
            sem_post(&direct->posix_semaphore);
            direct->counter++;
        }
        break;
    case RB_DIRECT_DISPATCH_SYNC:
        for (long i = 0; i < count; i++) dispatch_sync_f(direct->queue, direct, increment);
        break;
    case RB_DIRECT_DISPATCH_ASYNC_DRAIN:
        for (long i = 0; i < count; i++) dispatch_async_f(direct->queue, direct, increment);
        dispatch_sync_f(direct->queue, NULL, nothing);  // returns once every block before it ran
        break;
    case RB_DIRECT_DISPATCH_CHAIN:
        if (count <= 0) break;
        __atomic_store_n(&direct->links_left, count, __ATOMIC_RELAXED);
        dispatch_async_f(dispatch_get_global_queue(0, 0), direct, chain_link);
        dispatch_semaphore_wait(direct->done, DISPATCH_FOREVER);
        break;
    case RB_DIRECT_DISPATCH_OUTSIDE:
        if (count <= 0) break;
        __atomic_store_n(&direct->links_left, count, __ATOMIC_RELAXED);
        for (long i = 0; i < count; i++) dispatch_async_f(dispatch_get_global_queue(0, 0), direct, outside_task);
        dispatch_semaphore_wait(direct->done, DISPATCH_FOREVER);
        break;
    case RB_DIRECT_DISPATCH_GROUP_FAN_OUT: {
        // Each wait's round checked against the tally, as the workload and Go's program check it:
        // the read brings the tally's line to this CPU once a round, which they pay too.
        long submitted = direct->performed;
        for (long left = count; left > 0; left -= direct->width) {
            long wave = left < direct->width ? left : direct->width;
            for (long i = 0; i < wave; i++) dispatch_group_async_f(direct->group, dispatch_get_global_queue(0, 0), direct, fan_out_task);
            submitted += wave;
            dispatch_group_wait(direct->group, DISPATCH_FOREVER);
            if (__atomic_load_n(&direct->counter, __ATOMIC_RELAXED) < submitted) direct->early_waits++;
        }
        break;
    }
    case RB_DIRECT_PTHREAD_CREATE_JOIN:
        for (long i = 0; i < count; i++) {
            pthread_t thread;
            if (pthread_create(&thread, NULL, thread_body, direct) != 0) abort();  // as PThread.spawn stops on a failed create
            pthread_join(thread, NULL);
        }
        break;
    case RB_DIRECT_DISPATCH_GROUP_ENTER_LEAVE:
        for (long i = 0; i < count; i++) {
            dispatch_group_enter(direct->group);
            dispatch_group_leave(direct->group);
        }
        break;
    case RB_DIRECT_DISPATCH_SEMAPHORE:
        for (long i = 0; i < count; i++) {
            dispatch_semaphore_wait(direct->semaphore, DISPATCH_FOREVER);
            if (dispatch_semaphore_signal(direct->semaphore)) direct->claimed_wake_ups++;
        }
        break;
    case RB_DIRECT_DISPATCH_APPLY:
        for (long i = 0; i < count; i++) {
            if (direct->pieces > 0) dispatch_apply_f((size_t)direct->pieces, dispatch_get_global_queue(0, 0), direct, apply_piece);
        }
        break;
    }
    direct->performed += count;
}

int rb_direct_verify(rb_direct *direct, char *reason, unsigned long capacity) {
    long performed = direct->performed;
    switch (direct->kind) {
    case RB_DIRECT_DISPATCH_GROUP_FAN_OUT:
        if (direct->early_waits != 0) {
            snprintf(reason, capacity, "%ld group waits returned before their round's tasks had all run", direct->early_waits);
            return 1;
        }
        // fall through: and every task ran once
    case RB_DIRECT_PTHREAD_MUTEX:
    case RB_DIRECT_POSIX_SEMAPHORE:
    case RB_DIRECT_DISPATCH_SYNC:
    case RB_DIRECT_DISPATCH_ASYNC_DRAIN:
    case RB_DIRECT_DISPATCH_CHAIN:
    case RB_DIRECT_DISPATCH_OUTSIDE:
    case RB_DIRECT_PTHREAD_CREATE_JOIN:
        if (__atomic_load_n(&direct->counter, __ATOMIC_RELAXED) != performed) {
            snprintf(reason, capacity, "%ld operations ran, %ld were performed", direct->counter, performed);
            return 1;
        }
        return 0;
    case RB_DIRECT_DISPATCH_GROUP_ENTER_LEAVE:
        if (dispatch_group_wait(direct->group, DISPATCH_NOW) != 0) {
            snprintf(reason, capacity, "after %ld enter + leave pairs the group is not empty", performed);
            return 1;
        }
        return 0;
    case RB_DIRECT_DISPATCH_SEMAPHORE:
        if (direct->claimed_wake_ups != 0) {
            snprintf(reason, capacity, "%ld signals claimed to wake a waiter, with none waiting", direct->claimed_wake_ups);
            return 1;
        }
        return 0;
    case RB_DIRECT_DISPATCH_APPLY: {
        uint64_t count, sum;
        rb_piece_tally_totals(direct->body.tally, &count, &sum);
        uint64_t loops = (uint64_t)performed, n = (uint64_t)direct->iterations;
        uint64_t loop_sum = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
        if (count != loops * n || sum != loops * loop_sum) {
            snprintf(reason, capacity, "after %ld loops of %ld iterations: %llu indices ran (expected %llu), index sum %llu (expected %llu)",
                     performed, direct->iterations, (unsigned long long)count, (unsigned long long)(loops * n),
                     (unsigned long long)sum, (unsigned long long)(loops * loop_sum));
            return 1;
        }
        return 0;
    }
    }
    return 0;
}

void rb_direct_destroy(rb_direct *direct) {
    switch (direct->kind) {
    case RB_DIRECT_PTHREAD_MUTEX: pthread_mutex_destroy(&direct->mutex); break;
    case RB_DIRECT_POSIX_SEMAPHORE: sem_destroy(&direct->posix_semaphore); break;
    case RB_DIRECT_DISPATCH_SYNC:
    case RB_DIRECT_DISPATCH_ASYNC_DRAIN: dispatch_release(direct->queue); break;
    case RB_DIRECT_DISPATCH_CHAIN:
    case RB_DIRECT_DISPATCH_OUTSIDE: dispatch_release(direct->done); break;
    case RB_DIRECT_DISPATCH_GROUP_FAN_OUT: dispatch_release(direct->group); break;
    case RB_DIRECT_PTHREAD_CREATE_JOIN: break;
    case RB_DIRECT_DISPATCH_GROUP_ENTER_LEAVE: dispatch_release(direct->group); break;
    case RB_DIRECT_DISPATCH_SEMAPHORE: dispatch_release(direct->semaphore); break;
    case RB_DIRECT_DISPATCH_APPLY: rb_piece_tally_destroy(direct->body.tally); break;
    }
    free(direct);
}
