/// A distribution summary per row: each row (a backend's semaphore, a group's notify) shows its
/// percentiles as marks on one value axis (p50 and p99 of a hand-off latency), joined by a bar,
/// so a row's typical value and its tail read together. One legend entry per percentile.
public struct PercentileChart: Sendable {
    public struct Row: Sendable {
        public let name: String
        /// One value per mark name, in `PercentileChart.marks` order; nil where not measured
        /// (that mark is simply absent, never drawn at zero).
        public let values: [Double?]

        public init(name: String, values: [Double?]) {
            self.name = name
            self.values = values
        }
    }

    public let title: String
    /// A line under the title: what holds for every row ("system allocator").
    public let subtitle: String?
    /// What the axis shows and in which unit, e.g. "hand-off latency, ns (log scale)".
    public let axisLabel: String
    public let scale: Scale.Kind
    /// The percentiles' names, e.g. ["p50", "p99"].
    public let marks: [String]
    public let rows: [Row]

    public init(
        title: String, subtitle: String? = nil, axisLabel: String, scale: Scale.Kind = .logarithmic, marks: [String],
        rows: [Row]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.axisLabel = axisLabel
        self.scale = scale
        self.marks = marks
        self.rows = rows
    }

    /// The chart as a standalone SVG document.
    /// - Precondition: some row has a value; a logarithmic axis sees positive values only.
    public func svg() -> String {
        let values = rows.flatMap { $0.values.compactMap { $0 } }
        precondition(!values.isEmpty, "a percentile chart needs at least one value")
        let frame = ChartFrame(
            title: title, subtitle: subtitle, legend: marks, leftLabelCharacters: rows.map(\.name.count).max() ?? 3,
            rows: rows.count)
        let axis = Scale(scale, covering: values, pixels: frame.left...frame.right, inverted: false)
        var content = [frame.xAxis(axis, ticks: axis.ticks().map { ($0, tickLabel($0)) }, label: axisLabel)]
        for (index, row) in rows.enumerated() {
            let y = frame.rowCentre(index, of: rows.count)
            var children = [frame.rowLabel(row.name, y: y)]
            let present = row.values.compactMap { $0 }
            if let low = present.min(), let high = present.max(), high > low {
                children.append(
                    SVGElement(
                        "path",
                        [
                            ("class", "range c\(ChartStyle.lightColours.count - 1)"),
                            (
                                "d",
                                "M\(coordinate(axis.position(low))),\(coordinate(y))H\(coordinate(axis.position(high)))"
                            ),
                        ]))
            }
            for (mark, value) in zip(marks.indices, row.values) {
                guard let value else { continue }
                children.append(
                    ChartStyle.markerElement(
                        mark, x: axis.position(value), y: y, size: 9, extraClass: "point",
                        attributes: [
                            ("data-series", marks[mark]), ("data-case", row.name),
                            ("data-figure", "\(marks[mark]) \(tickLabel(value))"),
                        ],
                        tooltip: "\(row.name) \(marks[mark]): \(tickLabel(value))"))
            }
            content.append(SVGElement("g", [("class", "series"), ("data-series", row.name)], children: children))
        }
        content.append(frame.legend(marks.map { ($0, .marker) }))
        return frame.document(
            title: title, subtitle: subtitle,
            description:
                "\(marks.joined(separator: " and ")) of \(axisLabel) for \(rows.map(\.name).joined(separator: ", "))",
            content: content)
    }
}
