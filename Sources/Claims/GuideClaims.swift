/// The claims of gcd-guide-dispatch-queues.txt that the suite measures, each tied to the cases
/// that test it. The GCD side is the `libdispatch` backend (the real libdispatch through Swift's
/// Dispatch API, what a Swift programmer calls). Every verdict holds under its stated conditions
/// only, on the machine that produced the results.
public enum GuideClaims {
    static let gcd = "libdispatch"

    static let uncontended = ["threads": "1", "resource": "counter", "critical": "0ns", "outside": "0ns"]
    static let contended = ["threads": "2xcpus", "resource": "counter", "critical": "100ns", "outside": "1us"]

    static func guarded(_ kind: String, on backend: String, _ setting: [String: String]) -> Side {
        Side(workload: "queue-vs-lock", backend: backend, parameters: setting.merging(["guard": kind]) { $1 },
             label: (backend == "none" ? kind : "\(backend) \(kind)") + (setting == uncontended ? ", 1 thread" : ", 2 threads per CPU"))
    }

    static let queuesVersusLocks = "This type of queue-based synchronization is more efficient than locks"
    static let locksTrap = "locks always require an expensive kernel trap in both the contested and uncontested cases"

    public static let all: [Claim] = [
        .faster(id: "queues-beat-locks-uncontended", statement: queuesVersusLocks,
                conditions: "queue-vs-lock, one thread, empty critical section, nothing between sections: a serial queue's sync against a pthread mutex",
                claimed: [guarded("queue-sync", on: gcd, uncontended)], than: guarded("pthread-mutex", on: "none", uncontended)),
        .faster(id: "queues-beat-locks-contended", statement: queuesVersusLocks,
                conditions: "queue-vs-lock, 2 threads per CPU, 100 ns critical sections 1 µs apart: the faster of a serial queue's sync and async against a pthread mutex",
                claimed: [guarded("queue-sync", on: gcd, contended), guarded("queue-async", on: gcd, contended)],
                than: guarded("pthread-mutex", on: "none", contended)),
        .counterAtLeast(id: "locks-always-trap", statement: locksTrap,
                        conditions: "system calls per lock + unlock of an uncontended pthread mutex (queue-vs-lock, one thread)",
                        reading: CounterReading(side: guarded("pthread-mutex", on: "none", uncontended), counter: "syscalls"),
                        supportedAtLeast: 0.9, refutedBelow: 0.01, context: [
                            CounterReading(side: guarded("pthread-mutex", on: "none", contended), counter: "syscalls"),
                        ]),
        .blockingOnlyTraps(
            id: "semaphores-trap-only-when-blocking",
            statement: "Dispatch semaphores call down to the kernel only when the calling thread needs to be blocked because the semaphore is unavailable",
            conditions: "system calls per wait + signal on the libdispatch semaphore: uncontended (never blocks) against a two-thread ping-pong (every wait blocks)",
            free: CounterReading(side: Side(workload: "semaphore", backend: gcd, parameters: ["pattern": "uncontended", "semaphore": "backend"],
                                            label: "uncontended wait + signal"), counter: "syscalls"),
            blocking: CounterReading(side: Side(workload: "semaphore", backend: gcd, parameters: ["pattern": "pingpong", "semaphore": "backend"],
                                                label: "ping-pong hand-off"), counter: "syscalls")),
        .faster(id: "small-bodies-lose-to-scheduling",
                statement: "If each iteration of your loop performs only a small amount of work, the overhead of scheduling the code may outweigh the performance benefits",
                conditions: "an empty loop body: the plain serial loop against dispatch_apply with one iteration per block (stride 1)",
                claimed: [Side(workload: "apply-serial", backend: "none", parameters: ["body": "0ns"], label: "serial loop")],
                than: Side(workload: "apply-stride", backend: gcd, parameters: ["body": "0ns", "stride": "1"], label: "libdispatch apply, stride 1")),
        .faster(id: "striding-recovers-small-bodies",
                statement: "you can use striding to increase the amount of work performed during each loop iteration",
                conditions: "an empty loop body: dispatch_apply with the automatic stride against stride 1",
                claimed: [Side(workload: "apply-stride", backend: gcd, parameters: ["body": "0ns", "stride": "auto"], label: "libdispatch apply, automatic stride")],
                than: Side(workload: "apply-stride", backend: gcd, parameters: ["body": "0ns", "stride": "1"], label: "libdispatch apply, stride 1")),
        .faster(id: "queues-start-work-faster-than-threads",
                statement: "the system is usually able to start running your task more quickly than you could if you created the thread yourself",
                conditions: "an empty task: submitted to libdispatch from outside its pool, against pthread_create + pthread_join",
                claimed: [Side(workload: "spawn", backend: gcd, parameters: ["pattern": "outside"], label: "libdispatch async")],
                than: Side(workload: "thread-spawn", backend: "none", parameters: [:], label: "pthread_create + join")),
        .fewerEvents(id: "threads-cost-memory",
                     statement: "the threaded model requires the creation of two threads, which take up both kernel and user-space memory. Dispatch queues do not pay the same memory penalty",
                     conditions: "resident memory per waiting unit of work, 256 held at once in a fresh process (footprint): a block queued on a libdispatch serial queue against a parked thread; kernel memory is not measured",
                     claimed: CounterReading(side: Side(workload: "footprint", backend: gcd, parameters: ["unit": "queued-block"], label: "libdispatch queued block"),
                                             counter: "footprint.resident_bytes_per_unit", shown: "resident bytes", per: "per unit"),
                     than: CounterReading(side: Side(workload: "footprint", backend: "none", parameters: ["unit": "thread"], label: "parked thread"),
                                          counter: "footprint.resident_bytes_per_unit", shown: "resident bytes", per: "per unit"),
                     margin: 1_024, marginText: "1 KiB per unit"),
    ]
}
