#ifndef RUNTIMEBENCH_PIECE_TALLY_H
#define RUNTIMEBENCH_PIECE_TALLY_H

// A loop's check that costs its bodies nothing shared: each thread adds the pieces it ran (how
// many indices, and their sum) to a slot of its own, 128 bytes apart from the others', so two CPUs
// never write one cache line. A counter per index, written from both CPUs at stride 1, would
// share a line between neighbouring indices on every iteration and be most of what the suite
// measures for an empty body (Benchmarks/README.md, "apply-stride").
//
// The totals after a loop (read once it has returned: the loop's own completion orders every
// slot's writes before that read) must equal the loop's count and index sum. A skipped or
// repeated index changes the count; one skipped and another repeated changes the sum. An exact
// per-index check (IterationLedger) is kept for a loop run outside the timed region.
//
// Slots belong to threads, not to tallies: a thread claims the lowest free slot number the first
// time it records anything, and gives it back when it exits, so the numbers stay below the count
// of threads alive at once. A thread past RB_TALLY_SLOTS adds with atomics to a shared slot:
// correct, only slower.

#include <stdint.h>

#include "CBodyCost.h"

enum {
    /// Slots per tally: more than the threads alive at once in any child or test process.
    RB_TALLY_SLOTS = 256,
    /// Two cache lines: the adjacent-line prefetcher pairs lines, so 64 bytes still interfere.
    RB_TALLY_SLOT_BYTES = 128,
};

typedef struct {
    uint64_t count;
    uint64_t sum;
    /// Calls of the body: how the runtime cut the loop (the automatic stride is its choice).
    uint64_t pieces;
    char padding[RB_TALLY_SLOT_BYTES - 3 * sizeof(uint64_t)];
} rb_tally_slot;

typedef struct rb_piece_tally {
    rb_tally_slot slots[RB_TALLY_SLOTS];
    /// For threads numbered RB_TALLY_SLOTS or more; updated with atomic adds.
    uint64_t overflow_count;
    uint64_t overflow_sum;
    uint64_t overflow_pieces;
} rb_piece_tally;

/// This thread's slot number plus one; 0 until it first records.
extern _Thread_local long rb_tally_thread_slot_plus_one;

/// Claims this thread's slot number (and arranges to give it back at thread exit).
long rb_tally_claim_slot(void);

rb_piece_tally *rb_piece_tally_create(void);
void rb_piece_tally_destroy(rb_piece_tally *tally);

/// Counts the indices lower..<upper as run once by this thread.
static inline void rb_piece_tally_record(rb_piece_tally *tally, long lower, long upper) {
    long slot = rb_tally_thread_slot_plus_one - 1;
    if (__builtin_expect(slot < 0, 0)) slot = rb_tally_claim_slot();
    uint64_t count = (uint64_t)(upper - lower);
    // lower + (lower+1) + ... + (upper-1), in wrapping arithmetic: the check compares modulo 2^64.
    uint64_t sum = count == 1 ? (uint64_t)lower
                 : (count % 2 == 0 ? (count / 2) * (uint64_t)(lower + upper - 1)
                                   : count * ((uint64_t)(lower + upper - 1) / 2));
    if (__builtin_expect(slot < RB_TALLY_SLOTS, 1)) {
        tally->slots[slot].count += count;
        tally->slots[slot].sum += sum;
        tally->slots[slot].pieces += 1;
    } else {
        __atomic_fetch_add(&tally->overflow_count, count, __ATOMIC_RELAXED);
        __atomic_fetch_add(&tally->overflow_sum, sum, __ATOMIC_RELAXED);
        __atomic_fetch_add(&tally->overflow_pieces, 1, __ATOMIC_RELAXED);
    }
}

/// What `rb_spin_piece` needs: the body's spin and the loop's tally.
typedef struct {
    rb_spin_rounds spin;
    rb_piece_tally *tally;
} rb_spin_piece_context;

/// The body of apply-stride's loops, one piece at a time, shared by the suite (through a
/// runtime's apply) and its C reference (dispatch_apply_f): spin each index of lower..<upper its
/// share of `spin` (`rb_spin_rounds_through`), in a loop inside the piece as the guide's striding
/// has it, then record the piece. `context` is an `rb_spin_piece_context`.
///
/// One copy for every caller, defined in PieceTally.c, never inlined and aligned to 64 bytes: its
/// loop over the indices is a few instructions, and how they are laid out decides an empty body's
/// speed. A copy whose loop crosses a 64-byte boundary runs markedly slower than one that does
/// not, and `static inline` copies, one per translation unit, are specialized apart by the
/// compiler, so the serial baseline and the suite would time different loops: every loop must call
/// the same one (Benchmarks/README.md, "apply-stride").
void rb_spin_piece(void *context, long lower, long upper);

/// The sums over every slot. Call only when no thread is recording into `tally`.
void rb_piece_tally_totals(const rb_piece_tally *tally, uint64_t *count, uint64_t *sum);

/// The body calls recorded so far, every thread's (read, like the totals, once the loops returned).
uint64_t rb_piece_tally_pieces(const rb_piece_tally *tally);

#endif
