#include "CRuntimeEvents.h"

#include <stdlib.h>
#include <string.h>

struct rb_slot_table rb_events_table;
__thread struct rb_slot *rb_events_current __attribute__((tls_model("initial-exec")));
static __thread bool claiming __attribute__((tls_model("initial-exec")));

static void give_back(void *taken) {
    rb_events_current = &rb_events_table.shared;
    rb_slot_give_back(taken);
}

static pthread_once_t started = PTHREAD_ONCE_INIT;
static void start(void) { rb_slot_table_start(&rb_events_table, give_back); }

struct rb_slot *rb_events_claim(void) {
    pthread_once(&started, start);
    struct rb_slot *own = rb_slot_claim(&rb_events_table, &claiming);
    if (own == NULL) return &rb_events_table.shared;  // this time only
    rb_events_current = own;
    return own;
}

// The heap slots, newest first; pushed, never removed.
struct heap_slot {
    struct rb_slot slot;
    struct heap_slot *_Atomic next;
};
static struct heap_slot *_Atomic heap_slots;

void *rb_events_take_slot(void) {
    // acquire: the list's nodes and counts as their pushers and earlier owners left them.
    for (struct heap_slot *node = atomic_load_explicit(&heap_slots, memory_order_acquire); node != NULL;
         node = atomic_load_explicit(&node->next, memory_order_relaxed)) {
        if (rb_slot_try_take(&node->slot)) return &node->slot;
    }
    struct heap_slot *node = aligned_alloc(64, sizeof(struct heap_slot));
    if (node == NULL) abort();  // 128 bytes per worker, once
    memset(node, 0, sizeof *node);
    atomic_store_explicit(&node->slot.owned, 1, memory_order_relaxed);
    struct heap_slot *head = atomic_load_explicit(&heap_slots, memory_order_relaxed);
    do {
        atomic_store_explicit(&node->next, head, memory_order_relaxed);
        // release: a reader that finds the node sees it zeroed and linked.
    } while (!atomic_compare_exchange_weak_explicit(&heap_slots, &head, node, memory_order_release, memory_order_relaxed));
    return &node->slot;
}

void rb_events_return_slot(void *slot) { rb_slot_give_back(slot); }

void rb_events_read(uint64_t *totals, int kinds) {
    rb_slot_sum(&rb_events_table, totals, kinds);
    for (struct heap_slot *node = atomic_load_explicit(&heap_slots, memory_order_acquire); node != NULL;
         node = atomic_load_explicit(&node->next, memory_order_relaxed)) {
        for (int kind = 0; kind < kinds; kind++) {
            totals[kind] += atomic_load_explicit(&node->slot.counts[kind], memory_order_relaxed);
        }
    }
}
