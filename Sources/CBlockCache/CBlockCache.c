#include "CBlockCache.h"

#include <pthread.h>

__thread void *rb_block_cache_slots[RB_BLOCK_CACHE_SLOTS] __attribute__((tls_model("initial-exec"))) = {0};

static pthread_key_t exit_keys[RB_BLOCK_CACHE_SLOTS];
static pthread_once_t exit_keys_once = PTHREAD_ONCE_INIT;
static void (*exit_handlers[RB_BLOCK_CACHE_SLOTS])(void *);

// A pthread key destructor gets only the value, so each slot has a destructor that knows its slot.
static void thread_ended(int slot, void *cache) {
    rb_block_cache_slots[slot] = 0;
    void (*on_exit)(void *) = __atomic_load_n(&exit_handlers[slot], __ATOMIC_ACQUIRE);
    if (on_exit) on_exit(cache);
}

static void slot0_ended(void *cache) { thread_ended(0, cache); }
static void slot1_ended(void *cache) { thread_ended(1, cache); }

static void (*const slot_destructors[])(void *) = { slot0_ended, slot1_ended };
_Static_assert(sizeof slot_destructors / sizeof slot_destructors[0] == RB_BLOCK_CACHE_SLOTS,
               "one destructor per slot");

static void make_exit_keys(void) {
    for (int slot = 0; slot < RB_BLOCK_CACHE_SLOTS; slot++) {
        pthread_key_create(&exit_keys[slot], slot_destructors[slot]);
    }
}

void rb_block_cache_install(int slot, void *cache, void (*on_exit)(void *)) {
    pthread_once(&exit_keys_once, make_exit_keys);
    // Every thread stores the same function for a slot; atomically, so the stores do not race.
    __atomic_store_n(&exit_handlers[slot], on_exit, __ATOMIC_RELEASE);
    rb_block_cache_slots[slot] = cache;
    pthread_setspecific(exit_keys[slot], cache);
}
