import CaseCatalogue
import Results

/// The claims of gcd-guide-dispatch-queues.txt that the suite measures, each tied to the cases
/// that test it, on both layers where both exist (`ClaimLayer`): Swift code, where GCD is the
/// `libdispatch` backend (the real libdispatch through Swift's Dispatch API, what a Swift programmer
/// calls) and the lock is Swift's `Mutex`; and the runtime itself, where GCD is `libdispatch-c`
/// (its C entry points) and, where the suite has them, the `direct` workload's C references.
/// Every verdict holds under its stated conditions only, on the machine that produced the results.
public enum GuideClaims {
    static func guarded(_ kind: QueueVsLockGuard, on backend: BackendName, _ setting: QueueVsLockSetting) -> Side {
        Side(
            .queueVsLock(kind, on: backend, setting),
            label: (backend == .none ? kind.rawValue : "\(backend) \(kind.rawValue)")
                + (setting == .uncontended ? ", 1 thread" : ", 2 threads per CPU"))
    }

    /// A `direct` reference: the operation written in C against the runtime.
    static func direct(_ operation: DirectOperation, on backend: BackendName, label: String) -> Side {
        Side(.direct(operation, on: backend), label: label)
    }

    static let queuesVersusLocks = "This type of queue-based synchronization is more efficient than locks"
    static let locksTrap = "locks always require an expensive kernel trap in both the contested and uncontested cases"

    public static let all: [Claim] = ClaimLayer.guideLayers.flatMap { layer in claims(on: layer) }
        .sorted { order($0) < order($1) }

    /// Each claim's layers side by side, Swift code first, in the order of the list below (the
    /// runtime's list has every claim).
    private static func order(_ claim: Claim) -> (Int, Int) {
        let runtimeID = claim.layer == .runtime ? claim.id : claim.id + ClaimLayer.runtime.idSuffix
        return (claims(on: .runtime).firstIndex { $0.id == runtimeID } ?? Int.max, claim.layer == .swift ? 0 : 1)
    }

    static func claims(on layer: ClaimLayer) -> [Claim] {
        let gcd = layer.gcd, suffix = layer.idSuffix
        var claims: [Claim] = [
            layer == .swift
                ? .faster(
                    id: "queues-beat-locks-uncontended", layer: layer, statement: queuesVersusLocks,
                    conditions: "Swift code, one thread, empty critical section, nothing between sections: "
                        + "DispatchQueue.sync against Mutex.withLock (queue-vs-lock)",
                    claimed: [guarded(.queueSync, on: gcd, .uncontended)],
                    than: guarded(.swiftMutex, on: .none, .uncontended))
                : .faster(
                    id: "queues-beat-locks-uncontended" + suffix, layer: layer, statement: queuesVersusLocks,
                    conditions: "the runtime in C, one thread, empty critical section: "
                        + "dispatch_sync_f on a serial queue against pthread_mutex_lock + unlock (direct)",
                    claimed: [direct(.sync, on: gcd, label: "dispatch_sync_f, C")],
                    than: direct(.pthreadMutex, on: .none, label: "pthread_mutex_lock + unlock, C")),
            .faster(
                id: "queues-beat-locks-contended" + suffix, layer: layer, statement: queuesVersusLocks,
                conditions: "queue-vs-lock, 2 threads per CPU, 100 ns critical sections 1 µs apart: "
                    + "the faster of \(gcd)'s serial queue sync and async against a pthread mutex",
                claimed: [guarded(.queueSync, on: gcd, .contended), guarded(.queueAsync, on: gcd, .contended)],
                than: guarded(.pthreadMutex, on: .none, .contended)),
            .blockingOnlyTraps(
                id: "semaphores-trap-only-when-blocking" + suffix, layer: layer,
                statement:
                    "Dispatch semaphores call down to the kernel only when the calling thread needs to be blocked "
                    + "because the semaphore is unavailable",
                conditions: "system calls per wait + signal on \(gcd)'s semaphore: uncontended (never blocks) "
                    + "against a two-thread ping-pong (every wait blocks)",
                free: CounterReading(
                    side: Side(.semaphore(.uncontended, .backend, on: gcd), label: "uncontended wait + signal"),
                    counter: "syscalls"),
                blocking: CounterReading(
                    side: Side(.semaphore(.pingpong, .backend, on: gcd), label: "ping-pong hand-off"),
                    counter: "syscalls")),
            .faster(
                id: "small-bodies-lose-to-scheduling" + suffix, layer: layer,
                statement: "If each iteration of your loop performs only a small amount of work, "
                    + "the overhead of scheduling the code may outweigh the performance benefits",
                conditions: "an empty loop body: the plain serial loop against \(gcd)'s apply with one iteration "
                    + "per block (stride 1)",
                claimed: [Side(.applySerial(body: "0ns"), label: "serial loop")],
                than: Side(.applyStride(body: "0ns", stride: "1", on: gcd), label: "\(gcd) apply, stride 1")),
            .faster(
                id: "striding-recovers-small-bodies" + suffix, layer: layer,
                statement: "you can use striding to increase the amount of work performed during each loop iteration",
                conditions: "an empty loop body: \(gcd)'s apply with the automatic stride against stride 1",
                claimed: [
                    Side(.applyStride(body: "0ns", stride: "auto", on: gcd), label: "\(gcd) apply, automatic stride")
                ],
                than: Side(.applyStride(body: "0ns", stride: "1", on: gcd), label: "\(gcd) apply, stride 1")),
            .faster(
                id: "queues-start-work-faster-than-threads" + suffix, layer: layer,
                statement: "the system is usually able to start running your task more quickly than you could if you "
                    + "created the thread yourself",
                conditions:
                    "an empty task: submitted to \(gcd) from outside its pool, against pthread_create + pthread_join",
                claimed: [Side(.spawn(.outside, on: gcd), label: "\(gcd) async")],
                than: Side(.threadSpawn, label: "pthread_create + join")),
            .fewerEvents(
                id: "threads-cost-memory" + suffix, layer: layer,
                statement: "the threaded model requires the creation of two threads, "
                    + "which take up both kernel and user-space memory. "
                    + "Dispatch queues do not pay the same memory penalty",
                conditions:
                    "resident memory per waiting unit of work, 256 held at once in a fresh process (footprint): "
                    + "a block queued on a \(gcd) serial queue against a parked thread; "
                    + "kernel memory is not measured",
                claimed: CounterReading(
                    side: Side(.footprint(.queuedBlock, on: gcd), label: "\(gcd) queued block"),
                    counter: FigureName.residentBytesPerUnit.rawValue, shown: "resident bytes", per: "per unit"),
                than: CounterReading(
                    side: Side(.footprint(.thread, on: .none), label: "parked thread"),
                    counter: FigureName.residentBytesPerUnit.rawValue, shown: "resident bytes", per: "per unit"),
                margin: 1_024, marginText: "1 KiB per unit"),
        ]
        // A pthread mutex's system calls do not depend on the language that calls it: one
        // verdict, about the runtime.
        if layer == .runtime {
            claims.insert(
                .counterAtLeast(
                    id: "locks-always-trap", layer: layer, statement: locksTrap,
                    conditions:
                        "system calls per lock + unlock of an uncontended pthread mutex (queue-vs-lock, one thread)",
                    reading: CounterReading(side: guarded(.pthreadMutex, on: .none, .uncontended), counter: "syscalls"),
                    supportedAtLeast: 0.9, refutedBelow: 0.01,
                    context: [
                        CounterReading(side: guarded(.pthreadMutex, on: .none, .contended), counter: "syscalls")
                    ]), at: 2)
        }
        return claims
    }
}
