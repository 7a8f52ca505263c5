/// Lines through measured points, one per series, on linear or logarithmic axes: a stride
/// curve (ns per iteration against stride, one line per backend) or a scaling curve (ns per
/// section against threads, one line per guard). A series may be a horizontal reference (the
/// serial loop a parallel loop must beat), drawn dotted across the plot.
public struct LineChart: Sendable {
    public struct Series: Sendable {
        public let name: String
        /// (x, y) in data units, in drawing order.
        public let points: [(x: Double, y: Double)]
        /// A constant drawn across the whole plot instead of points.
        public let reference: Double?

        public init(name: String, points: [(x: Double, y: Double)]) {
            self.name = name
            self.points = points
            reference = nil
        }

        public init(name: String, reference: Double) {
            self.name = name
            points = []
            self.reference = reference
        }
    }

    public struct Axis: Sendable {
        /// What is plotted and in which unit, e.g. "ns per iteration (log scale)".
        public let label: String
        public let scale: Scale.Kind
        /// Ticks at these values with these labels instead of the scale's own (categories such
        /// as thread counts, whose last one reads "4 (2 per CPU)").
        public let ticks: [(Double, String)]?

        public init(label: String, scale: Scale.Kind, ticks: [(Double, String)]? = nil) {
            self.label = label
            self.scale = scale
            self.ticks = ticks
        }
    }

    public let title: String
    public let x: Axis
    public let y: Axis
    public let series: [Series]

    public init(title: String, x: Axis, y: Axis, series: [Series]) {
        self.title = title
        self.x = x
        self.y = y
        self.series = series
    }

    /// The chart as a standalone SVG document.
    /// - Precondition: at least one series has a point; log axes only see positive values.
    public func svg() -> String {
        let xValues = series.flatMap { $0.points.map(\.x) } + (x.ticks ?? []).map(\.0)
        let yValues = series.flatMap { $0.points.map(\.y) + ($0.reference.map { [$0] } ?? []) }
        precondition(!xValues.isEmpty && !yValues.isEmpty, "a line chart needs at least one point")
        let provisionalY = Scale(y.scale, covering: yValues, pixels: 0...1, inverted: true)
        let yTicks = y.ticks ?? provisionalY.ticks().map { ($0, tickLabel($0)) }
        let frame = ChartFrame(
            title: title, legend: series.map(\.name), leftLabelCharacters: yTicks.map(\.1.count).max() ?? 3)
        let xScale = Scale(x.scale, covering: xValues, pixels: frame.left...frame.right, inverted: false)
        let yScale = Scale(y.scale, covering: yValues, pixels: frame.top...frame.bottom, inverted: true)
        let xTicks = x.ticks ?? xScale.ticks().map { ($0, tickLabel($0)) }

        var content = [
            frame.xAxis(xScale, ticks: xTicks, label: x.label), frame.yAxis(yScale, ticks: yTicks, label: y.label),
        ]
        for (index, one) in series.enumerated() {
            var children: [SVGElement] = []
            if let level = one.reference {
                let at = coordinate(yScale.position(level))
                children.append(
                    SVGElement(
                        "path",
                        [
                            ("class", ChartStyle.seriesClass(index, "line") + " reference"),
                            ("d", "M\(coordinate(frame.left)),\(at)H\(coordinate(frame.right))"),
                        ],
                        children: [SVGElement("title", text: "\(one.name): \(tickLabel(level))")]))
            } else {
                let path = one.points.enumerated().map { step, point in
                    (step == 0 ? "M" : "L") + coordinate(xScale.position(point.x)) + ","
                        + coordinate(yScale.position(point.y))
                }.joined()
                children.append(SVGElement("path", [("class", ChartStyle.seriesClass(index, "line")), ("d", path)]))
                children += one.points.map { point in
                    ChartStyle.markerElement(
                        index, x: xScale.position(point.x), y: yScale.position(point.y),
                        tooltip: "\(one.name): \(tickLabel(point.x)) → \(tickLabel(point.y))")
                }
            }
            content.append(SVGElement("g", [("class", "series"), ("data-series", one.name)], children: children))
        }
        content.append(frame.legend(series.map { ($0.name, $0.reference == nil ? .line : .reference) }))
        return frame.document(
            title: title,
            description: "\(y.label) against \(x.label); series: \(series.map(\.name).joined(separator: ", "))",
            content: content)
    }
}
