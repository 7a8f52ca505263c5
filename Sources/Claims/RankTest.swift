/// Mann–Whitney's exact rank test between two cases' processes: how often, were neither case
/// faster, their values would interleave as little as they do. It counts one value per process
/// and assumes nothing of their distribution, so it stays valid where processes fall into modes
/// and an interval over logarithms says nothing.
///
/// U counts the pairs (one process of each case) in which the first case's process is the
/// slower one, ties counting a half. Under "neither is faster" every ordering of the m + n values
/// is equally likely; the number of orderings with U = u, N(u; m, n), follows from where the
/// largest value sits: N(u; m, n) = N(u − n; m − 1, n) + N(u; m, n − 1).
enum RankTest {
    /// Which of `first` and `second` has the lower values, and the two-sided chance, were
    /// neither faster, of a U as far from its middle as theirs: 2 · P(U ≤ min(u, mn − u)), at
    /// most 1.
    static func compare(_ first: [Double], _ second: [Double]) -> (pValue: Double, firstIsLower: Bool) {
        let m = first.count, n = second.count
        guard m > 0, n > 0 else { return (1, false) }
        var u = 0.0
        for a in first {
            for b in second {
                if a > b { u += 1 } else if a == b { u += 0.5 }
            }
        }
        let lowTail = Int(min(u, Double(m * n) - u).rounded(.down))
        let counts = orderings(m, n)
        let total = counts.reduce(0, +)
        let tail = counts[0...min(lowTail, counts.count - 1)].reduce(0, +)
        return (min(1, 2 * tail / total), u < Double(m * n) / 2)
    }

    /// N(u; m, n) for u = 0 … mn, as doubles (C(m + n, m) passes Int's range near 70 processes).
    static func orderings(_ m: Int, _ n: Int) -> [Double] {
        // table[j][u]: orderings of i values of the first and j of the second, for the current i.
        var table = (0...n).map { _ in [1.0] }
        for i in stride(from: 1, through: m, by: 1) {
            var next = [[Double]](repeating: [], count: n + 1)
            next[0] = [1.0]
            for j in stride(from: 1, through: n, by: 1) {
                var row = [Double](repeating: 0, count: i * j + 1)
                // The largest value belongs to the first case: it is above all j of the second.
                for (u, count) in table[j].enumerated() where u + j < row.count { row[u + j] += count }
                // Or to the second case: it adds no pair where the first is slower.
                for (u, count) in next[j - 1].enumerated() { row[u] += count }
                next[j] = row
            }
            table = next
        }
        return table[n]
    }
}
