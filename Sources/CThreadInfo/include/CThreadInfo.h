#ifndef RUNTIMEBENCH_CTHREADINFO_H
#define RUNTIMEBENCH_CTHREADINFO_H

#include <stddef.h>

/// What the kernel knows of a thread, for the pools' stall monitor, their thread names and the
/// run-delay counter: gettid and prctl are reached through variadic syscall/prctl, and
/// pthread_setname_np is not in Swift's Glibc module.

/// The calling thread's kernel thread id.
int rb_thread_id(void);

/// The CPU the calling thread runs on now (sched_getcpu, read from the thread's rseq area by
/// glibc 2.35 and later: about 2 ns), or -1. Stale as soon as the kernel moves the thread.
int rb_thread_cpu(void);

/// Moves the calling thread to another CPU it may run on, and leaves its affinity as it was: the
/// affinity without this CPU for a moment (the kernel moves a thread off a CPU its mask no longer
/// allows before the call returns), then the whole mask again, which does not move it back.
/// 1 if it moved, 0 if it may run on this CPU alone (or on none other), -1 on an error (the
/// affinity is then as it was, unless restoring it failed).
int rb_thread_move_off_this_cpu(void);

/// Names the calling thread (at most 15 bytes are kept; the kernel's limit). Returns 0 or an errno.
int rb_thread_set_name(const char *name);

/// Copies the calling thread's name into `buffer` (NUL-terminated). Returns 0 or an errno.
int rb_thread_get_name(char *buffer, size_t length);

/// Whether thread `tid` of this process is running or runnable ('R' in /proc/self/task/TID/stat):
/// 1 if so, 0 if it is sleeping, waiting or stopped, -1 if its state cannot be read (it exited).
int rb_thread_is_runnable(int tid);

/// Nanoseconds this process's threads have spent runnable but waiting for a CPU (the kernel's run
/// delay: the second field of /proc/self/task/TID/schedstat), cumulative since the first call:
/// the threads alive now plus what threads that ended since the first call had waited when last
/// read. Allocates nothing (a thread counting allocations may call it). -1 when the kernel keeps
/// no schedstat (built without CONFIG_SCHED_INFO) or /proc cannot be read.
long long rb_process_run_delay_ns(void);

#endif
