#ifndef RUNTIMEBENCH_CFUTEX_H
#define RUNTIMEBENCH_CFUTEX_H

#include <stdint.h>

/// The futex system call, for the pools' parking (FIFODispatch's `Futex`, StealingRuntime's
/// `Sleepers`): syscall(2) is variadic, and Swift cannot call it.

/// Blocks while *word == expected, until woken, until the absolute deadline (nanoseconds on
/// CLOCK_MONOTONIC, or CLOCK_REALTIME when `realtime` is non-zero; a negative deadline waits
/// forever), or spuriously. Returns 0 when woken or the value differed, ETIMEDOUT at the deadline
/// (at once, without the system call, when it has already passed), EINTR on a signal.
int rb_futex_wait(uint32_t *word, uint32_t expected, int64_t deadline_ns, int realtime);

/// Wakes up to `count` threads blocked in rb_futex_wait on `word`. Returns how many it woke.
int rb_futex_wake(uint32_t *word, int count);

#endif
