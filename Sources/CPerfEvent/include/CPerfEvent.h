#ifndef RUNTIMEBENCH_CPERFEVENT_H
#define RUNTIMEBENCH_CPERFEVENT_H

#include <stdint.h>

// perf_event_open(2) for Swift, which cannot call the variadic syscall(2). The constants mirror
// <linux/perf_event.h> (checked against it at compile time in CPerfEvent.c), so Swift code does
// not import the whole kernel header.

enum {
    RB_PERF_TYPE_HARDWARE = 0,
    RB_PERF_TYPE_SOFTWARE = 1,
    RB_PERF_TYPE_TRACEPOINT = 2,

    RB_PERF_COUNT_HW_CPU_CYCLES = 0,
    RB_PERF_COUNT_HW_INSTRUCTIONS = 1,
    RB_PERF_COUNT_HW_CACHE_MISSES = 3,
    RB_PERF_COUNT_HW_BRANCH_MISSES = 5,

    RB_PERF_COUNT_SW_TASK_CLOCK = 1,
    RB_PERF_COUNT_SW_PAGE_FAULTS = 2,
    RB_PERF_COUNT_SW_CONTEXT_SWITCHES = 3,
    RB_PERF_COUNT_SW_CPU_MIGRATIONS = 4,
};

/// Opens a counting event for this process (pid 0, any CPU), enabled at once, inherited by
/// threads created after this call, reading value + time enabled + time running (so a
/// multiplexed count can be scaled). Returns the file descriptor, or -errno.
int rb_perf_event_open(uint32_t type, uint64_t config, int exclude_kernel);

/// Reads an event opened by rb_perf_event_open. Returns 0, or -errno.
int rb_perf_event_read(int fd, uint64_t *value, uint64_t *time_enabled, uint64_t *time_running);

#endif
