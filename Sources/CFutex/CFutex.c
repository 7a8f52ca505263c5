#include "CFutex.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int rb_futex_wait(uint32_t *word, uint32_t expected, int64_t deadline_ns, int realtime) {
    struct timespec deadline;
    struct timespec *timeout = 0;
    if (deadline_ns >= 0) {
        // A deadline already past returns at once. The kernel would arm a timer that has already
        // expired and sleep until it fires, which the timer slack (50 µs for a normal thread)
        // lets come late: a zero-timeout wait took 80-120 µs (README.md beside FIFOSemaphore).
        struct timespec now;
        clock_gettime(realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, &now);
        if ((int64_t)now.tv_sec * 1000000000 + now.tv_nsec >= deadline_ns) {
            return __atomic_load_n(word, __ATOMIC_SEQ_CST) == expected ? ETIMEDOUT : 0;
        }
        deadline.tv_sec = (time_t)(deadline_ns / 1000000000);
        deadline.tv_nsec = (long)(deadline_ns % 1000000000);
        timeout = &deadline;
    }
    // FUTEX_WAIT_BITSET takes an absolute deadline, on CLOCK_MONOTONIC unless FUTEX_CLOCK_REALTIME.
    int op = FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG | (realtime ? FUTEX_CLOCK_REALTIME : 0);
    long rc = syscall(SYS_futex, word, op, expected, timeout, 0, FUTEX_BITSET_MATCH_ANY);
    if (rc == 0) return 0;
    if (errno == EAGAIN) return 0;
    return errno;
}

int rb_futex_wake(uint32_t *word, int count) {
    return (int)syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, count, 0, 0, 0);
}
