import FIFODispatch
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_starfish.c: every node (a serial queue on the low global queue) pings every
    /// node, each ping answers its sender with a pong, and a node that has all its pongs reports
    /// to a collector; a lap ends when every node has reported. The queues are made suspended,
    /// retargeted, given their first block, and only then resumed. Scaled from 1,000 nodes and
    /// 10 laps to 150 nodes and 4 laps (90,000 pings and pongs a lap). libdispatch's test also
    /// bounded the time per message (1 µs, 10 µs lenient): a speed, not a behaviour, left out.
    @Suite("dispatch_starfish.c: every queue pings every queue")
    struct StarfishSuite {
        final class Node: @unchecked Sendable {
            let queue: DispatchAPI.Handle
            let label: String
            var awaited = 0  // touched only by blocks on `queue`
            init(_ api: any DispatchAPI, _ index: Int) {
                label = "com.example.starfish-node#\(index)"
                queue = api.makeQueue(label)
            }
        }

        @Test(
            "each of 150 nodes pings all 150 and gets every pong back, lap after lap",
            arguments: Implementation.underTest)
        func starfish(_ implementation: Implementation) throws {
            try with(implementation) { api in
                let count = 150, laps = 4
                for lap in 1...laps {
                    let nodes = (0..<count).map { Node(api, $0) }
                    let collector = api.makeQueue("test.starfish.collector"), lapDone = Latch()
                    final class Reports: @unchecked Sendable {  // touched only on the collector
                        var byNode: [Int]
                        init(_ count: Int) { byNode = Array(repeating: 0, count: count) }
                    }
                    let reports = Reports(count), failures = Failures()
                    for node in nodes {
                        api.suspend(node.queue)
                        api.setTarget(node.queue, api.global(.low))
                    }
                    for (index, node) in nodes.enumerated() {
                        api.async(node.queue) {
                            node.awaited = count
                            for other in nodes {
                                api.async(other.queue) {  // ping
                                    failures.check(
                                        api.currentLabel() == other.label,
                                        "a ping ran on \(api.currentLabel() ?? "no queue"), not \(other.label)")
                                    api.async(node.queue) {  // pong
                                        node.awaited -= 1
                                        failures.check(
                                            node.awaited >= 0, "\(node.label) got more pongs than it sent pings")
                                        if node.awaited == 0 {
                                            api.async(collector) {
                                                reports.byNode[index] += 1
                                                if reports.byNode.allSatisfy({ $0 > 0 }) { lapDone.open() }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    for node in nodes { api.resume(node.queue) }
                    try #require(lapDone.wait(), "lap \(lap): not every node got all its pongs")
                    var byNode: [Int] = []
                    api.sync(collector) { byNode = reports.byNode }
                    #expect(byNode == Array(repeating: 1, count: count), "lap \(lap): a node reported more than once")
                    for node in nodes {
                        var awaited = -1
                        api.sync(node.queue) { awaited = node.awaited }
                        #expect(awaited == 0, "lap \(lap): \(node.label) still awaits \(awaited) pongs")
                    }
                    #expect(failures.all.isEmpty, "lap \(lap): \(failures.all.prefix(3))")
                }
            }
        }
    }
}
