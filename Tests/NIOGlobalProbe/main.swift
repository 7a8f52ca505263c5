#if canImport(Glibc)
import Glibc
#endif
import ConformanceKit
import NIORuntimes
import PThreadPrimitives
import RuntimeKit

// nio-global in a process of its own, as `bench`'s children run it: NIO takes over Swift's global
// executor first, then tasks report the threads they ran on, then the conformance kit runs every
// scenario on NIOGlobalRuntime. One line per finding, read by NIOGlobalProbeTests:
//   takeover: installed <loops> loops | takeover: refused: <reason>
//   thread <what>: <thread name>
//   pass|skip|fail <scenario>[: <detail>]
// Exit 0 when nothing failed, 1 when a scenario failed or hung, 3 when NIO did not take over.

func say(_ line: String) {
    print(line)
    fflush(nil)  // every stream: the test reads the lines of a probe that hangs too
}

do {
    try NIOGlobalRuntime.prepareProcess()
} catch {
    say("takeover: refused: \(error)")
    exit(3)
}
guard case .installed(let loops, _) = GlobalExecutorTakeover.state else {
    say("takeover: refused: prepareProcess() returned, but the takeover is \(GlobalExecutorTakeover.state)")
    exit(3)
}
say("takeover: installed \(loops) loops")

/// Runs `body` as a detached task and waits for it on this (main) thread, which is not a loop.
func awaitTask<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = MutexSemaphore(value: 0)
    let box = Box<T>()
    Task.detached {
        box.value = await body()
        done.signal()  // the semaphore's hand-off orders the write before the read below
    }
    done.wait()
    return box.value!
}

final class Box<T>: @unchecked Sendable { var value: T? }

actor Recorder { func thread() -> String { currentThreadName() } }

let threads: [(String, String)] = awaitTask {
    var seen = [("task", currentThreadName())]
    seen.append(("detached task", await Task.detached { currentThreadName() }.value))
    seen.append(("default actor", await Recorder().thread()))
    let children = await withTaskGroup(of: String.self) { group in
        for _ in 0..<8 { group.addTask { currentThreadName() } }
        return await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    seen += children.sorted().map { ("task group child", $0) }
    return seen
}
for (what, name) in threads { say("thread \(what): \(name)") }

var failed = 0
for scenario in Conformance.scenarios {
    if let reason = scenario.reasonNotApplicable(to: NIOGlobalRuntime.self) {
        say("skip \(scenario): \(reason)")
        continue
    }
    let finished = MutexSemaphore(value: 0)
    let outcome = Box<String>()
    let worker = PThread.spawn {
        do {
            try scenario.run(on: NIOGlobalRuntime.self)
            outcome.value = "pass \(scenario)"
        } catch {
            outcome.value = "fail \(scenario): \(error)"
        }
        finished.signal()
    }
    guard finished.wait(timeout: Conformance.deadline) == .success else {
        say("fail \(scenario): deadlock or hang, not finished within \(Conformance.deadline)")
        exit(1)  // the stuck thread cannot be stopped; the rest would run beside it
    }
    worker.join()
    let line = outcome.value!
    if line.hasPrefix("fail") { failed += 1 }
    say(line)
}
exit(failed == 0 ? 0 : 1)
