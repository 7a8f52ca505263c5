/// How every chart looks: one style sheet that follows the viewer's colour scheme
/// (`prefers-color-scheme`), drawn over an explicit background rectangle, so a chart never
/// inherits a page's background: dark text on white in a light viewer, light text on near-black
/// in a dark one. The background also carries a white fill attribute, which the style sheet
/// overrides, for renderers that ignore CSS.
enum ChartStyle {
    /// Series colours, light scheme: Okabe–Ito's colour-blind-safe set without its yellow and
    /// black, which vanish on white and on black backgrounds respectively.
    static let lightColours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F5F00", "#5D5D5D"]
    /// The same hues lifted for a dark background.
    static let darkColours = ["#5AB0F0", "#FF8A4C", "#3CD3A4", "#F0A6D2", "#FFC247", "#9AD7FA", "#D9B860", "#B8B8B8"]

    /// Marker shapes, cycled alongside the colours so series stay apart in grey-scale print and
    /// for readers who do not tell the colours apart.
    enum Marker: CaseIterable { case circle, square, diamond, triangle }

    static func marker(_ index: Int) -> Marker { Marker.allCases[index % Marker.allCases.count] }

    /// Beyond the palette, series repeat colours with a dashed line.
    static func dashed(_ index: Int) -> Bool { index >= lightColours.count }

    static var styleSheet: String {
        var rules = [
            "svg { color-scheme: light dark; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, "
                + "'DejaVu Sans', sans-serif; }",
            ".background { fill: #FFFFFF; }",
            "text { fill: #1F2328; font-size: 12px; }",
            ".title { font-size: 15px; font-weight: 600; }",
            ".axis-label { font-size: 13px; }",
            ".axis { stroke: #57606A; stroke-width: 1; fill: none; }",
            ".grid { stroke: #D0D7DE; stroke-width: 1; fill: none; }",
            ".range { stroke-width: 3; stroke-linecap: round; }",
            ".line { fill: none; stroke-width: 2; }",
            ".dashed { stroke-dasharray: 6 4; }",
            ".reference { stroke-dasharray: 2 3; }",
        ]
        rules += lightColours.indices.map {
            ".c\($0) { stroke: \(lightColours[$0]); fill: \(lightColours[$0]); } "
                + ".line.c\($0), .range.c\($0) { fill: none; }"
        }
        var dark = [
            ".background { fill: #0D1117; }",
            "text { fill: #E6EDF3; }",
            ".axis { stroke: #8B949E; }",
            ".grid { stroke: #30363D; }",
        ]
        dark += darkColours.indices.map {
            ".c\($0) { stroke: \(darkColours[$0]); fill: \(darkColours[$0]); } "
                + ".line.c\($0), .range.c\($0) { fill: none; }"
        }
        rules.append("@media (prefers-color-scheme: dark) {\n" + dark.map { "  " + $0 }.joined(separator: "\n") + "\n}")
        return "\n" + rules.joined(separator: "\n") + "\n"
    }

    /// The class list of series `index`: its colour, and a dash when colours have run out.
    static func seriesClass(_ index: Int, _ base: String) -> String {
        "\(base) c\(index % lightColours.count)" + (dashed(index) ? " dashed" : "")
    }

    /// A marker of series `index` centred on (x, y), `size` pixels across.
    static func markerElement(_ index: Int, x: Double, y: Double, size: Double = 7, tooltip: String? = nil)
        -> SVGElement
    {
        let r = size / 2
        let colour = [("class", "c\(index % lightColours.count)")]
        let children = tooltip.map { [SVGElement("title", text: $0)] } ?? []
        switch marker(index) {
        case .circle:
            return SVGElement(
                "circle", [("cx", coordinate(x)), ("cy", coordinate(y)), ("r", coordinate(r))] + colour,
                children: children)
        case .square:
            return SVGElement(
                "rect",
                [
                    ("x", coordinate(x - r)), ("y", coordinate(y - r)), ("width", coordinate(size)),
                    ("height", coordinate(size)),
                ] + colour,
                children: children)
        case .diamond:
            let points = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
            return SVGElement(
                "polygon",
                [("points", points.map { "\(coordinate($0.0)),\(coordinate($0.1))" }.joined(separator: " "))] + colour,
                children: children)
        case .triangle:
            let points = [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)]
            return SVGElement(
                "polygon",
                [("points", points.map { "\(coordinate($0.0)),\(coordinate($0.1))" }.joined(separator: " "))] + colour,
                children: children)
        }
    }
}
