import Testing

@testable import Claims

/// The exact distribution behind `Faster`'s rank test.
@Suite("RankTest: Mann–Whitney's exact distribution")
struct RankTestTests {
    @Test(
        "the orderings of m and n values number C(m + n, m) and are symmetric",
        arguments: [(1, 1), (3, 4), (5, 5), (8, 3)])
    func orderings(m: Int, n: Int) {
        let counts = RankTest.orderings(m, n)
        #expect(counts.count == m * n + 1)
        let binomial = (0..<m).reduce(1.0) { $0 * Double(m + n - $1) / Double($1 + 1) }
        #expect(counts.reduce(0, +) == binomial)
        #expect(counts == counts.reversed())
    }

    @Test("processes wholly apart: 2 / C(m + n, m); one pair out of place doubles the count of the tail")
    func pValues() {
        #expect(abs(RankTest.compare([1, 2, 3, 4], [5, 6, 7, 8]).pValue - 2.0 / 70) < 1e-12)
        #expect(abs(RankTest.compare([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).pValue - 2.0 / 252) < 1e-12)
        // U = 1: P(U ≤ 1) = (1 + 1) / 252.
        #expect(abs(RankTest.compare([1, 2, 3, 4, 6], [5, 7, 8, 9, 10]).pValue - 4.0 / 252) < 1e-12)
        #expect(RankTest.compare([1, 3, 5, 7], [2, 4, 6, 8]).pValue > 0.5)
    }
}
