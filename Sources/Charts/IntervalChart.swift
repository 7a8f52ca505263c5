/// One figure per row with its interval: contenders compared under one condition (what an empty
/// task costs on each runtime), a marker at each figure and a band across its interval, on one
/// value axis, rows in the caller's order (best first). Two rows whose bands do not overlap
/// differ by more than their processes' spread; the eye reads that without a table.
public struct IntervalChart: Sendable {
    public struct Row: Sendable {
        public let name: String
        /// The figure and its interval (nil, or bounds that are not finite: a marker alone), with
        /// what a reader hovering it is told.
        public let point: LineChart.Point

        public init(name: String, point: LineChart.Point) {
            self.name = name
            self.point = point
        }
    }

    public let title: String
    /// A line under the title: what holds for every row ("system allocator").
    public let subtitle: String?
    /// What the axis shows and in which unit, e.g. "ns per task, median (log scale)".
    public let axisLabel: String
    public let scale: Scale.Kind
    public let rows: [Row]
    /// The legend's word for the bands, e.g. "band: comparison interval (95%)".
    public let bandLegend: String?

    public init(
        title: String, subtitle: String? = nil, axisLabel: String, scale: Scale.Kind = .logarithmic, rows: [Row],
        bandLegend: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.axisLabel = axisLabel
        self.scale = scale
        self.rows = rows
        self.bandLegend = bandLegend
    }

    /// A row's interval if it can be drawn on this chart's axis.
    private func drawable(_ point: LineChart.Point) -> (lower: Double, upper: Double)? {
        guard let interval = point.interval, interval.lower.isFinite, interval.upper.isFinite,
            interval.lower <= interval.upper, scale == .linear || interval.lower > 0
        else { return nil }
        return interval
    }

    /// The chart as a standalone SVG document.
    /// - Precondition: at least one row; a logarithmic axis sees positive values only.
    public func svg() -> String {
        precondition(!rows.isEmpty, "an interval chart needs at least one row")
        let values = rows.flatMap { row in [row.point.y] + (drawable(row.point).map { [$0.lower, $0.upper] } ?? []) }
        let notes: [ChartFrame.Note] =
            bandLegend.map { legend in rows.contains { drawable($0.point) != nil } ? [.band(legend)] : [] } ?? []
        let frame = ChartFrame(
            title: title, subtitle: subtitle, legend: notes.map(\.text),
            leftLabelCharacters: rows.map(\.name.count).max() ?? 3, rows: rows.count)
        let axis = Scale(scale, covering: values, pixels: frame.left...frame.right, inverted: false)
        var content = [frame.xAxis(axis, ticks: axis.ticks().map { ($0, tickLabel($0)) }, label: axisLabel)]
        for (index, row) in rows.enumerated() {
            let y = frame.rowCentre(index, of: rows.count)
            var children = [frame.rowLabel(row.name, y: y)]
            // Every row in the first colour: rows are told apart by their labels, and one colour
            // keeps "which band overlaps which" the only thing to read.
            if let interval = drawable(row.point) {
                let low = axis.position(interval.lower), high = axis.position(interval.upper)
                children.append(
                    SVGElement(
                        "path",
                        [
                            ("class", "band c0"),
                            (
                                "d",
                                "M\(coordinate(low)),\(coordinate(y - 6))H\(coordinate(high))V\(coordinate(y + 6))"
                                    + "H\(coordinate(low))Z"
                            ),
                        ]))
            }
            children.append(
                ChartStyle.markerElement(
                    0, x: axis.position(row.point.y), y: y, size: 9, extraClass: "point",
                    attributes: row.point.note?.attributes ?? [],
                    tooltip: row.point.note?.text ?? "\(row.name): \(tickLabel(row.point.y))"))
            content.append(SVGElement("g", [("class", "series"), ("data-series", row.name)], children: children))
        }
        if !notes.isEmpty { content.append(frame.legend([], notes: notes)) }
        return frame.document(
            title: title, subtitle: subtitle,
            description: "\(axisLabel) for \(rows.map(\.name).joined(separator: ", "))", content: content)
    }
}
