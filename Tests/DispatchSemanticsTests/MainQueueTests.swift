#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

/// The main queue and `dispatchMain`, which never returns: each scenario runs in a child process
/// whose last main-queue block ends it with `exit`.
@Suite("main queue")
struct MainQueueTests {
    /// Built next to the test bundle (this target depends on it).
    static let probe: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let testBinary = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(testBinary[..<(testBinary.lastIndex(of: "/") ?? testBinary.endIndex)]) + "/DispatchMainProbe"
    }()

    @Test(
        "dispatchMain serves the main queue in FIFO order, one block at a time, and never returns",
        arguments: Implementation.underTest)
    func dispatchMainServes(_ implementation: Implementation) throws {
        // A child process: dispatch_main must run on the main thread and never returns.
        var pid: pid_t = 0
        let arguments = [Self.probe, implementation.rawValue]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&pid, Self.probe, nil, nil, &argv, environ) == 0, "could not start \(Self.probe)")
        var status: Int32 = 0
        let deadline = MonotonicInstant.after(patience)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if MonotonicInstant.now >= deadline { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0); break }
            usleep(1_000)
        }
        let exited = status & 0x7f == 0
        #expect(
            exited && (status >> 8) & 0xff == 42,
            """
            probe ended with raw status \(status) (42: blocks in order, one at a time; 1: not; \
            3: dispatchMain returned)
            """)
    }

    @Test(
        """
        a bounded drain runs the main queue's blocks on the caller and returns (FIFODispatch; \
        libdispatch has no such call without a run loop)
        """)
    func boundedDrain() throws {
        let api = FIFOAPI(workers: 2)
        defer { api.shutdown() }
        let caller = pthread_self()
        let ran = Recorder<Bool>()
        for _ in 0..<100 { api.async(api.mainQueue) { ran.append(isCurrent(caller)) } }
        #expect(ran.count == 0, "main-queue blocks ran before anyone served the main queue")
        api.drainMainQueue(for: .milliseconds(50))
        #expect(ran.all == Array(repeating: true, count: 100))
        // Blocks from another thread while draining are served too.
        api.async(api.global(.default)) { api.async(api.mainQueue) { ran.append(true) } }
        #expect(
            eventually {
                api.drainMainQueue(for: .milliseconds(10)); return ran.count == 101
            })
    }
}
