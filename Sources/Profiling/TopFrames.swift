import Results

/// The frames a profile spent its samples in: each frame's self share (samples where it was the
/// leaf, running) and total share (samples where it was anywhere on the stack, counted once per
/// sample), most self first.
public struct TopFrames: Sendable {
    /// A frame with its self and total samples, as results.json keeps them too.
    public typealias Row = ProfileSummary.Frame

    public let rows: [Row]
    public let samples: Int

    public init(_ stacks: CollapsedStacks) {
        var selfCounts: [String: Int] = [:], totals: [String: Int] = [:]
        for (stack, count) in stacks.counts {
            if let leaf = stack.last { selfCounts[leaf, default: 0] += count }
            for frame in Set(stack) { totals[frame, default: 0] += count }
        }
        rows = totals.map { Row(frame: $0.key, selfSamples: selfCounts[$0.key] ?? 0, totalSamples: $0.value) }
            .sorted { ($0.selfSamples, $0.totalSamples, $1.frame) > ($1.selfSamples, $1.totalSamples, $0.frame) }
        samples = stacks.samples
    }

    /// The share of the samples in which `frame` was on the stack.
    public func totalShare(of frame: String) -> Double {
        guard samples > 0 else { return 0 }
        return Double(rows.first { $0.frame == frame }?.totalSamples ?? 0) / Double(samples)
    }

    /// The first `count` rows as a Markdown table.
    public func markdown(first count: Int = 30) -> [String] {
        var table = MarkdownTable([
            ("frame", .left), ("self", .right), ("self share", .right),
            ("total", .right), ("total share", .right),
        ])
        table.rows = rows.prefix(count).map { row in
            [
                row.frame, "\(row.selfSamples)", Self.percent(row.selfSamples, of: samples),
                "\(row.totalSamples)", Self.percent(row.totalSamples, of: samples),
            ]
        }
        return table.lines
    }

    static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "—" : Figures.value(100 * Double(part) / Double(whole)) + "%"
    }
}
