#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Testing

/// `LastSignaller`: a waiter learns that another thread signalled last from its own CPU, and
/// nothing from its own signal or from a signal on another CPU. Threads are pinned, so where each
/// runs is known; a busy machine cannot move them.
@Suite("LastSignaller: who signalled last, from which CPU")
struct LastSignallerTests {
    /// What a thread found, read after it was joined.
    private final class Outcome<T>: @unchecked Sendable {
        var value: T?
    }

    /// Runs `body` on a new thread pinned to `cpu`, and waits for it (the join orders the
    /// thread's write of the outcome before the read).
    private func onCPU<T: Sendable>(_ cpu: Int, _ body: @escaping @Sendable () -> T) -> T {
        let outcome = Outcome<T>()
        let thread = PThread.spawn {
            #expect(UsableCPUs.setAffinityOfCallingThread([cpu]) == 0)
            outcome.value = body()
        }
        thread.join()
        return outcome.value!
    }

    final class Shared: Sendable {
        let signaller = LastSignaller()
    }

    /// Has a thread pinned to `cpu` signal, and stay alive until `body` is done: a thread that
    /// ended may leave its `pthread_t` to the next one created, which would then pass for it.
    private func withSignalFrom<T>(_ cpu: Int, _ shared: Shared, _ body: () -> T) -> T {
        let noted = MutexSemaphore(value: 0), done = MutexSemaphore(value: 0)
        let thread = PThread.spawn {
            #expect(UsableCPUs.setAffinityOfCallingThread([cpu]) == 0)
            shared.signaller.note()
            noted.signal()
            done.wait()
        }
        noted.wait()
        let value = body()
        done.signal()
        thread.join()
        return value
    }

    @Test("nobody signalled: no hint; another thread on this CPU: the hint; on another CPU: none")
    func otherThreads() throws {
        let cpus = UsableCPUs.affinityOfCallingThread()
        let shared = Shared()
        let first = try #require(cpus.first)
        #expect(!onCPU(first) { shared.signaller.isOnThisCPU })
        withSignalFrom(first, shared) {
            #expect(onCPU(first) { shared.signaller.isOnThisCPU })
            if cpus.count >= 2 { #expect(!onCPU(cpus[1]) { shared.signaller.isOnThisCPU }) }
        }
        if cpus.count >= 2 {
            withSignalFrom(cpus[1], shared) { #expect(!onCPU(first) { shared.signaller.isOnThisCPU }) }
        }
    }

    @Test("a thread's own last signal is no hint: a semaphore used as a lock is signalled by its waiters")
    func ownSignal() throws {
        let first = try #require(UsableCPUs.affinityOfCallingThread().first)
        let shared = Shared()
        let (own, afterAnother) = onCPU(first) { () -> (Bool, Bool) in
            shared.signaller.note()
            let own = shared.signaller.isOnThisCPU
            let another = withSignalFrom(first, shared) { true }
            return (own, another && shared.signaller.isOnThisCPU)
        }
        #expect(!own && afterAnother)
    }

    @Test(
        "a waiter that found its signaller on its CPU 256 waits in a row moves to another CPU, its affinity as it was")
    func movesOff() throws {
        let cpus = UsableCPUs.affinityOfCallingThread()
        try #require(cpus.count >= 2, "needs two CPUs; this machine has \(cpus)")
        let first = cpus[0], shared = Shared(), movesBefore = RuntimeEvents.total(.cpuMoves)
        // Pinned to `first`, then allowed every CPU: a wider mask does not move a running thread.
        // On a busy machine the kernel may still move it between two waits, which ends the run of
        // shared waits, and another test's thread may just have moved off `first`, which holds
        // this move back for `moveSpacing`; the attempt is then made again, pinned anew.
        let (answers, affinityAfter) = withSignalFrom(first, shared) {
            onCPU(first) { () -> ([Bool], [Int]) in
                var answers: [Bool] = []
                for _ in 0..<5 {
                    answers = runOfSharedWaits(on: first, of: cpus, shared)
                    if answers.count == LastSignaller.sharedWaitsBeforeMove, answers.last == false { break }
                    waitOutMoveSpacing()
                }
                return (answers + [shared.signaller.isOnThisCPU], UsableCPUs.affinityOfCallingThread())
            }
        }
        #expect(
            answers.count == LastSignaller.sharedWaitsBeforeMove + 1,
            "the kernel moved the thread, or another moved off its CPU, 5 times in a row")
        #expect(answers.dropLast(2).allSatisfy { $0 }, "\(answers)")
        #expect(
            answers.suffix(2) == [false, false],
            "the last wait moved, and the thread runs elsewhere: \(answers.suffix(2))")
        #expect(affinityAfter == cpus)
        #expect(RuntimeEvents.total(.cpuMoves) > movesBefore)
    }

    /// On `cpu`, then allowed `cpus`: shared waits until the run that moves, or until the thread
    /// no longer runs beside the signaller (it moved, or the kernel moved it).
    private func runOfSharedWaits(on cpu: Int, of cpus: [Int], _ shared: Shared) -> [Bool] {
        UsableCPUs.setAffinityOfCallingThread([cpu])
        UsableCPUs.setAffinityOfCallingThread(cpus)
        var answers: [Bool] = []
        while answers.count < LastSignaller.sharedWaitsBeforeMove, shared.signaller.isOnThisCPU {
            answers.append(shared.signaller.sharesThisCPU)
        }
        return answers
    }

    /// Sleeps twice `moveSpacing`: a thread that moved off a CPU before no longer holds back a
    /// move off it.
    private func waitOutMoveSpacing() {
        usleep(UInt32(2 * LastSignaller.moveSpacing.nanosecondsSaturating / 1_000))
    }

    @Test("a waiter does not follow another that moved off its CPU within moveSpacing: partners would meet again")
    func secondWaiterStays() throws {
        let cpus = UsableCPUs.affinityOfCallingThread()
        try #require(cpus.count >= 2, "needs two CPUs; this machine has \(cpus)")
        let first = cpus[0], shared = Shared(), full = LastSignaller.sharedWaitsBeforeMove
        // One run moves the thread off `first`; back on `first`, the next run must stay. A second
        // run that stayed decides at once. One that moved decides only if less than `moveSpacing`
        // passed since before the first run began (then it surely followed); on a machine busy
        // enough to hold the thread longer, the attempt says nothing and is made again. If no
        // attempt decides, the machine was too busy to tell, and nothing is claimed.
        let spacing = LastSignaller.moveSpacing.nanosecondsSaturating
        let followed = withSignalFrom(first, shared) {
            onCPU(first) { () -> Bool in
                for _ in 0..<20 {
                    let start = MonotonicInstant.now
                    let moved = runOfSharedWaits(on: first, of: cpus, shared)
                    guard moved.count == full, moved.last == false else {
                        waitOutMoveSpacing()
                        continue
                    }
                    let second = runOfSharedWaits(on: first, of: cpus, shared)
                    guard second.count == full else { continue }
                    if second.last == true { return false }
                    if MonotonicInstant.now.nanoseconds - start.nanoseconds < spacing { return true }
                    waitOutMoveSpacing()
                }
                return false
            }
        }
        #expect(!followed, "the second waiter followed the first off the CPU within moveSpacing")
    }

    @Test("a waiter pinned to its signaller's CPU never moves: its owner chose that CPU")
    func pinnedStays() throws {
        let first = try #require(UsableCPUs.affinityOfCallingThread().first)
        let shared = Shared()
        let (answers, affinityAfter) = withSignalFrom(first, shared) {
            onCPU(first) { () -> ([Bool], [Int]) in
                let answers = (0..<(3 * LastSignaller.sharedWaitsBeforeMove)).map { _ in shared.signaller.sharesThisCPU
                }
                return (answers, UsableCPUs.affinityOfCallingThread())
            }
        }
        #expect(answers.allSatisfy { $0 })
        #expect(affinityAfter == [first])
    }
}
