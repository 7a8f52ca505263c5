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

#endif
