#ifndef RUNTIMEBENCH_SPIN_HINT_H
#define RUNTIMEBENCH_SPIN_HINT_H

/// A spin-wait hint to the core (x86 `pause`, arm `yield`): cheaper for the sibling hyperthread
/// and the memory system than a bare loop. Swift has no spelling of its own for it.
static inline void rb_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
