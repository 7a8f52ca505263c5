#if canImport(Glibc)
import Glibc
#endif
@testable import RuntimeKit
import Testing

@Suite("usable CPUs")
struct UsableCPUsTests {
    @Test(
        """
        cgroup v2's cpu.max reads as CPUs' worth of quota, 'max' as none; \
        ranges and the count read as a user writes them
        """)
    func parsing() {
        #expect(UsableCPUs.quota(cpuMax: "150000 100000") == 1.5)
        #expect(UsableCPUs.quota(cpuMax: "max 100000") == nil)
        #expect(UsableCPUs.quota(cpuMax: "garbage") == nil)
        #expect(UsableCPUs.ancestors("/a/b") == ["/a/b", "/a", ""])
        #expect(UsableCPUs(affinity: [0, 1, 2, 5], quota: nil).description == "CPUs 0-2,5")
        #expect(UsableCPUs(affinity: [0], quota: 1.5).description == "CPU 0, cgroup quota 1.5 CPUs")
        #expect(UsableCPUs(affinity: [0, 1], quota: 0.5).count == 1, "half a CPU of quota still runs one thread")
        #expect(UsableCPUs(affinity: [0, 1], quota: 1.5).count <= 2)
        #expect(UsableCPUs(affinity: [0, 1], quota: nil).pinned(to: [1]).affinity == [1])
    }

    @Test("a thread pinned to one CPU resolves workers: 0 to one worker, and gets its count back when unpinned")
    func affinityCounts() throws {
        let original = UsableCPUs.affinityOfCallingThread()
        try #require(!original.isEmpty)
        #expect(activeProcessorCount == UsableCPUs.ofThisProcess().count)
        guard original.count > 1 else { return }  // a 1-CPU machine cannot show the difference
        try #require(UsableCPUs.setAffinityOfCallingThread([original[0]]) == 0)
        defer { UsableCPUs.setAffinityOfCallingThread(original) }
        #expect(activeProcessorCount == 1)
        #expect(resolvedWorkerCount(0) == 1)
        #expect(UsableCPUs.ofThisProcess().affinity == [original[0]])
    }
}
