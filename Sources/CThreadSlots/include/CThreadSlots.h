#ifndef RUNTIMEBENCH_THREAD_SLOTS_H
#define RUNTIMEBENCH_THREAD_SLOTS_H

// Counts kept per thread and summed when read: a table of cache-line slots, one per live thread,
// in static storage (the interposer cannot allocate: it is the allocator's front). A slot's
// owner adds with a relaxed load and store, no locked instruction; slots are never reset and are
// handed over when a thread exits, so the sum never loses an exited thread's counts. Everything
// is static inline: each library that includes this has its own table (the interposer's, the
// runtimes' events). Sources/CInterposer/README.md explains the races and orderings.

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum { RB_SLOT_COUNT = 1024, RB_SLOT_KINDS = 18 };

struct rb_slot {
    alignas(64) _Atomic uint64_t counts[RB_SLOT_KINDS];
    _Atomic int owned;  // 1 while a live thread writes the slot
};

struct rb_slot_table {
    struct rb_slot slots[RB_SLOT_COUNT];
    // Calls before a thread can have a slot, after it gave its slot back (other exit handlers
    // still run), or when every slot is taken: written with atomic additions.
    struct rb_slot shared;
    pthread_key_t exit_key;
    _Atomic bool exit_key_ready;
    // One past the highest slot ever taken: the reader sums only those (a few lines, not the
    // table's 128 KiB, which it read between every two samples).
    _Atomic int slots_used;
};

/// Creates the key whose destructor (`give_back`, which calls `rb_slot_give_back`) returns a
/// thread's slot when it exits. Until this has run, every call counts in the shared slot.
static inline void rb_slot_table_start(struct rb_slot_table *table, void (*give_back)(void *)) {
    if (pthread_key_create(&table->exit_key, give_back) == 0) {
        atomic_store_explicit(&table->exit_key_ready, true, memory_order_release);
    }
}

/// Takes `slot` if no thread owns it. acquire: the counts its previous owner stored before giving
/// it back are the ones the taker continues from.
static inline bool rb_slot_try_take(struct rb_slot *slot) {
    int expected = 0;
    return atomic_load_explicit(&slot->owned, memory_order_relaxed) == 0
        && atomic_compare_exchange_strong_explicit(&slot->owned, &expected, 1, memory_order_acquire, memory_order_relaxed);
}

/// A free slot for the calling thread, registered to be given back at its exit, or the shared
/// slot when none is free: the caller keeps either. NULL when the caller should count this call
/// in the shared slot and ask again next time: the key is not ready yet, or the thread is inside
/// this function already (`claiming`, its own flag: pthread_setspecific may allocate, and an
/// interposed malloc comes back here).
static inline struct rb_slot *rb_slot_claim(struct rb_slot_table *table, bool *claiming) {
    if (*claiming || !atomic_load_explicit(&table->exit_key_ready, memory_order_acquire)) return NULL;
    *claiming = true;
    struct rb_slot *found = &table->shared;
    for (int index = 0; index < RB_SLOT_COUNT; index++) {
        struct rb_slot *slot = &table->slots[index];
        if (rb_slot_try_take(slot)) {
            if (pthread_setspecific(table->exit_key, slot) == 0) {
                found = slot;
                // release: a reader that sees the new bound sees the slot's counts from here on.
                int used = atomic_load_explicit(&table->slots_used, memory_order_relaxed);
                while (used < index + 1
                       && !atomic_compare_exchange_weak_explicit(&table->slots_used, &used, index + 1, memory_order_release,
                                                                 memory_order_relaxed)) {}
            } else {
                atomic_store_explicit(&slot->owned, 0, memory_order_release);
            }
            break;
        }
    }
    *claiming = false;
    return found;
}

/// Gives `slot` back (from the exit key's destructor); the thread's `current` must already point
/// at the shared slot, so nothing it counts later lands in a slot another thread may own.
static inline void rb_slot_give_back(struct rb_slot *slot) {
    // release: this thread's last stores to the counts happen before the next owner's loads.
    atomic_store_explicit(&slot->owned, 0, memory_order_release);
}

static inline void rb_slot_add(struct rb_slot_table *table, struct rb_slot *own, int kind, uint64_t amount) {
    if (own == &table->shared) {
        atomic_fetch_add_explicit(&own->counts[kind], amount, memory_order_relaxed);
    } else {
        // The slot's only writer: a load and a store.
        uint64_t value = atomic_load_explicit(&own->counts[kind], memory_order_relaxed);
        atomic_store_explicit(&own->counts[kind], value + amount, memory_order_relaxed);
    }
}

/// Each of the first `kinds` counts, summed over every slot. Never allocates.
static inline void rb_slot_sum(struct rb_slot_table *table, uint64_t *totals, int kinds) {
    for (int kind = 0; kind < kinds; kind++) {
        totals[kind] = atomic_load_explicit(&table->shared.counts[kind], memory_order_relaxed);
    }
    int used = atomic_load_explicit(&table->slots_used, memory_order_acquire);
    for (int index = 0; index < used; index++) {
        for (int kind = 0; kind < kinds; kind++) {
            totals[kind] += atomic_load_explicit(&table->slots[index].counts[kind], memory_order_relaxed);
        }
    }
}

#endif
