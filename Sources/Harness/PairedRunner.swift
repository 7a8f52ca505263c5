import Results
/// The parent side of `bench ab`: every case from two builds, A and B, one child process each per
/// pair, the two processes of a pair run back to back, in the order A B, then B A, A B, B A ...
/// Whatever drifts during the run (a neighbour's load, thermal state, the page cache) hits both
/// halves of a pair nearly alike, and the alternating order cancels what is left of a steady
/// trend; the comparison then works on each pair's ratio (`Comparison.Pairing.paired`).
public struct PairedRunner: Sendable {
    public let a: String
    public let b: String
    public let launcher: CaseLauncher

    public init(a: String, b: String, launcher: CaseLauncher) {
        self.a = a
        self.b = b
        self.launcher = launcher
    }

    /// One of the two builds; its raw value is how the journal and the progress lines name it.
    public enum Build: String, Sendable, Codable {
        case a = "A", b = "B"
    }

    /// Which build ran first in pair `pair`: A in even pairs, B in odd ones (A B B A A B ...).
    public static func order(ofPair pair: Int) -> [Build] { pair.isMultiple(of: 2) ? [.a, .b] : [.b, .a] }

    /// Runs `pairs` pairs of every case. Pairs are the outer loop, so each case's pairs are spread
    /// over the whole run (as `Runner` spreads repetitions). Process i of A and process i of B both
    /// record repetition i: that is how the comparison matches them.
    public func run(_ cases: [BenchmarkCase], pairs: Int, journal: ResultsJournal,
                    progress: (Runner.Event) -> Void) async throws -> (a: [CaseResult], b: [CaseResult]) {
        precondition(pairs >= 1)
        var resultsA = cases.map { CaseResult(benchmarkCase: $0) }, resultsB = resultsA
        let total = cases.count * pairs * 2
        var index = 0
        for pair in 0..<pairs {
            for (position, benchmarkCase) in cases.enumerated() {
                for build in Self.order(ofPair: pair) {
                    index += 1
                    guard let outcome = try await launcher.step(benchmarkCase, repetition: pair, executable: build == .a ? a : b,
                                                                build: build, index: index, total: total, journal: journal,
                                                                progress: progress)
                    else { return (resultsA.finished, resultsB.finished) }
                    switch build {
                    case .a: resultsA[position].file(outcome)
                    case .b: resultsB[position].file(outcome)
                    }
                }
            }
        }
        return (resultsA, resultsB)
    }
}
