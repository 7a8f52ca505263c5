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

/// Set on a thread whose signal just woke a waiter asleep in the kernel, read and cleared by that
/// thread's next hand-off poll (`SpinBudget`): the woken thread is awake now, and a reply from it
/// comes a wake-up later. Swift has no thread-local storage of its own; initial-exec makes each
/// access one thread-pointer-relative load or store (CCurrentWorker.h says why that is safe).
extern __thread _Bool rb_woke_sleeper __attribute__((tls_model("initial-exec")));

static inline void rb_note_woke_sleeper(void) { rb_woke_sleeper = 1; }

/// Whether this thread's last signal woke a sleeper since its last hand-off poll; clears it.
static inline _Bool rb_take_woke_sleeper(void) {
    _Bool woke = rb_woke_sleeper;
    if (woke) rb_woke_sleeper = 0;
    return woke;
}

/// Busy work for an injected fault (`InjectedFaults`, test builds only): `iterations` turns of
/// an empty loop the compiler must keep.
void rb_fault_delay(uint64_t iterations);

/// One heap allocation of 64 bytes, freed at once: an injected per-task allocation.
void rb_fault_allocation(void);

#endif
