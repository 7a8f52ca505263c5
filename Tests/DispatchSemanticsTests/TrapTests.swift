import FIFODispatch
import Testing

/// Misuse that must stop the program with a clear message rather than hang or corrupt: each
/// scenario runs in a child process (a Swift Testing exit test) on both implementations.
@Suite("misuse traps")
struct TrapTests {
    @Test("sync onto the queue the caller is running on traps", arguments: Implementation.underTest)
    func syncOnOwnQueue(_ implementation: Implementation) async {
        await #expect(processExitsWith: .failure) { [implementation] in
            with(implementation) { api in
                let queue = api.makeQueue("test.deadlock")
                api.sync(queue) { api.sync(queue) {} }
            }
        }
    }

    @Test("sync onto a queue whose serial target the caller is running on traps", arguments: Implementation.underTest)
    func syncThroughTarget(_ implementation: Implementation) async {
        await #expect(processExitsWith: .failure) { [implementation] in
            with(implementation) { api in
                let top = api.makeQueue("test.top")
                let child = api.makeQueue("test.child", concurrent: false, qos: nil, target: top)
                api.sync(top) { api.sync(child) {} }
            }
        }
    }

    @Test("resuming more often than suspended traps", arguments: Implementation.underTest)
    func overResume(_ implementation: Implementation) async {
        await #expect(processExitsWith: .failure) { [implementation] in
            with(implementation) { api in
                let queue = api.makeQueue("test.resume")
                api.suspend(queue)
                api.resume(queue)
                api.resume(queue)
            }
        }
    }

    @Test("an unbalanced leave traps", arguments: Implementation.underTest)
    func unbalancedLeave(_ implementation: Implementation) async {
        await #expect(processExitsWith: .failure) { [implementation] in
            with(implementation) { api in
                let group = api.makeGroup()
                api.enter(group)
                api.leave(group)
                api.leave(group)
            }
        }
    }

    @Test("a queue targeting itself, directly or through a cycle, is refused", arguments: [0, 1])
    func targetCycle(_ depth: Int) async {
        // FIFODispatch only: libdispatch documents self-targeting as undefined, not refused.
        await #expect(processExitsWith: .failure) { [depth] in
            let runtime = FIFODispatch(workers: 1)
            let queue = runtime.makeQueue(label: "test.a")
            if depth == 0 {
                queue.setTarget(queue)
            } else {
                let other = runtime.makeQueue(label: "test.b", target: queue)
                queue.setTarget(other)
            }
        }
    }

    @Test("the trap messages say what went wrong")
    func messages() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let runtime = FIFODispatch(workers: 1)
            let queue = runtime.makeQueue(label: "test.own")
            queue.sync { queue.sync {} }
        }
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("sync onto queue 'test.own' from a block running on it"), "\(text.suffix(400))")
        let cycle = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let runtime = FIFODispatch(workers: 1)
            let queue = runtime.makeQueue(label: "test.self")
            queue.setTarget(queue)
        }
        #expect(String(decoding: cycle.standardErrorContent, as: UTF8.self).contains("cannot be its own target"))
        let resume = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let runtime = FIFODispatch(workers: 1)
            runtime.makeQueue(label: "test.r").resume()
        }
        #expect(String(decoding: resume.standardErrorContent, as: UTF8.self).contains("more resumes than suspends"))
        let leave = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let runtime = FIFODispatch(workers: 1)
            runtime.makeGroup().leave()
        }
        #expect(String(decoding: leave.standardErrorContent, as: UTF8.self).contains("unbalanced leave"))
    }
}
