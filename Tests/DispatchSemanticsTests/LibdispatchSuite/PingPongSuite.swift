import FIFODispatch
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_pingpong.c: one block bounces between two serial queues, each hop
    /// submitting the next to the other queue in the same group; the group's wait returns after
    /// the last hop. Scaled from 1,000,000 hops to 100,000.
    @Suite("dispatch_pingpong.c: a block bouncing between two serial queues")
    struct PingPongSuite {
        @Test(
            """
            100,000 hops between two serial queues in one group: the wait returns after the last, \
            each hop on the queue it was sent to
            """, arguments: Implementation.underTest)
        func pingPong(_ implementation: Implementation) {
            with(implementation) { api in
                let hops = 100_000
                let ping = api.makeQueue("ping"), pong = api.makeQueue("pong"), group = api.makeGroup()
                final class Last: @unchecked Sendable { var hop = 0 }  // written by the last hop, read after the wait
                let last = Last(), misplaced = Recorder<String>()
                // Hop n runs on pong when n is odd, on ping when even (hop 0 is the caller's).
                @Sendable func bounce(_ here: DispatchAPI.Handle, _ there: DispatchAPI.Handle, _ hop: Int) {
                    if hop % 1_000 == 1, api.currentLabel() != "pong" {
                        misplaced.append("hop \(hop) on \(api.currentLabel() ?? "no queue")")
                    }
                    if hop % 1_000 == 0, hop > 0, api.currentLabel() != "ping" {
                        misplaced.append("hop \(hop) on \(api.currentLabel() ?? "no queue")")
                    }
                    if hop < hops {
                        api.async(there, group: group) { bounce(there, here, hop + 1) }
                    } else {
                        last.hop = hop
                    }
                }
                bounce(ping, pong, 0)
                #expect(api.wait(group: group, timeout: patience) == .success)
                #expect(last.hop == hops, "the group's wait returned at hop \(last.hop)")
                #expect(misplaced.all.isEmpty, "\(misplaced.all.prefix(3))")
            }
        }
    }
}
