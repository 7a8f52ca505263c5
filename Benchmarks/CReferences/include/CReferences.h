#ifndef RUNTIMEBENCH_C_REFERENCES_H
#define RUNTIMEBENCH_C_REFERENCES_H

// The suite's operations written directly in C against the runtimes (pthreads, POSIX semaphores,
// libdispatch's _f entry points): the `direct` workload's references, driven by the same child,
// sampler and counters as every case, so `bench fidelity` can put the suite's figure next to what
// the runtime itself costs. See Benchmarks/Workloads/Direct.swift.

#include <stdint.h>
#include "PieceTally.h"

/// One operation, as the suite's case of the same name performs it.
typedef enum {
    /// pthread_mutex_lock, ++counter, pthread_mutex_unlock (queue-vs-lock, guard=pthread-mutex).
    RB_DIRECT_PTHREAD_MUTEX,
    /// sem_wait + sem_post on a POSIX semaphore of value 1 (semaphore, pattern=uncontended).
    RB_DIRECT_POSIX_SEMAPHORE,
    /// dispatch_sync_f on a serial queue, ++counter inside (queue-vs-lock, guard=queue-sync).
    RB_DIRECT_DISPATCH_SYNC,
    /// dispatch_async_f of ++counter to a serial queue; each run ends with a dispatch_sync_f
    /// behind its blocks (queue-vs-lock, guard=queue-async).
    RB_DIRECT_DISPATCH_ASYNC_DRAIN,
    /// Chained dispatch_async_f on the default global queue: each link submits the next; the last
    /// signals the measuring thread (spawn, pattern=chain).
    RB_DIRECT_DISPATCH_CHAIN,
    /// Empty tasks submitted with dispatch_async_f to the default global queue from the measuring
    /// thread, which waits for the last (spawn, pattern=outside).
    RB_DIRECT_DISPATCH_OUTSIDE,
    /// Rounds of 2 x CPUs empty tasks with dispatch_group_async_f, then dispatch_group_wait
    /// (group, pattern=fan-out). One operation is one task.
    RB_DIRECT_DISPATCH_GROUP_FAN_OUT,
    /// pthread_create + pthread_join of a thread that only counts itself (thread-spawn).
    RB_DIRECT_PTHREAD_CREATE_JOIN,
    /// dispatch_group_enter + dispatch_group_leave, nobody waiting (group, pattern=enter-leave).
    RB_DIRECT_DISPATCH_GROUP_ENTER_LEAVE,
    /// dispatch_semaphore_wait + dispatch_semaphore_signal on a semaphore of value 1.
    RB_DIRECT_DISPATCH_SEMAPHORE,
    /// dispatch_apply_f over the pieces of a loop, each block looping over its stride with the
    /// spin body inlined in that loop, as the guide's striding does (apply-stride).
    RB_DIRECT_DISPATCH_APPLY,
} rb_direct_kind;

typedef struct rb_direct rb_direct;

/// Sets up one operation. `iterations`, `stride` and `spin` are used by
/// RB_DIRECT_DISPATCH_APPLY only (one operation is then one whole loop of `iterations`);
/// RB_DIRECT_DISPATCH_GROUP_FAN_OUT takes its round's width in `iterations`.
/// Returns NULL when the runtime refused to set up (errno says why).
rb_direct *rb_direct_create(rb_direct_kind kind, long iterations, long stride, rb_spin_rounds spin);

/// Performs `count` operations and returns once every one has completed.
void rb_direct_run(rb_direct *direct, long count);

/// 0 when everything run so far did what it should; otherwise writes why into `reason`
/// (NUL-terminated, at most `capacity` bytes) and returns nonzero. Cheap: a few loads.
int rb_direct_verify(rb_direct *direct, char *reason, unsigned long capacity);

/// Releases what `rb_direct_create` made. Every operation must have completed.
void rb_direct_destroy(rb_direct *direct);

#endif
