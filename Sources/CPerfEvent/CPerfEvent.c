#include "CPerfEvent.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(RB_PERF_TYPE_HARDWARE == PERF_TYPE_HARDWARE, "perf ABI");
_Static_assert(RB_PERF_TYPE_SOFTWARE == PERF_TYPE_SOFTWARE, "perf ABI");
_Static_assert(RB_PERF_TYPE_TRACEPOINT == PERF_TYPE_TRACEPOINT, "perf ABI");
_Static_assert(RB_PERF_COUNT_HW_CPU_CYCLES == PERF_COUNT_HW_CPU_CYCLES, "perf ABI");
_Static_assert(RB_PERF_COUNT_HW_INSTRUCTIONS == PERF_COUNT_HW_INSTRUCTIONS, "perf ABI");
_Static_assert(RB_PERF_COUNT_HW_CACHE_MISSES == PERF_COUNT_HW_CACHE_MISSES, "perf ABI");
_Static_assert(RB_PERF_COUNT_HW_BRANCH_MISSES == PERF_COUNT_HW_BRANCH_MISSES, "perf ABI");
_Static_assert(RB_PERF_COUNT_SW_TASK_CLOCK == PERF_COUNT_SW_TASK_CLOCK, "perf ABI");
_Static_assert(RB_PERF_COUNT_SW_PAGE_FAULTS == PERF_COUNT_SW_PAGE_FAULTS, "perf ABI");
_Static_assert(RB_PERF_COUNT_SW_CONTEXT_SWITCHES == PERF_COUNT_SW_CONTEXT_SWITCHES, "perf ABI");
_Static_assert(RB_PERF_COUNT_SW_CPU_MIGRATIONS == PERF_COUNT_SW_CPU_MIGRATIONS, "perf ABI");

int rb_perf_event_open(uint32_t type, uint64_t config, int exclude_kernel) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.inherit = 1;  // count threads created later (not PERF_FORMAT_GROUP: inherit forbids it)
    attr.exclude_kernel = exclude_kernel ? 1 : 0;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    long fd = syscall(SYS_perf_event_open, &attr, 0 /* this process */, -1 /* any CPU */, -1 /* no group */,
                      PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

int rb_perf_event_read(int fd, uint64_t *value, uint64_t *time_enabled, uint64_t *time_running) {
    uint64_t data[3];
    ssize_t n = read(fd, data, sizeof data);
    if (n < 0) return -errno;
    if (n != (ssize_t)sizeof data) return -EIO;
    *value = data[0];
    *time_enabled = data[1];
    *time_running = data[2];
    return 0;
}
