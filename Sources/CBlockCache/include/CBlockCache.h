#ifndef RUNTIMEBENCH_CBLOCKCACHE_H
#define RUNTIMEBENCH_CBLOCKCACHE_H

/// The thread-local slots of the per-thread block caches (`BlockCache` in PThreadPrimitives): one
/// slot per kind of block, so fifo-dispatch's task nodes and work-stealing's heap jobs each have a
/// cache of their own on every thread. Swift has no thread-local storage; pthread_getspecific
/// costs a call and a lookup, a slot here is one load.
///
/// initial-exec: one thread-pointer-relative load (see CCurrentWorker.h for why that is safe).

/// How many kinds of block have a slot (`BlockCacheSlot` in Swift names them).
#define RB_BLOCK_CACHE_SLOTS 2

extern __thread void *rb_block_cache_slots[RB_BLOCK_CACHE_SLOTS] __attribute__((tls_model("initial-exec")));

/// The calling thread's cache in `slot` (an unretained object pointer), or NULL before its first use.
static inline void *rb_block_cache(int slot) { return rb_block_cache_slots[slot]; }

/// Installs `cache` in the calling thread's `slot`; `on_exit(cache)` is called when the thread
/// ends, after the slot is cleared. Every cache of one slot must pass the same `on_exit`.
void rb_block_cache_install(int slot, void *cache, void (*on_exit)(void *));

#endif
