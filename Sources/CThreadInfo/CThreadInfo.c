#define _GNU_SOURCE
#include "CThreadInfo.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int rb_thread_id(void) {
    return (int)syscall(SYS_gettid);
}

int rb_thread_cpu(void) {
    return sched_getcpu();
}

int rb_thread_move_off_this_cpu(void) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2) return 0;
    cpu_set_t others = allowed;
    CPU_CLR(cpu, &others);
    if (sched_setaffinity(0, sizeof others, &others) != 0) return -1;
    int moved = sched_getcpu() != cpu;
    if (sched_setaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    return moved;
}

int rb_thread_set_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}

int rb_thread_get_name(char *buffer, size_t length) {
    return pthread_getname_np(pthread_self(), buffer, length);
}

/// Reads the small file `path` (relative to `directory`, or absolute) into `text` as a C string.
/// Returns 0, or -1 when it cannot be opened or is empty (a thread's file once the thread ended).
static int read_small_file(int directory, const char *path, char *text, size_t size) {
    int fd = openat(directory, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t count = read(fd, text, size - 1);
    close(fd);
    if (count <= 0) return -1;
    text[count] = '\0';
    return 0;
}

int rb_thread_is_runnable(int tid) {
    char path[64];
    char text[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    if (read_small_file(AT_FDCWD, path, text, sizeof text) != 0) return -1;
    // "tid (comm) S ...": the name may hold spaces and parentheses, so the state follows the last ')'.
    char *end = strrchr(text, ')');
    if (end == NULL || end[1] != ' ' || end[2] == '\0') return -1;
    return end[2] == 'R' ? 1 : 0;
}

// Run delay. The kernel keeps it per thread only, and a thread's figure goes with the thread, so
// the total remembers each thread's last reading: a thread gone (or a thread id reused, whose
// figure restarts lower) adds its last reading to `retired`, and the total never goes back.
// One reader at a time (the lock); fixed tables, so it allocates nothing. Beyond `kMaxThreads`
// threads alive at once, the extra ones are not counted; a reused id whose new thread has already
// waited longer than the old one did is missed, and the old thread's wait with it. Both only
// lower the total, never make it go back.

#include <stdint.h>
#include <stdlib.h>

enum { kMaxThreads = 1024 };

struct run_delay_entry {
    int tid;
    unsigned long long last;
};

static pthread_mutex_t run_delay_lock = PTHREAD_MUTEX_INITIALIZER;
static struct run_delay_entry run_delay_threads[kMaxThreads];
static int run_delay_count;
static unsigned long long run_delay_retired;

/// The kernel's getdents64 record (glibc's readdir would allocate its buffer).
struct task_entry {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/// The run delay of thread `name` (its directory under /proc/self/task), or -1.
static long long read_thread_delay(int task_directory, const char *name) {
    char path[48];
    char text[128];
    snprintf(path, sizeof path, "%s/schedstat", name);
    if (read_small_file(task_directory, path, text, sizeof text) != 0) return -1;
    // "on-CPU-ns run-delay-ns timeslices"
    char *rest = NULL;
    strtoull(text, &rest, 10);
    if (rest == text || *rest != ' ') return -1;
    char *end = NULL;
    unsigned long long delay = strtoull(rest + 1, &end, 10);
    if (end == rest + 1) return -1;
    return (long long)delay;
}

long long rb_process_run_delay_ns(void) {
    int task_directory = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (task_directory < 0) return -1;
    pthread_mutex_lock(&run_delay_lock);
    // Marks: a thread still listed keeps its entry; the rest have ended.
    static unsigned char seen[kMaxThreads];
    memset(seen, 0, sizeof seen);
    unsigned long long alive = 0;
    int threads_read = 0;
    char buffer[4096];
    long got;
    while ((got = syscall(SYS_getdents64, task_directory, buffer, sizeof buffer)) > 0) {
        for (long offset = 0; offset < got;) {
            struct task_entry *entry = (struct task_entry *)(buffer + offset);
            offset += entry->d_reclen;
            if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
            long long delay = read_thread_delay(task_directory, entry->d_name);
            if (delay < 0) continue;  // ended since the listing
            threads_read += 1;
            int tid = atoi(entry->d_name);
            int slot = -1;
            for (int index = 0; index < run_delay_count; index += 1) {
                if (run_delay_threads[index].tid == tid) {
                    slot = index;
                    break;
                }
            }
            if (slot >= 0 && (unsigned long long)delay < run_delay_threads[slot].last) {
                run_delay_retired += run_delay_threads[slot].last;  // the id now names a new thread
            }
            if (slot < 0 && run_delay_count < kMaxThreads) {
                slot = run_delay_count++;
                run_delay_threads[slot].tid = tid;
            }
            if (slot < 0) continue;  // the table is full: not counted, so the total cannot go back
            run_delay_threads[slot].last = (unsigned long long)delay;
            seen[slot] = 1;
            alive += (unsigned long long)delay;
        }
    }
    close(task_directory);
    // Entries not seen: their threads ended; keep what they had waited.
    int kept = 0;
    for (int index = 0; index < run_delay_count; index += 1) {
        if (seen[index]) {
            run_delay_threads[kept++] = run_delay_threads[index];
        } else {
            run_delay_retired += run_delay_threads[index].last;
        }
    }
    run_delay_count = kept;
    long long total = threads_read == 0 ? -1 : (long long)(run_delay_retired + alive);
    pthread_mutex_unlock(&run_delay_lock);
    return total;
}
