// The hint is inline in the header. The injected faults' work is here, out of line, so the
// optimizer of a caller cannot see through it.
#include "CSpinHint.h"
#include <stdlib.h>

__thread _Bool rb_woke_sleeper __attribute__((tls_model("initial-exec"))) = 0;

void rb_fault_delay(uint64_t iterations) {
    for (uint64_t i = 0; i < iterations; i++) __asm__ __volatile__("" ::: "memory");
}

void rb_fault_allocation(void) {
    void *volatile block = malloc(64);
    free(block);
}
