#ifndef RUNTIMEBENCH_CEXECUTORJOB_H
#define RUNTIMEBENCH_CEXECUTORJOB_H

/// What RuntimeKit's executors need from C: the job running on this thread (RunningJob.swift), as
/// a thread-local (Swift has none; pthread_getspecific costs a call and a lookup, this is one load),
/// and the Concurrency runtime's current task.

/// A job of a RuntimeKit executor running on this thread, and the task executor it runs on.
typedef struct rb_executor_job {
    /// Nonzero while the job runs (set around `runSynchronously`).
    int running;
    /// The job's task executor, an `UnownedTaskExecutor`'s two words as Swift lays them out; both
    /// zero when the job names none (a real executor's object pointer is never null).
    void *_Nullable taskExecutor[2];
} rb_executor_job;

/// initial-exec: one thread-pointer-relative load (see CCurrentWorker.h for why that is safe).
extern __thread rb_executor_job rb_executor_job_slot __attribute__((tls_model("initial-exec")));

static inline rb_executor_job *_Nonnull rb_executor_job_current(void) { return &rb_executor_job_slot; }

/// The task running on this thread, or NULL: the Concurrency runtime's own entry point (part of
/// its stable ABI), which Swift's `withUnsafeCurrentTask` wraps. Called directly because that
/// wrapper, generic over its closure's result and not specialized across the module boundary,
/// took 18% of an actor hop's profile in value witnesses, more than the hand-off it guards.
extern void *_Nullable swift_task_getCurrent(void);
static inline void *_Nullable rb_swift_current_task(void) { return swift_task_getCurrent(); }

#endif
