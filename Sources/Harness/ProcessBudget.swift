/// Which cases get more processes when time is short: the cheapest first, each only if its
/// processes still fit in what is left, so one slow case never crowds out many quick ones. The
/// mode budget's rounds (`MeasuredRun`) and the answers' round (`AnswerRound`) both choose by it.
enum ProcessBudget {
    /// - Parameters:
    ///   - open: the cases (indices) that want more processes.
    ///   - secondsPerProcess: what one process of each case took, by index.
    ///   - processes: how many each chosen case gets.
    ///   - seconds: the time left.
    /// - Returns: the chosen indices, ascending.
    static func cheapestFirst(_ open: [Int], secondsPerProcess: [Double], processes: Int, seconds: Double) -> [Int] {
        var left = seconds
        var chosen: [Int] = []
        for index in open.sorted(by: { secondsPerProcess[$0] < secondsPerProcess[$1] }) {
            let cost = secondsPerProcess[index] * Double(processes)
            guard cost <= left else { continue }
            left -= cost
            chosen.append(index)
        }
        return chosen.sorted()
    }
}
