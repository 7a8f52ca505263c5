import Results
import Testing

/// Processes whose own samples fall into modes: the process changed mode as it ran.
@Suite("ModeSwitching: samples of one process twice apart, two or more on each side")
struct ModeSwitchingTests {
    static func record(_ samples: [Double], repetition: Int = 0) -> CaseRecord {
        CaseRecord(
            caseID: "semaphore/work-stealing/pattern=pingpong-oversubscribed,semaphore=backend/system",
            repetition: repetition, batch: 100, nanosecondsPerOperation: samples, metricsPerOperation: [:],
            unavailable: [:], workloadMetrics: nil, cpus: [0, 1])
    }

    @Test("two groups of two or more samples switch; one slow sample is an interruption, not a mode")
    func samples() throws {
        let modes = try #require(ModeSwitching.modes(ofSamples: [140, 1_500, 138, 1_620, 150, 145]))
        #expect(modes.fast == 142.5 && modes.slow == 1_560)
        #expect(ModeSwitching.modes(ofSamples: [140, 138, 150, 145, 1_500]) == nil)
        #expect(ModeSwitching.modes(ofSamples: [140, 200, 260, 250]) == nil)
        // Three groups: the fastest and the slowest that hold two samples each.
        let three = try #require(ModeSwitching.modes(ofSamples: [10, 11, 40, 41, 200, 210]))
        #expect(three.fast == 10.5 && three.slow == 205)
    }

    @Test("a case switches when two of its processes did; their medians are the figures")
    func records() throws {
        let steady = Self.record([140, 141, 142, 143])
        let one = Self.record([140, 1_500, 138, 1_620], repetition: 1)
        #expect(ModeSwitching([steady, one]) == nil)
        let two = Self.record([160, 160, 1_400, 1_400], repetition: 2)
        let tooFew = Self.record([140, 1_500, 1_600], repetition: 3)
        let switching = try #require(ModeSwitching([steady, one, two, tooFew]))
        #expect(switching.switched == 2 && switching.processes == 3)
        #expect(switching.fast == (139 + 160) / 2 && switching.slow == (1_560 + 1_400) / 2)
    }
}
