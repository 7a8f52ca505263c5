#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Testing
import TestSupport

/// Our backends' scheduling events where the counts are known, read from `RuntimeEventsProbe`:
/// a process of its own, since the counts are the process's totals and this process runs other
/// tests at the same time.
@Suite("runtime events")
struct RuntimeEventsTests {
    static let probe = BuiltProducts.path("RuntimeEventsProbe")

    /// Scenario → event name → count, from one run of the probe.
    static func runProbe() throws -> [String: [String: Int]] {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(probe), nil]
        defer { free(argv[0]) }
        try #require(posix_spawn(&pid, probe, &actions, nil, &argv, environ) == 0, "could not start \(probe)")
        close(pipeEnds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        try #require(status == 0, "probe ended with raw status \(status)")
        var scenarios: [String: [String: Int]] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let name = fields.first else { continue }
            scenarios[String(name)] = Dictionary(
                uniqueKeysWithValues: fields.dropFirst().compactMap { field in
                    let parts = field.split(separator: "=")
                    return parts.count == 2 ? Int(parts[1]).map { (String(parts[0]), $0) } : nil
                })
        }
        return scenarios
    }

    @Test(
        """
        known counts: 1 worker never steals; a stolen join half is 1 steal; \
        idle syncs are never slow, a blocked one is; every block takes one node; a wait that \
        outlasts its poll sleeps once
        """, arguments: 0..<3)
    func knownCounts(_ round: Int) throws {
        let scenarios = try Self.runProbe()
        let oneWorker = try #require(scenarios["one-worker-fib15"])
        #expect(oneWorker["steals"] == 0 && oneWorker["joins-stolen"] == 0, "\(oneWorker)")
        #expect(oneWorker["joins-inline"] == 986, "fib(15) joins 986 times: \(oneWorker)")
        let stolen = try #require(scenarios["two-workers-stolen-half"])
        #expect(stolen["steals"] == 1 && stolen["stolen-jobs"] == 1, "\(stolen)")
        #expect(stolen["joins-stolen"] == 1 && stolen["joins-inline"] == 0, "\(stolen)")
        let idle = try #require(scenarios["fifo-idle-syncs-1000"])
        #expect(idle["sync-slow"] == 0 && idle["nodes-allocated"] == 0 && idle["nodes-reused"] == 0, "\(idle)")
        let blocked = try #require(scenarios["fifo-sync-behind-a-block"])
        #expect(blocked["sync-slow"] == 1, "\(blocked)")
        // A node per block, and one per drain (the queue's token on its root).
        let asyncs = try #require(scenarios["fifo-async-1000"])
        let nodes = (asyncs["nodes-reused"] ?? 0) + (asyncs["nodes-allocated"] ?? 0)
        #expect(nodes == 1_000 + (asyncs["drains"] ?? -1), "\(asyncs)")
        // The waiter polled a new group's whole budget, yielding every `yieldEvery` rounds, then slept.
        let slept = try #require(scenarios["fifo-group-wait-slept"])
        let waiterYields = SpinBudget.maximum / SpinBudget.yieldEvery
        #expect(slept["waits-slept"] == 1 && (slept["yields"] ?? 0) >= waiterYields, "\(slept)")
        // Each scenario reports every event, and events of the other backend stay at 0.
        for (name, counts) in scenarios {
            #expect(counts.count == RuntimeEvent.allCases.count, "\(name): \(counts)")
        }
        #expect(oneWorker["sync-slow"] == 0 && idle["steals"] == 0)
    }
}
