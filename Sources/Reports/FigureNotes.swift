/// What a workload's own figures measure, where it differs from ns/op enough to be misread: a
/// latency percentile of one event beside a figure per operation that counts several events at
/// once. Printed under each table that has the figure.
enum FigureNotes {
    /// The note for a figure ("handoff_ns.p50"), by the name before its percentile; nil for a
    /// figure that needs none.
    static func note(for figure: String) -> String? {
        switch figure.split(separator: ".").first.map(String.init) {
        case "handoff_ns":
            "`handoff_ns.p50`/`.p99` is one hand-off's latency: from the sender's clock, read just before `signal`, to the "
                + "receiver's, read just after its `wait` returns, over every pair's hand-offs. ns/op is a round's wall time "
                + "divided by the hand-offs of all pairs together: with one pair it is about the mean latency, but with several "
                + "pairs at once (`pingpong-oversubscribed`) their hand-offs overlap, so ns/op is a throughput figure and can be "
                + "several times below the p50."
        case "notify_ns":
            "`notify_ns.p50`/`.p99` is the time from the last `leave` to the start of the notify block; ns/op is the whole "
                + "operation (enter, notify registration, the leaving task's submission and run, and the wake-up of the "
                + "measuring thread), so it is always the larger."
        default:
            nil
        }
    }

    /// The notes for a table's figures, each once, in the figures' order.
    static func lines(for figures: [String]) -> [String] {
        var seen: Set<String> = []
        return figures.compactMap { figure in
            guard let note = note(for: figure), seen.insert(note).inserted else { return nil }
            return note
        }
    }
}
