import CBodyCost
import Harness
import Results

/// queue-vs-lock's actor: the resource is an actor's state and every critical section is a call
/// into it. The participants are Swift tasks (an actor is reached with `await`), created for each
/// run on Swift's global executor, which has one thread per CPU: "4 threads" are 4 tasks there.
/// The backend plays no part; the case runs once, under backend "none".
final class ActorContention: Contention, @unchecked Sendable {
    let quota: SectionQuota
    private let state: ResourceActor
    private let outsideRounds: UInt64
    private let timeout: Duration
    private let finished = CountdownLatch()

    init(tasks: Int, resource: SharedResource, outsideRounds: UInt64, timeout: Duration) {
        quota = SectionQuota(participants: tasks)
        state = ResourceActor(resource)
        self.outsideRounds = outsideRounds
        self.timeout = timeout
    }

    func perform(_ sections: Int) throws(WorkloadError) {
        quota.fill(sections)
        finished.expect(quota.participants)
        for participant in 0..<quota.participants {
            Task { [self] in
                while case let granted = quota.claim(for: participant), granted > 0 {
                    for _ in 0..<granted {
                        await state.section()
                        rb_spin(outsideRounds)
                    }
                }
                finished.arrive()
            }
        }
        if !finished.wait(timeout: timeout) {
            throw .verificationFailed(
                "\(finished.outstanding) of \(quota.participants) tasks calling the actor did not "
                    + "finish within \(timeout)")
        }
    }

    func settle(expected: Int) -> String? {
        let verdict = CountdownLatch()
        nonisolated(unsafe) var inconsistency: String?
        verdict.expect(1)
        Task { [state] in
            inconsistency = await state.inconsistency(expected: expected)
            verdict.arrive()  // its release orders the write before the wait's return
        }
        guard verdict.wait(timeout: timeout) else { return "the actor did not answer within \(timeout)" }
        return inconsistency
    }

    func stop() {}
}

actor ResourceActor {
    private var resource: SharedResource
    init(_ resource: SharedResource) { self.resource = resource }

    func section() { resource.update() }
    func inconsistency(expected: Int) -> String? { resource.inconsistency(expected: expected) }
}
