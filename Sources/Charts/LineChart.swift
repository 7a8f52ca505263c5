/// Lines through measured points, one per series, on linear or logarithmic axes: a stride
/// curve (ns per iteration against stride, one line per backend) or a scaling curve (ns per
/// section against threads, one line per guard). A series may be a horizontal reference (the
/// serial loop a parallel loop must beat), drawn dotted across the plot.
///
/// A point may carry an interval, drawn as a translucent band in its series' colour from each
/// point's lower to its upper bound (a whisker where the series has one point), and a note: what
/// it is (the case), its figure, its interval and how many processes it rests on, as its tooltip
/// and as `data-` attributes for a page that shows them on hover.
public struct LineChart: Sendable {
    /// One point of a series, in data units.
    public struct Point: Sendable {
        public let x: Double
        public let y: Double
        /// The band's extent at this point; nil, or bounds that are not finite (or not positive on
        /// a logarithmic axis): no band here.
        public let interval: (lower: Double, upper: Double)?
        public let note: Note?

        public init(x: Double, y: Double, interval: (lower: Double, upper: Double)? = nil, note: Note? = nil) {
            self.x = x
            self.y = y
            self.interval = interval
            self.note = note
        }
    }

    /// The data behind a point, as the caller words it (this module knows nothing of results).
    public struct Note: Sendable {
        /// What was measured: "spawn/libdispatch/pattern=outside".
        public let subject: String
        /// The figure with its unit: "280 ns per task".
        public let figure: String
        /// The interval with what it is: "comparison interval 270–291 ns"; nil: none.
        public let interval: String?
        /// Processes the figure rests on; nil: not known.
        public let processes: Int?

        public init(subject: String, figure: String, interval: String? = nil, processes: Int? = nil) {
            self.subject = subject
            self.figure = figure
            self.interval = interval
            self.processes = processes
        }

        /// One line, for an SVG `<title>`.
        var text: String {
            "\(subject): \(figure)" + (interval.map { "; \($0)" } ?? "")
                + (processes.map { "; \($0) process\($0 == 1 ? "" : "es")" } ?? "")
        }

        var attributes: [(String, String)] {
            [("data-case", subject), ("data-figure", figure)] + (interval.map { [("data-interval", $0)] } ?? [])
                + (processes.map { [("data-processes", "\($0)")] } ?? [])
        }
    }

    public struct Series: Sendable {
        public let name: String
        /// In drawing order.
        public let points: [Point]
        /// Points of this series drawn apart from its line, in its colour with the chart's
        /// `separateShape` (the automatic stride, wherever it landed): one legend entry explains
        /// the shape for every series, instead of a series of one point per backend.
        public let separatePoints: [Point]
        /// A constant drawn across the whole plot instead of points.
        public let reference: Double?

        public init(name: String, points: [(x: Double, y: Double)]) {
            self.init(name: name, points: points.map { Point(x: $0.x, y: $0.y) })
        }

        public init(name: String, points: [Point], separatePoints: [Point] = []) {
            self.name = name
            self.points = points
            self.separatePoints = separatePoints
            reference = nil
        }

        public init(name: String, reference: Double) {
            self.name = name
            points = []
            separatePoints = []
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
    /// A line under the title: what holds for every point ("system allocator").
    public let subtitle: String?
    public let x: Axis
    public let y: Axis
    public let series: [Series]
    /// The legend's word for the bands, e.g. "band: comparison interval (95%)"; shown when some point has one.
    public let bandLegend: String?
    /// The legend's word for the separate points' shape, e.g. "automatic stride (at the stride it chose)".
    public let separateLegend: String?

    public init(
        title: String, subtitle: String? = nil, x: Axis, y: Axis, series: [Series], bandLegend: String? = nil,
        separateLegend: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.x = x
        self.y = y
        self.series = series
        self.bandLegend = bandLegend
        self.separateLegend = separateLegend
    }

    /// The shape of every series' separate points: a shape no series has as its own.
    static let separateShape = ChartStyle.Marker.star

    /// The interval of `point` if it can be drawn on a `scale` axis.
    private func drawable(_ point: Point) -> (lower: Double, upper: Double)? {
        guard let interval = point.interval, interval.lower.isFinite, interval.upper.isFinite,
            interval.lower <= interval.upper, y.scale == .linear || interval.lower > 0
        else { return nil }
        return interval
    }

    /// The chart as a standalone SVG document.
    /// - Precondition: at least one series has a point; log axes only see positive values.
    public func svg() -> String {
        let allPoints = series.flatMap { $0.points + $0.separatePoints }
        let xValues = allPoints.map(\.x) + (x.ticks ?? []).map(\.0)
        let yValues =
            allPoints.flatMap { point in [point.y] + (drawable(point).map { [$0.lower, $0.upper] } ?? []) }
            + series.compactMap(\.reference)
        precondition(!xValues.isEmpty && !yValues.isEmpty, "a line chart needs at least one point")
        var notes: [ChartFrame.Note] = []
        if let bandLegend, allPoints.contains(where: { drawable($0) != nil }) { notes.append(.band(bandLegend)) }
        if let separateLegend, series.contains(where: { !$0.separatePoints.isEmpty }) {
            notes.append(.shape(Self.separateShape, separateLegend))
        }
        let provisionalY = Scale(y.scale, covering: yValues, pixels: 0...1, inverted: true)
        let yTicks = y.ticks ?? provisionalY.ticks().map { ($0, tickLabel($0)) }
        let frame = ChartFrame(
            title: title, subtitle: subtitle, legend: series.map(\.name) + notes.map(\.text),
            leftLabelCharacters: yTicks.map(\.1.count).max() ?? 3)
        let xScale = Scale(x.scale, covering: xValues, pixels: frame.left...frame.right, inverted: false)
        let yScale = Scale(y.scale, covering: yValues, pixels: frame.top...frame.bottom, inverted: true)
        let xTicks = x.ticks ?? xScale.ticks().map { ($0, tickLabel($0)) }

        var content = [
            frame.xAxis(xScale, ticks: xTicks, label: x.label), frame.yAxis(yScale, ticks: yTicks, label: y.label),
        ]
        func marker(_ index: Int, _ point: Point, shape: ChartStyle.Marker? = nil, name: String) -> SVGElement {
            ChartStyle.markerElement(
                index, x: xScale.position(point.x), y: yScale.position(point.y), size: shape == nil ? 7 : 9,
                shape: shape, extraClass: "point", attributes: point.note?.attributes ?? [],
                tooltip: point.note?.text ?? "\(name): \(tickLabel(point.x)) → \(tickLabel(point.y))")
        }
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
                children += bands(index, one.points, xScale, yScale)
                children += one.separatePoints.flatMap { whisker(index, $0, xScale, yScale) }
                let path = one.points.enumerated().map { step, point in
                    (step == 0 ? "M" : "L") + coordinate(xScale.position(point.x)) + ","
                        + coordinate(yScale.position(point.y))
                }.joined()
                if !path.isEmpty {
                    children.append(
                        SVGElement("path", [("class", ChartStyle.seriesClass(index, "line")), ("d", path)]))
                }
                children += one.points.map { marker(index, $0, name: one.name) }
                children += one.separatePoints.map { marker(index, $0, shape: Self.separateShape, name: one.name) }
            }
            content.append(SVGElement("g", [("class", "series"), ("data-series", one.name)], children: children))
        }
        content.append(
            frame.legend(series.map { ($0.name, $0.reference == nil ? .line : .reference) }, notes: notes))
        return frame.document(
            title: title, subtitle: subtitle,
            description: "\(y.label) against \(x.label); series: \(series.map(\.name).joined(separator: ", "))",
            content: content)
    }

    /// The series' band: one closed path per run of consecutive points with a drawable interval
    /// (upper bounds left to right, lower bounds back); a run of one point is a whisker.
    private func bands(_ index: Int, _ points: [Point], _ xScale: Scale, _ yScale: Scale) -> [SVGElement] {
        var runs: [[(x: Double, lower: Double, upper: Double)]] = [[]]
        for point in points {
            if let interval = drawable(point) {
                runs[runs.count - 1].append((xScale.position(point.x), interval.lower, interval.upper))
            } else if !runs[runs.count - 1].isEmpty {
                runs.append([])
            }
        }
        return runs.flatMap { run -> [SVGElement] in
            guard run.count >= 2 else {
                return run.flatMap { one in
                    whisker(index, Point(x: 0, y: 0, interval: (one.lower, one.upper)), xScale, yScale, atPixel: one.x)
                }
            }
            let upper = run.enumerated().map { step, one in
                (step == 0 ? "M" : "L") + coordinate(one.x) + "," + coordinate(yScale.position(one.upper))
            }
            let lower = run.reversed().map { "L" + coordinate($0.x) + "," + coordinate(yScale.position($0.lower)) }
            return [
                SVGElement(
                    "path",
                    [
                        ("class", "band c\(index % ChartStyle.lightColours.count)"),
                        ("d", (upper + lower).joined() + "Z"),
                    ])
            ]
        }
    }

    /// A vertical bar over one point's interval, with short caps: a band one point wide.
    private func whisker(_ index: Int, _ point: Point, _ xScale: Scale, _ yScale: Scale, atPixel: Double? = nil)
        -> [SVGElement]
    {
        guard let interval = drawable(point) else { return [] }
        let x = atPixel ?? xScale.position(point.x)
        let low = yScale.position(interval.lower), high = yScale.position(interval.upper)
        let d =
            "M\(coordinate(x)),\(coordinate(low))V\(coordinate(high))"
            + "M\(coordinate(x - 4)),\(coordinate(low))h8M\(coordinate(x - 4)),\(coordinate(high))h8"
        return [SVGElement("path", [("class", "whisker c\(index % ChartStyle.lightColours.count)"), ("d", d)])]
    }
}
