/// What every chart shares: the canvas, the plot area, the title, axes with their ticks, grid and
/// labels (units included, by the caller), and the legend. Sizes are estimated from text length
/// (about 7 px per character at 12 px), since nothing here can measure a font.
struct ChartFrame {
    static let characterWidth = 7.0
    static let legendRowHeight = 20.0

    let width: Double
    let height: Double
    let left: Double
    /// Below the title, and the subtitle when there is one.
    let top: Double
    let right: Double
    let bottom: Double

    /// - Parameters:
    ///   - title: the chart's title (the canvas is at least as wide).
    ///   - subtitle: a line under the title (what holds for every point: the allocator).
    ///   - legend: the legend's entries (they set its width; the plot takes what is left).
    ///   - leftLabels: the longest text left of the plot (tick labels or row names).
    ///   - rows: the plot's height grows with this many category rows (0: a fixed height).
    init(title: String, subtitle: String? = nil, legend: [String], leftLabelCharacters: Int, rows: Int = 0) {
        top = subtitle == nil ? 48 : 64
        let legendWidth = legend.isEmpty ? 0 : Double(legend.map(\.count).max()!) * Self.characterWidth + 44
        left = max(72, Double(leftLabelCharacters) * Self.characterWidth + 40)
        // The title (15 px, bold: about 9 px a character) and the subtitle must fit on one line each.
        width = max(
            720, left + 460 + legendWidth, left + Double(title.count) * 9 + 24,
            left + Double(subtitle?.count ?? 0) * Self.characterWidth + 24)
        right = width - legendWidth - 24
        let legendHeight = Double(legend.count) * Self.legendRowHeight + top + 60
        let plotHeight = rows > 0 ? Double(rows) * 30 + 20 : 320
        height = max(plotHeight + top + 60, legendHeight)
        bottom = height - 60
    }

    /// The vertical centre of category row `index` of `count`, top to bottom.
    func rowCentre(_ index: Int, of count: Int) -> Double {
        top + (bottom - top) / Double(max(count, 1)) * (Double(index) + 0.5)
    }

    /// A category row's name, right-aligned left of the plot at height `y`.
    func rowLabel(_ name: String, y: Double) -> SVGElement {
        SVGElement(
            "text",
            [("class", "row-label"), ("x", coordinate(left - 10)), ("y", coordinate(y + 4)), ("text-anchor", "end")],
            text: name)
    }

    /// The whole document: style, background, title, then `content` (axes, series, legend).
    func document(title: String, subtitle: String? = nil, description: String, content: [SVGElement]) -> String {
        let root = SVGElement(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", coordinate(width)), ("height", coordinate(height)),
                ("viewBox", "0 0 \(coordinate(width)) \(coordinate(height))"), ("role", "img"),
                ("aria-labelledby", "chart-title chart-description"),
            ],
            children: [
                SVGElement("title", [("id", "chart-title")], text: title),
                SVGElement("desc", [("id", "chart-description")], text: description),
                SVGElement("style", text: ChartStyle.styleSheet),
                SVGElement(
                    "rect",
                    [
                        ("class", "background"), ("fill", "#FFFFFF"), ("x", "0"), ("y", "0"), ("width", "100%"),
                        ("height", "100%"),
                    ]),
                SVGElement("text", [("class", "title"), ("x", coordinate(left)), ("y", "28")], text: title),
            ]
                + (subtitle.map {
                    [SVGElement("text", [("class", "subtitle"), ("x", coordinate(left)), ("y", "48")], text: $0)]
                }
                    ?? []) + content)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root.render() + "\n"
    }

    /// The horizontal axis: a line along the bottom, a tick, grid line and label per value, and
    /// the axis's label (what and in which unit) centred below.
    func xAxis(_ scale: Scale, ticks: [(Double, String)], label: String) -> SVGElement {
        var children = [
            SVGElement(
                "path", [("class", "axis"), ("d", "M\(coordinate(left)),\(coordinate(bottom))H\(coordinate(right))")])
        ]
        for (value, text) in ticks {
            let x = coordinate(scale.position(value))
            children.append(
                SVGElement("path", [("class", "grid"), ("d", "M\(x),\(coordinate(top))V\(coordinate(bottom))")]))
            children.append(SVGElement("path", [("class", "axis"), ("d", "M\(x),\(coordinate(bottom))v5")]))
            children.append(
                SVGElement(
                    "text", [("class", "tick"), ("x", x), ("y", coordinate(bottom + 18)), ("text-anchor", "middle")],
                    text: text))
        }
        children.append(
            SVGElement(
                "text",
                [
                    ("class", "axis-label"), ("x", coordinate((left + right) / 2)), ("y", coordinate(bottom + 42)),
                    ("text-anchor", "middle"),
                ], text: label))
        return SVGElement("g", [("class", "x-axis")], children: children)
    }

    /// The vertical axis: as `xAxis`, with its label turned to read bottom to top.
    func yAxis(_ scale: Scale, ticks: [(Double, String)], label: String) -> SVGElement {
        var children = [
            SVGElement(
                "path", [("class", "axis"), ("d", "M\(coordinate(left)),\(coordinate(top))V\(coordinate(bottom))")])
        ]
        for (value, text) in ticks {
            let y = coordinate(scale.position(value))
            children.append(
                SVGElement("path", [("class", "grid"), ("d", "M\(coordinate(left)),\(y)H\(coordinate(right))")]))
            children.append(SVGElement("path", [("class", "axis"), ("d", "M\(coordinate(left)),\(y)h-5")]))
            children.append(
                SVGElement(
                    "text",
                    [
                        ("class", "tick"), ("x", coordinate(left - 8)), ("y", coordinate(scale.position(value) + 4)),
                        ("text-anchor", "end"),
                    ], text: text))
        }
        let middle = coordinate((top + bottom) / 2)
        children.append(
            SVGElement(
                "text",
                [
                    ("class", "axis-label"), ("x", "18"), ("y", middle), ("text-anchor", "middle"),
                    ("transform", "rotate(-90 18 \(middle))"),
                ], text: label))
        return SVGElement("g", [("class", "y-axis")], children: children)
    }

    /// How a legend entry's swatch is drawn: as its series is.
    enum Swatch { case marker, line, reference }

    /// A legend entry that explains a way of drawing rather than naming a series: what a band
    /// spans, what a marker shape means. Drawn in a neutral grey, and not a series to toggle.
    enum Note {
        case band(String)
        case shape(ChartStyle.Marker, String)

        var text: String {
            switch self {
            case .band(let text), .shape(_, let text): text
            }
        }
    }

    /// The legend, right of the plot: one row per entry, its swatch, and its name; then the notes.
    func legend(_ entries: [(name: String, swatch: Swatch)], notes: [Note] = []) -> SVGElement {
        let x = right + 24
        let rows = entries.enumerated().map { index, entry -> SVGElement in
            let (name, kind) = entry
            let y = top + 8 + Double(index) * Self.legendRowHeight
            var swatch: [SVGElement] = []
            if kind != .marker {
                swatch.append(
                    SVGElement(
                        "path",
                        [
                            ("class", ChartStyle.seriesClass(index, "line") + (kind == .reference ? " reference" : "")),
                            ("d", "M\(coordinate(x)),\(coordinate(y))h24"),
                        ]))
            }
            if kind != .reference { swatch.append(ChartStyle.markerElement(index, x: x + 12, y: y)) }
            return SVGElement(
                "g", [("class", "legend-entry"), ("data-series", name)],
                children: swatch + [
                    SVGElement("text", [("x", coordinate(x + 32)), ("y", coordinate(y + 4))], text: name)
                ])
        }
        let explained = notes.enumerated().map { offset, note -> SVGElement in
            let y = top + 8 + Double(entries.count + offset) * Self.legendRowHeight
            let swatch: SVGElement
            switch note {
            case .band:
                swatch = SVGElement(
                    "path",
                    [
                        ("class", "band \(ChartStyle.neutralClass)"),
                        ("d", "M\(coordinate(x)),\(coordinate(y - 6))h24v12h-24Z"),
                    ])
            case .shape(let shape, _):
                swatch = ChartStyle.markerElement(colourClass: ChartStyle.neutralClass, shape: shape, x: x + 12, y: y)
            }
            return SVGElement(
                "g", [("class", "legend-note")],
                children: [
                    swatch, SVGElement("text", [("x", coordinate(x + 32)), ("y", coordinate(y + 4))], text: note.text),
                ])
        }
        return SVGElement("g", [("class", "legend")], children: rows + explained)
    }
}
