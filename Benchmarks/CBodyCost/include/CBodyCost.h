#ifndef RUNTIMEBENCH_BODY_COST_H
#define RUNTIMEBENCH_BODY_COST_H

#include <stdint.h>

/// Spins for `rounds` serialized rounds: each round waits for every earlier instruction to
/// finish (lfence on x86-64), so consecutive bodies cannot overlap in the out-of-order core and
/// a body's cost is the same whether it runs alone or in a tight loop. A plain counted loop is
/// not a reliable body cost: the processor overlaps consecutive bodies.
void rb_spin(uint64_t rounds);

#endif
