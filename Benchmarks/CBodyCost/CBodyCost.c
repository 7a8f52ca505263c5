#include "CBodyCost.h"

void rb_spin(uint64_t rounds) {
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
