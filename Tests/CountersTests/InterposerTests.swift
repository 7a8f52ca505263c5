#if canImport(Glibc)
import Glibc
#endif
@testable import Counters
import Testing
import TestSupport

/// The interposer (Sources/CInterposer) and its reader. The counts themselves are checked in
/// processes that preload it: the probe here, `bench --count-allocations` in EndToEndTests.
@Suite("interposer")
struct InterposerTests {
    @Test("without the interposer preloaded, every metric is unavailable with the reason, none reads 0")
    func notPreloaded() {
        let counters = InterposerCounters()
        #expect(counters.metrics.isEmpty)
        #expect(Set(counters.availability.keys) == Set(InterposerCounters.names))
        for (_, availability) in counters.availability {
            let reason = availability.reason
            #expect(
                reason?.contains("--count-allocations") == true || reason?.contains("replaces malloc") == true,
                "\(availability)")
        }
        #expect(counters.read().isEmpty)
    }

    @Test(
        """
        preloaded: waves of threads, more alive at once than there are slots, \
        have every allocation call counted exactly once
        """)
    func everyCallCountedOnce() throws {
        if let sanitizer = sanitizerReplacingMalloc() {
            try skip("\(sanitizer) replaces malloc; the interposer is not preloaded in such a build")
        }
        let library = BuiltProducts.path("libRuntimeBenchInterposer.so")
        let probe = BuiltProducts.path("InterposerProbe")
        try #require(access(library, R_OK) == 0, "\(library) not built: `swift build` builds every product")
        // 3 waves × 1,100 threads × 300 rounds × 4 blocks: 3.96 million mallocs and as many frees.
        let status = try Self.run(probe, ["1100", "3", "300"], preload: library)
        #expect(status == 0, "probe exit status \(status) (1: a total was off, printed above; 3: not preloaded)")
        // Without the interposer the probe refuses rather than passing.
        #expect(try Self.run(probe, ["2", "1", "1"], preload: nil) == 3)
    }

    static func run(_ executable: String, _ arguments: [String], preload: String?) throws -> Int32 {
        var pid: pid_t = 0
        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let settings: [String] = preload.map { ["LD_PRELOAD=\($0)"] } ?? []
        var environment: [UnsafeMutablePointer<CChar>?] = settings.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        try #require(posix_spawn(&pid, executable, nil, nil, &argv, &environment) == 0, "could not start \(executable)")
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
