import Results
import Testing

/// Where a case's processes split into modes, and how well their shares are known.
@Suite("ProcessMode: processes split where neighbours are twice apart")
struct ProcessModeTests {
    @Test("a gap of 2× or more between sorted neighbours splits; a wide spread with no gap does not")
    func groups() {
        #expect(ProcessMode.groups([2_519, 11.1, 20.7, 12.1]) == [[11.1, 12.1, 20.7], [2_519]])
        #expect(ProcessMode.groups([100, 150, 220, 330]).count == 1)
        #expect(ProcessMode.groups([10, 25, 60]).count == 3)
    }

    @Test("an estimate lists its modes, each with its own figure and share; one group is no modes")
    func estimate() throws {
        let split = try #require(CaseEstimate(values: [11.1, 12.1, 20.7, 2_519], prior: nil))
        #expect(split.modes.map(\.processes) == [3, 1])
        #expect(abs(split.modes[0].estimate.value - 12.1) < 1e-9 && abs(split.modes[1].estimate.value - 2_519) < 1e-9)
        #expect(split.modes[1].share == 0.25 && split.modes[1].contains(2_519) && !split.modes[1].contains(20.7))
        let steady = try #require(CaseEstimate(values: [100, 150, 220, 330], prior: nil))
        #expect(steady.modes.isEmpty)
        #expect(abs(split.scaled(by: 0.5).modes[1].estimate.value - 1_259.5) < 1e-9)
    }

    @Test("Wilson's interval: 1 of 4 is 5%–70%; the share is known to ±15 points only with about 40 processes")
    func wilson() {
        let one = ProcessMode.wilson(1, of: 4)
        #expect(abs(one.lowerBound - 0.0456) < 0.001 && abs(one.upperBound - 0.6994) < 0.001)
        let half = ProcessMode.wilson(20, of: 40)
        #expect(abs((half.upperBound - half.lowerBound) / 2 - 0.15) < 0.01)
        #expect(ProcessMode.wilson(0, of: 4).lowerBound == 0 && ProcessMode.wilson(4, of: 4).upperBound > 0.9999)
    }
}
