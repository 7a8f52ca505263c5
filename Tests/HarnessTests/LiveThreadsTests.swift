import Foundation
import Harness
import Results
import Testing

/// The threads every case reports: the last reading after a sample and the most seen.
@Suite("live threads: the last reading and the peak, as every case's figures")
struct LiveThreadsTests {
    @Test("nothing observed is no figure, not 0; the peak keeps the most seen after threads end")
    func lastAndPeak() throws {
        let threads = LiveThreads()
        #expect(threads.figures.isEmpty)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let parked = (0..<3).map { _ in
            Thread {
                started.signal()
                release.wait()
            }
        }
        parked.forEach { $0.start() }
        for _ in parked { started.wait() }
        threads.observe()
        let withParked = try #require(threads.last)
        #expect(withParked >= 4, "this thread and three parked ones, at least")
        for _ in parked { release.signal() }
        while parked.contains(where: { !$0.isFinished }) { usleep(1_000) }
        threads.observe()
        let figures = threads.figures
        let peak = try #require(figures[LiveThreads.peakName]?.value)
        let end = try #require(figures[LiveThreads.endName]?.value)
        #expect(
            peak >= Double(withParked) && peak >= end, "peak \(peak), end \(end), with the parked threads \(withParked)"
        )
        #expect(figures[LiveThreads.peakName]?.unit == .count)
    }
}
