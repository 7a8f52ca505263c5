/// Holm's step-down correction: adjusted p-values that keep the chance of any false alarm in a
/// table of m comparisons at most α when each is compared with α, whatever the dependence
/// between them (uniformly more powerful than Bonferroni's p · m).
public enum HolmCorrection {
    /// The adjusted p-value of each input, in input order: sorted ascending, the i-th smallest
    /// (from 0) becomes max over j ≤ i of min(1, (m − j) · p_(j)).
    public static func adjust(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
