#ifndef RUNTIMEBENCH_SPIN_HINT_H
#define RUNTIMEBENCH_SPIN_HINT_H

#include <stdint.h>

/// A spin-wait hint to the core (x86 `pause`, arm `yield`): cheaper for the sibling hyperthread
/// and the memory system than a bare loop. Swift has no spelling of its own for it.
static inline void rb_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/// Busy work for an injected fault (`InjectedFaults`, test builds only): `iterations` turns of
/// an empty loop the compiler must keep.
void rb_fault_delay(uint64_t iterations);

/// One heap allocation of 64 bytes, freed at once: an injected per-task allocation.
void rb_fault_allocation(void);

#endif
