#ifndef RUNTIMEBENCH_CURRENT_WORKER_H
#define RUNTIMEBENCH_CURRENT_WORKER_H

/// The work-stealing pool's "which worker is this thread?" slot, as a C thread-local: a join asks
/// on every call, and Swift has no thread-local storage of its own (pthread_getspecific behind a
/// lazily created key costs a call, a once-check and a lookup; this is one load).
///
/// initial-exec: one thread-pointer-relative load, no __tls_get_addr call. The slot is 8 bytes, well
/// within the static TLS surplus glibc keeps for libraries loaded later (a test bundle is dlopen'd).
extern __thread void *rb_current_worker_slot __attribute__((tls_model("initial-exec")));

/// The calling thread's worker (an unretained object pointer), or NULL.
static inline void *rb_current_worker(void) { return rb_current_worker_slot; }

/// Sets (or clears, with NULL) the calling thread's worker.
static inline void rb_set_current_worker(void *worker) { rb_current_worker_slot = worker; }

#endif
