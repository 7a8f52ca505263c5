#if canImport(Glibc)
import Glibc
#endif

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
    /// for readers who do not tell the colours apart. Five shapes against eight colours: 5 and 8
    /// share no factor, so series `i` and `j` of one chart get the same colour and the same shape
    /// only when 40 divides `j - i`, and no chart has 40 series. (Four shapes gave series 8 the
    /// colour and shape of series 0.) `star` is none of a series' own: it marks a point drawn
    /// apart from its series' line (the automatic stride), in the series' colour.
    enum Marker: CaseIterable {
        case circle, square, diamond, triangle, triangleDown, star
        static let seriesShapes: [Marker] = [.circle, .square, .diamond, .triangle, .triangleDown]
    }

    static func marker(_ index: Int) -> Marker { Marker.seriesShapes[index % Marker.seriesShapes.count] }

    /// The class of a legend swatch or mark that belongs to no series (what a band or a shape means).
    static let neutralClass = "neutral"

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
            ".subtitle { font-size: 12px; }",
            // A band is the series' colour, faint enough that the lines and other bands show through.
            "path.band { stroke: none; fill-opacity: 0.16; }",
            "path.whisker { fill: none; stroke-width: 1.5; }",
            ".neutral { stroke: #57606A; fill: #57606A; }",
            "path.band.neutral { fill-opacity: 0.3; }",
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
            ".neutral { stroke: #8B949E; fill: #8B949E; }",
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

    /// A marker of series `index` centred on (x, y), `size` pixels across, in its shape (or
    /// `shape`), with `attributes` after its own (a point's data) and a tooltip.
    static func markerElement(
        _ index: Int, x: Double, y: Double, size: Double = 7, shape: Marker? = nil, extraClass: String? = nil,
        attributes: [(String, String)] = [], tooltip: String? = nil
    ) -> SVGElement {
        markerElement(
            colourClass: "c\(index % lightColours.count)", shape: shape ?? marker(index), x: x, y: y, size: size,
            extraClass: extraClass, attributes: attributes, tooltip: tooltip)
    }

    static func markerElement(
        colourClass: String, shape: Marker, x: Double, y: Double, size: Double = 7, extraClass: String? = nil,
        attributes: [(String, String)] = [], tooltip: String? = nil
    ) -> SVGElement {
        let r = size / 2
        let colour = [("class", colourClass + (extraClass.map { " " + $0 } ?? ""))] + attributes
        let children = tooltip.map { [SVGElement("title", text: $0)] } ?? []
        func polygon(_ points: [(Double, Double)]) -> SVGElement {
            SVGElement(
                "polygon",
                [("points", points.map { "\(coordinate($0.0)),\(coordinate($0.1))" }.joined(separator: " "))] + colour,
                children: children)
        }
        switch shape {
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
            return polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)])
        case .triangle:
            return polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)])
        case .triangleDown:
            return polygon([(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)])
        case .star:
            // Five points, larger than the series' markers, so it reads as "not one of the line's points".
            let outer = r + 3, inner = (r + 3) * 0.45
            return polygon(
                (0..<10).map { step in
                    let angle = Double(step) * Double.pi / 5 - Double.pi / 2
                    let radius = step.isMultiple(of: 2) ? outer : inner
                    return (x + radius * cos(angle), y + radius * sin(angle))
                })
        }
    }
}
