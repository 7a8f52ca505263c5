#ifndef RUNTIMEBENCH_CMACHINEPROBE_H
#define RUNTIMEBENCH_CMACHINEPROBE_H

/// How far apart two CPUs are right now, as the nanoseconds one cache line takes to go from CPU
/// `first` to CPU `second` (half a round trip), two threads pinned one to each passing a counter
/// back and forth by spinning. On a VM it changes while the machine runs: the 2-vCPU VM of this
/// project read 24-39 ns for most processes and about 200 ns for some, and a hand-off measured in
/// such a process took 2-3 times as long for the same work (README, "How far a figure holds").
/// Times `round_trips` round trips (after 200 to warm up) in batches of 500 and returns the fastest
/// batch's time per hop: a batch during which the OS preempted either thread is slower by the
/// preemption. Stops early, on the batches it finished, when `budget_nanoseconds` pass (a CPU that
/// other threads hold). Returns -1 when a thread cannot be created or pinned (a CPU not allowed),
/// or when no batch finished within the budget.
double rb_cpu_hop_nanoseconds(int first, int second, int round_trips, long long budget_nanoseconds);

#endif
