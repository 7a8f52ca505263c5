#include "PieceTally.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Thread_local long rb_tally_thread_slot_plus_one;

__attribute__((noinline, aligned(64)))
void rb_spin_piece(void *context, long lower, long upper) {
    const rb_spin_piece_context *piece = context;
    if (piece->spin.fraction == 0) {
        // The empty body's loop stays the bare call of the spin: its speed is what apply's 0 ns
        // rows measure, and the arithmetic below would be most of it.
        for (long index = lower; index < upper; index++) rb_spin(piece->spin.whole);
    } else {
        // A copy in registers: the spin's compiler barrier would reload it from memory for
        // every index otherwise, and the first lfence of each index would wait for the load.
        rb_spin_rounds spin = piece->spin;
        uint32_t phase = rb_spin_rounds_phase(spin, (uint64_t)lower);
        for (long index = lower; index < upper; index++) rb_spin(rb_spin_rounds_step(spin, &phase));
    }
    rb_piece_tally_record(piece->tally, lower, upper);
}

/// Bit n set: slot n belongs to a live thread.
static uint64_t claimed[RB_TALLY_SLOTS / 64];
static pthread_key_t release_key;
static pthread_once_t release_key_once = PTHREAD_ONCE_INIT;

// Runs at thread exit. Release: the exiting thread's slot writes happen before the next owner's
// claim (acquire), so the new owner's plain adds never race with the old one's.
static void release_slot(void *slot_plus_one) {
    long slot = (long)(intptr_t)slot_plus_one - 1;
    __atomic_fetch_and(&claimed[slot / 64], ~(1ull << (slot % 64)), __ATOMIC_RELEASE);
}

static void make_release_key(void) { pthread_key_create(&release_key, release_slot); }

long rb_tally_claim_slot(void) {
    pthread_once(&release_key_once, make_release_key);
    for (long word = 0; word < RB_TALLY_SLOTS / 64; word++) {
        uint64_t bits = __atomic_load_n(&claimed[word], __ATOMIC_RELAXED);
        while (bits != ~0ull) {
            int bit = __builtin_ctzll(~bits);
            if (__atomic_compare_exchange_n(&claimed[word], &bits, bits | (1ull << bit), 0,
                                            __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
                long slot = word * 64 + bit;
                rb_tally_thread_slot_plus_one = slot + 1;
                pthread_setspecific(release_key, (void *)(intptr_t)(slot + 1));
                return slot;
            }
        }
    }
    // Every slot taken: this thread uses the shared, atomic one for the rest of its life.
    rb_tally_thread_slot_plus_one = RB_TALLY_SLOTS + 1;
    return RB_TALLY_SLOTS;
}

rb_piece_tally *rb_piece_tally_create(void) {
    rb_piece_tally *tally = NULL;
    if (posix_memalign((void **)&tally, RB_TALLY_SLOT_BYTES, sizeof *tally) != 0) return NULL;
    memset(tally, 0, sizeof *tally);  // also faults the pages in before anything is timed
    return tally;
}

void rb_piece_tally_destroy(rb_piece_tally *tally) { free(tally); }

void rb_piece_tally_totals(const rb_piece_tally *tally, uint64_t *count, uint64_t *sum) {
    uint64_t c = __atomic_load_n(&tally->overflow_count, __ATOMIC_RELAXED);
    uint64_t s = __atomic_load_n(&tally->overflow_sum, __ATOMIC_RELAXED);
    for (int slot = 0; slot < RB_TALLY_SLOTS; slot++) {
        c += tally->slots[slot].count;
        s += tally->slots[slot].sum;
    }
    *count = c;
    *sum = s;
}

uint64_t rb_piece_tally_pieces(const rb_piece_tally *tally) {
    uint64_t pieces = __atomic_load_n(&tally->overflow_pieces, __ATOMIC_RELAXED);
    for (int slot = 0; slot < RB_TALLY_SLOTS; slot++) pieces += tally->slots[slot].pieces;
    return pieces;
}
