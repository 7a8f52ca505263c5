#ifndef RUNTIMEBENCH_CFIFODISPATCH_H
#define RUNTIMEBENCH_CFIFODISPATCH_H

#include <stdint.h>

/// What FIFODispatch needs from C: the futex system call (syscall(2) is variadic, Swift cannot call
/// it) and thread-local slots (Swift has none; pthread_getspecific costs a call and a lookup, these
/// are one load each).

/// Blocks while *word == expected, until woken, until the absolute deadline (nanoseconds on
/// CLOCK_MONOTONIC, or CLOCK_REALTIME when `realtime` is non-zero; a negative deadline waits
/// forever), or spuriously. Returns 0 when woken or the value differed, ETIMEDOUT at the deadline,
/// EINTR on a signal.
int rb_futex_wait(uint32_t *word, uint32_t expected, int64_t deadline_ns, int realtime);

/// Wakes up to `count` threads blocked in rb_futex_wait on `word`. Returns how many it woke.
int rb_futex_wake(uint32_t *word, int count);

/// initial-exec: one thread-pointer-relative load (see CCurrentWorker.h for why that is safe).
extern __thread void *rb_fifo_worker_slot __attribute__((tls_model("initial-exec")));
extern __thread void *rb_fifo_frame_slot __attribute__((tls_model("initial-exec")));

/// The pool worker running on this thread (an unretained object pointer), or NULL.
static inline void *rb_fifo_worker(void) { return rb_fifo_worker_slot; }
static inline void rb_fifo_set_worker(void *worker) { rb_fifo_worker_slot = worker; }

/// The innermost queue frame this thread is running in (a pointer to a stack frame), or NULL.
static inline void *rb_fifo_frame(void) { return rb_fifo_frame_slot; }
static inline void rb_fifo_set_frame(void *frame) { rb_fifo_frame_slot = frame; }

#endif
