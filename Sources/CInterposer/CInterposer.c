// The call counter preloaded into a child that counts allocations. README.md beside this file
// explains the slots, the races and the orderings; the comments here say what each part is for.
#define _GNU_SOURCE
#include "CInterposer.h"
#include "CThreadSlots.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

// ---- Per-thread counts (CThreadSlots.h) ------------------------------------------------------

static struct rb_slot_table table;
static __thread struct rb_slot *current __attribute__((tls_model("initial-exec")));
static __thread bool claiming __attribute__((tls_model("initial-exec")));

static void give_back(void *taken) {
    current = &table.shared;
    rb_slot_give_back(taken);
}

__attribute__((constructor)) static void start_table(void) { rb_slot_table_start(&table, give_back); }

static inline void add(int kind, uint64_t amount) {
    struct rb_slot *own = current;
    if (__builtin_expect(own == NULL, 0)) {
        own = current = rb_slot_claim(&table, &claiming);
        if (own == NULL) own = &table.shared;  // this time only
    }
    rb_slot_add(&table, own, kind, amount);
}

uint32_t rb_interposer_version(void) { return RB_INTERPOSER_VERSION; }

void rb_interposer_read(uint64_t *totals) { rb_slot_sum(&table, totals, RB_COUNT_KINDS); }

// ---- The next definitions -----------------------------------------------------------------------

typedef void *(*malloc_fn)(size_t);
typedef void (*free_fn)(void *);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_fn)(size_t, size_t);
typedef void *(*valloc_fn)(size_t);

static struct {
    malloc_fn malloc;
    free_fn free;
    calloc_fn calloc;
    realloc_fn realloc;
    posix_memalign_fn posix_memalign;
    aligned_fn aligned_alloc;
    aligned_fn memalign;
    valloc_fn valloc;
    valloc_fn pvalloc;
} next;

// 0 unresolved, 1 resolving, 2 resolved.
static _Atomic int resolution;
static __thread bool resolving __attribute__((tls_model("initial-exec")));

static void resolve(void) {
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&resolution, &expected, 1, memory_order_acquire, memory_order_acquire)) {
        resolving = true;
        next.malloc = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
        next.free = (free_fn)dlsym(RTLD_NEXT, "free");
        next.calloc = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
        next.realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
        next.posix_memalign = (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
        next.aligned_alloc = (aligned_fn)dlsym(RTLD_NEXT, "aligned_alloc");
        next.memalign = (aligned_fn)dlsym(RTLD_NEXT, "memalign");
        next.valloc = (valloc_fn)dlsym(RTLD_NEXT, "valloc");
        next.pvalloc = (valloc_fn)dlsym(RTLD_NEXT, "pvalloc");
        resolving = false;
        atomic_store_explicit(&resolution, 2, memory_order_release);
    } else {
        while (atomic_load_explicit(&resolution, memory_order_acquire) != 2) {}
    }
}

// dlsym may allocate while `resolve` runs: those blocks come from here and are never freed.
enum { BOOTSTRAP_BYTES = 64 * 1024, BOOTSTRAP_ALIGNMENT = 16 };
static alignas(BOOTSTRAP_ALIGNMENT) unsigned char bootstrap[BOOTSTRAP_BYTES];
static _Atomic size_t bootstrap_used;

static bool in_bootstrap(const void *pointer) {
    return (const unsigned char *)pointer >= bootstrap && (const unsigned char *)pointer < bootstrap + BOOTSTRAP_BYTES;
}

static void *bootstrap_allocate(size_t size) {
    size_t rounded = (size + BOOTSTRAP_ALIGNMENT - 1) & ~(size_t)(BOOTSTRAP_ALIGNMENT - 1);
    size_t start = atomic_fetch_add_explicit(&bootstrap_used, rounded, memory_order_relaxed);
    if (start + rounded > BOOTSTRAP_BYTES) return NULL;
    return bootstrap + start;  // zero: static storage, never reused
}

/// True when the caller must use the bootstrap block: this thread is inside `resolve`.
static inline bool bootstrapping(void) {
    if (__builtin_expect(atomic_load_explicit(&resolution, memory_order_acquire) == 2, 1)) return false;
    if (resolving) return true;
    resolve();
    return false;
}

// ---- malloc's family --------------------------------------------------------------------------

static inline void counted_allocation(const void *block, size_t size) {
    if (block == NULL) return;
    add(RB_COUNT_MALLOCS, 1);
    add(RB_COUNT_BYTES, size);
}

void *malloc(size_t size) {
    if (bootstrapping()) return bootstrap_allocate(size);
    void *block = next.malloc(size);
    counted_allocation(block, size);
    return block;
}

void free(void *block) {
    if (block == NULL || in_bootstrap(block)) return;
    if (bootstrapping()) return;  // cannot happen: nothing was allocated by the next malloc yet
    add(RB_COUNT_FREES, 1);
    next.free(block);
}

void *calloc(size_t count, size_t size) {
    if (bootstrapping()) {
        size_t total;
        if (__builtin_mul_overflow(count, size, &total)) return NULL;
        return bootstrap_allocate(total);
    }
    void *block = next.calloc(count, size);
    counted_allocation(block, count * size);
    return block;
}

void *realloc(void *block, size_t size) {
    if (block != NULL && in_bootstrap(block)) {
        // Only dlsym's blocks: copy what fits; their sizes are not kept.
        void *moved = malloc(size);
        if (moved != NULL) {
            size_t available = (size_t)(bootstrap + BOOTSTRAP_BYTES - (unsigned char *)block);
            memcpy(moved, block, size < available ? size : available);
        }
        return moved;
    }
    if (bootstrapping()) return bootstrap_allocate(size);
    void *moved = next.realloc(block, size);
    if (block == NULL) {
        counted_allocation(moved, size);
    } else if (size == 0) {
        add(RB_COUNT_FREES, 1);  // realloc(p, 0) frees p (glibc)
    } else if (moved != NULL) {
        // A resize counts as a new block of the new size and the old one freed, whether or not
        // the allocator moved it: what a caller asked for does not depend on the allocator.
        counted_allocation(moved, size);
        add(RB_COUNT_FREES, 1);
    }
    return moved;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (bootstrapping()) {
        *result = bootstrap_allocate(size);
        return *result == NULL ? ENOMEM : 0;
    }
    int status = next.posix_memalign(result, alignment, size);
    if (status == 0) counted_allocation(*result, size);
    return status;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (bootstrapping()) return bootstrap_allocate(size);
    void *block = next.aligned_alloc(alignment, size);
    counted_allocation(block, size);
    return block;
}

void *memalign(size_t alignment, size_t size) {
    if (bootstrapping()) return bootstrap_allocate(size);
    void *block = next.memalign(alignment, size);
    counted_allocation(block, size);
    return block;
}

void *valloc(size_t size) {
    if (bootstrapping()) return bootstrap_allocate(size);
    void *block = next.valloc(size);
    counted_allocation(block, size);
    return block;
}

void *pvalloc(size_t size) {
    if (bootstrapping()) return bootstrap_allocate(size);
    void *block = next.pvalloc(size);
    counted_allocation(block, size);
    return block;
}

// ---- The Swift runtime's reference counting ---------------------------------------------------
// libswiftCore is loaded with the executable, after this library, so RTLD_NEXT finds it; each
// entry is looked up on its first call. Calls from inside libswiftCore do not come here: it calls
// its own entry points directly, not through its symbol table (README.md: what is counted).

typedef void *(*retain_fn)(void *);
typedef void *(*retain_n_fn)(void *, uint32_t);
typedef void (*release_fn)(void *);
typedef void (*release_n_fn)(void *, uint32_t);
typedef void *(*allocate_object_fn)(const void *, size_t, size_t);

static _Atomic(retain_fn) next_retain;
static _Atomic(retain_n_fn) next_retain_n;
static _Atomic(release_fn) next_release;
static _Atomic(release_n_fn) next_release_n;
static _Atomic(allocate_object_fn) next_allocate_object;

#define NEXT(variable, name)                                                                      \
    ({                                                                                            \
        __typeof__(atomic_load(&variable)) found = atomic_load_explicit(&variable, memory_order_relaxed); \
        if (__builtin_expect(found == NULL, 0)) {                                                 \
            found = (__typeof__(found))dlsym(RTLD_NEXT, name);                                    \
            atomic_store_explicit(&variable, found, memory_order_relaxed);                        \
        }                                                                                         \
        found;                                                                                    \
    })

void *swift_retain(void *object) {
    if (object != NULL) add(RB_COUNT_RETAINS, 1);
    return NEXT(next_retain, "swift_retain")(object);
}

void *swift_retain_n(void *object, uint32_t count) {
    if (object != NULL) add(RB_COUNT_RETAINS, count);
    return NEXT(next_retain_n, "swift_retain_n")(object, count);
}

void swift_release(void *object) {
    if (object != NULL) add(RB_COUNT_RELEASES, 1);
    NEXT(next_release, "swift_release")(object);
}

void swift_release_n(void *object, uint32_t count) {
    if (object != NULL) add(RB_COUNT_RELEASES, count);
    NEXT(next_release_n, "swift_release_n")(object, count);
}

void *swift_allocObject(const void *metadata, size_t size, size_t alignment_mask) {
    add(RB_COUNT_OBJECTS, 1);
    return NEXT(next_allocate_object, "swift_allocObject")(metadata, size, alignment_mask);
}
