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

#endif
