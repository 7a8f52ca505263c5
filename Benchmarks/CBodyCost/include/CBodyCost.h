#ifndef RUNTIMEBENCH_BODY_COST_H
#define RUNTIMEBENCH_BODY_COST_H

#include <stdint.h>

/// Spins for `rounds` serialized rounds: each round waits for every earlier instruction to
/// finish (lfence on x86-64, isb on arm64), so consecutive bodies cannot overlap in the
/// out-of-order core and a body's cost is the same alone or in a tight loop. A plain counted
/// loop is not a reliable body cost: the processor overlaps consecutive bodies.
///
/// Static inline so Swift inlines it: with rounds = 0 what is left is one compiler barrier, so
/// the empty operation measures the loop that calls it (the harness's own cost per operation),
/// not a function call. The barrier keeps the compiler from deleting or merging operations.
static inline void rb_spin(uint64_t rounds) {
    __asm__ __volatile__("" ::: "memory");
    for (uint64_t i = 0; i < rounds; i++) {
#if defined(__x86_64__) || defined(__i386__)
        __asm__ __volatile__("lfence" ::: "memory");
#elif defined(__aarch64__)
        __asm__ __volatile__("isb" ::: "memory");
#else
        __asm__ __volatile__("" ::: "memory");
#endif
    }
}

/// A body's spin per loop index, in whole rounds and 2^-32 parts of a round. A body costs a
/// fraction of a round more than any whole number: `10ns` is 2.62 rounds where a round takes
/// 3.82 ns, and rounding it to 3 in one run and to 2 in the next (calibrated at 4.02 ns) made
/// every 10 ns figure jump by 1.4x between identical runs (Benchmarks/README.md, "Body costs").
typedef struct {
    uint64_t whole;
    uint32_t fraction;
} rb_spin_rounds;

/// The rounds that indices 0..<count spin together: `whole` each, plus the whole part of
/// count x fraction. Index i spins rb_spin_rounds_through(i + 1) - rb_spin_rounds_through(i),
/// `whole` or `whole + 1` rounds by turns, a function of the index alone: a loop spins the same
/// rounds however a runtime cuts it into pieces, and any run of n indices spins within a round of
/// n times the exact amount.
static inline uint64_t rb_spin_rounds_through(rb_spin_rounds rounds, uint64_t count) {
    return rounds.whole * count + (uint64_t)(((unsigned __int128)count * rounds.fraction) >> 32);
}

/// The fraction carried into index `index`, (index x fraction) mod 2^32: where a loop starting
/// at `index` begins stepping with `rb_spin_rounds_step`.
static inline uint32_t rb_spin_rounds_phase(rb_spin_rounds rounds, uint64_t index) {
    return (uint32_t)(index * rounds.fraction);
}

/// The rounds of the index whose phase is `*phase` (the same as rb_spin_rounds_through's
/// difference), moving `*phase` on to the next index. An add and a shift: the spin's `lfence`
/// waits for whatever computed its count, so a multiply per index, or a reload of the counts from
/// memory, would add its latency to every body (a 2.5-round body read 14 ns like 3 rounds, not
/// 11.5 ns, when each index multiplied).
static inline uint64_t rb_spin_rounds_step(rb_spin_rounds rounds, uint32_t *phase) {
    uint64_t next = (uint64_t)*phase + rounds.fraction;
    *phase = (uint32_t)next;
    return rounds.whole + (next >> 32);
}

/// Tells the processor this thread is spinning on a lock (pause on x86-64, yield on arm64): it
/// stops speculating past the loop and leaves the core to its hyperthread sibling meanwhile.
static inline void rb_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/// Makes `pointer` escape as far as the optimizer knows, at no run-time cost: an allocation
/// whose block reaches this cannot be elided (LLVM removes an unused malloc/free pair, which made
/// the malloc-free workload measure nothing in release builds).
static inline void rb_escape(void *pointer) {
    __asm__ __volatile__("" : : "g"(pointer) : "memory");
}

/// fib(n) by the naive recursion: the leaf below the cutoff of the fork-join workloads' group and
/// `async let` forms. In C so that it can start on a 64-byte boundary in every build: written in
/// Swift, the same function moved from an address 0 mod 64 to 32 mod 64 between two builds that
/// changed only another module, and every row whose time it dominates (fib(30), cutoff 15, on
/// every backend) read 7-10% slower, a "regression" by `bench ab` (Benchmarks/README.md,
/// "A leaf at a fixed alignment").
long rb_fib_leaf(long n);

#endif
