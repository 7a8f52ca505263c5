import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_thread_name.c: a thread names itself, then blocks on the global queue read
    /// the names of the threads they run on. Each must have a name, and not the creator's: on
    /// Linux a new thread starts with its creator's name, so a pool that does not name its
    /// threads shows them all under whatever name the thread that started it had. Also asked for
    /// by the issue tracker.
    ///
    /// The creator is a thread of the test's own, not the test's thread, which Swift Testing
    /// shares with other tests; FIFODispatch makes its workers when created, so its instance is
    /// created there, after the name is set (libdispatch makes its threads when work comes).
    @Suite("dispatch_thread_name.c: worker threads have names of their own")
    struct ThreadNameSuite {
        @Test(
            "blocks on the global queue run on threads with a name that is not their creator's",
            arguments: Implementation.underTest)
        func workerNames(_ implementation: Implementation) {
            let parentName = "TestParentName"
            let creatorName = Recorder<String>(), workerNames = Recorder<String>(), finished = Recorder<Bool>()
            PThread.spawn {
                setThreadName(parentName)
                creatorName.append(threadName())
                with(implementation) { api in
                    let group = api.makeGroup()
                    for _ in 0..<10 {
                        api.async(api.global(.default), group: group) { workerNames.append(threadName()) }
                    }
                    finished.append(api.wait(group: group, timeout: patience) == .success)
                }
            }.join()
            #expect(creatorName.all == [parentName], "the test could not name its thread")
            #expect(finished.all == [true])
            let names = workerNames.all
            #expect(names.count == 10)
            #expect(!names.contains(""), "a worker thread has no name: \(names)")
            #expect(!names.contains(parentName), "worker threads carry their creator's name: \(Set(names).sorted())")
        }
    }
}
