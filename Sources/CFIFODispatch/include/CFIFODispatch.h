#ifndef RUNTIMEBENCH_CFIFODISPATCH_H
#define RUNTIMEBENCH_CFIFODISPATCH_H

#include <stdint.h>

/// What FIFODispatch needs from C besides the futex (CFutex): thread-local slots (Swift has none;
/// pthread_getspecific costs a call and a lookup, these are one load each).

/// initial-exec: one thread-pointer-relative load (see CCurrentWorker.h for why that is safe).
extern __thread void *rb_fifo_worker_slot __attribute__((tls_model("initial-exec")));
extern __thread void *rb_fifo_frame_slot __attribute__((tls_model("initial-exec")));
extern __thread void *rb_fifo_handoff_slot __attribute__((tls_model("initial-exec")));

/// The pool worker running on this thread (an unretained object pointer), or NULL.
static inline void *rb_fifo_worker(void) { return rb_fifo_worker_slot; }
static inline void rb_fifo_set_worker(void *worker) { rb_fifo_worker_slot = worker; }

/// The innermost queue frame this thread is running in (a pointer to a stack frame), or NULL.
static inline void *rb_fifo_frame(void) { return rb_fifo_frame_slot; }
static inline void rb_fifo_set_frame(void *frame) { rb_fifo_frame_slot = frame; }

/// The worker's hand-off slot (allocated per worker thread), or NULL off the workers.
static inline void *rb_fifo_handoff(void) { return rb_fifo_handoff_slot; }
static inline void rb_fifo_set_handoff(void *slot) { rb_fifo_handoff_slot = slot; }

/// The task running on this thread, or NULL: the Concurrency runtime's own entry point (part of
/// its stable ABI), which Swift's `withUnsafeCurrentTask` wraps. Called directly because that
/// wrapper, generic over its closure's result and not specialized across the module boundary,
/// took 18% of an actor hop's profile in value witnesses, more than the hand-off it guards.
extern void *swift_task_getCurrent(void);
static inline void *rb_swift_current_task(void) { return swift_task_getCurrent(); }

#endif
