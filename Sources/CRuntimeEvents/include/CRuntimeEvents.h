#ifndef RUNTIMEBENCH_RUNTIME_EVENTS_H
#define RUNTIMEBENCH_RUNTIME_EVENTS_H

#include "CThreadSlots.h"

// Our backends' scheduling events, counted on the thread where each happens, in that thread's
// slot (CThreadSlots.h): a load and a store on a line no other thread writes, summed only when
// read. The kinds are RuntimeKit's RuntimeEvent cases, in the same order.

extern struct rb_slot_table rb_events_table;
extern __thread struct rb_slot *rb_events_current __attribute__((tls_model("initial-exec")));

/// The calling thread's slot, claimed on its first event (out of line: once per thread).
struct rb_slot *rb_events_claim(void);

static inline void rb_event_add(int kind, uint64_t amount) {
    struct rb_slot *own = rb_events_current;
    if (__builtin_expect(own == NULL, 0)) own = rb_events_claim();
    rb_slot_add(&rb_events_table, own, kind, amount);
}

/// A slot of its own, on the heap, for an owner that counts on a hot path: a worker, whose joins
/// count into it without the thread-local lookup. Only one thread at a time may count into it;
/// the owner returns it with `rb_events_return_slot`, and its counts stay in the totals (a later
/// owner continues from them). Such slots are never freed: there are at most as many as workers
/// alive at once. Never the shared slot: it aborts when memory for a slot cannot be had.
void *rb_events_take_slot(void);
void rb_events_return_slot(void *slot);

/// Counts into a slot from `rb_events_take_slot`: never the shared slot, so a load and a store.
static inline void rb_event_add_to(void *slot, int kind, uint64_t amount) {
    _Atomic uint64_t *count = &((struct rb_slot *)slot)->counts[kind];
    atomic_store_explicit(count, atomic_load_explicit(count, memory_order_relaxed) + amount, memory_order_relaxed);
}

/// Each of the first `kinds` events' totals over every thread that ever counted. Never allocates.
void rb_events_read(uint64_t *totals, int kinds);

#endif
