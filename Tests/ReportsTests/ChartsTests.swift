import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Charts
import Reports
import Testing

/// Each chart parses as XML, has its title, axis labels with units, its series and a legend that
/// names them, and a background of its own.
@Suite("SVG charts")
struct ChartsTests {
    /// What a parse of an SVG found: every element's name, `data-series` values of series groups
    /// and legend entries, and every text node by its element's class.
    final class Reading: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var series: [String] = []
        var legend: [String] = []
        var texts: [(className: String, text: String)] = []
        private var classes: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append(name)
            classes.append(attributes["class"] ?? "")
            text = ""
            if name == "g", let value = attributes["data-series"] {
                if attributes["class"] == "series" {
                    series.append(value)
                } else if attributes["class"] == "legend-entry" {
                    legend.append(value)
                }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let className = classes.removeLast()
            if name == "text" { texts.append((className, text)) }
            text = ""
        }

        func text(_ className: String) -> [String] { texts.filter { $0.className == className }.map(\.text) }
    }

    static func parse(_ svg: String) throws -> Reading {
        let parser = XMLParser(data: Data(svg.utf8))
        let reading = Reading()
        parser.delegate = reading
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        return reading
    }

    static var outputs: [String: String] { Fixture.outputs }

    @Test(
        """
        stride curve: one line per backend, the automatic stride a star in its backend's colour where it chose \
        (when it says), the serial loop, log axes labelled with units, the allocator under the title
        """)
    func strideCurve() throws {
        let svg = try #require(Self.outputs["charts/stride-body-0ns-iterations-1000.svg"])
        let reading = try Self.parse(svg)
        #expect(reading.series == ["libdispatch", "work-stealing", "serial loop"])
        #expect(reading.legend == reading.series)
        #expect(reading.text("subtitle") == ["system allocator"])
        // Notes after the series: what the band is and what the star is, neither a series of its own.
        #expect(
            reading.texts.suffix(2).map(\.text) == [
                "band: comparison interval (95%)", "automatic stride, at the stride it chose",
            ])
        // Two fixed strides per backend and work-stealing's automatic one, each with its case.
        #expect(svg.components(separatedBy: "data-case=\"apply-stride/").count - 1 == 5)
        #expect(svg.contains("data-case=\"apply-stride/work-stealing/body=0ns,stride=auto,iterations=1000/system\""))
        #expect(
            reading.text("axis-label") == [
                "stride: iterations per block (log scale)", "ns per iteration, median (log scale)",
            ])
        #expect(reading.text("title") == ["apply-stride, body=0ns, iterations=1000: ns per iteration by stride"])
        #expect(reading.elements.contains("style") && reading.elements[0] == "svg")
        // Ticks of a log axis fall on 1-2-5 values: strides 1 and 4 span 1 to 5.
        #expect(reading.text("tick").prefix(3) == ["1", "2", "5"])
    }

    @Test("thread scaling: x ticks are thread counts (2 per CPU resolved), one line per guard")
    func scaling() throws {
        let reading = try Self.parse(
            try #require(Self.outputs["charts/scaling-resource-counter-critical-0ns-outside-0ns-libdispatch.svg"]))
        #expect(reading.series == ["pthread-mutex", "libdispatch · queue-sync"])
        #expect(reading.text("tick").prefix(2) == ["1", "4 (2 per CPU)"])
        #expect(
            reading.text("axis-label") == [
                "contending threads (this machine: 2 CPUs)", "ns per critical section, median (log scale)",
            ])
    }

    @Test("hand-off latency: a row per semaphore, p50 and p99 in the legend")
    func percentiles() throws {
        let reading = try Self.parse(try #require(Self.outputs["charts/semaphore-pattern-pingpong-handoff-ns.svg"]))
        #expect(reading.series == ["libdispatch", "posix"])
        #expect(reading.legend == ["p50", "p99"])
        #expect(reading.text("row-label") == ["libdispatch", "posix"])
        #expect(reading.text("axis-label").first?.hasPrefix("handoff_ns, ns (log scale") == true)
    }

    @Test("a first-screen answer drawn: a row per measured contender, best first, each with its band")
    func questionChart() throws {
        let svg = try #require(
            Self.outputs.first { $0.key.hasPrefix("charts/question-what-does-an-empty-task-cost-on-each--submitted") }?
                .value, "\(Self.outputs.keys.sorted())")
        let reading = try Self.parse(svg)
        // The crashed swift-concurrency case has no figure: no row.
        #expect(reading.text("row-label") == ["work-stealing", "pthread-mutex", "libdispatch"])
        #expect(reading.text("title") == ["What does an empty task cost on each runtime?"])
        #expect(reading.text("subtitle") == ["submitted from outside the pool, run and counted; system allocator"])
        #expect(svg.components(separatedBy: "class=\"band c0\"").count - 1 == 3)
        #expect(svg.contains("data-case=\"spawn/libdispatch/pattern=outside/system\""))
        #expect(reading.text("axis-label") == ["ns per operation, median (log scale)"])
    }

    @Test("every chart draws its own background and follows a dark colour scheme")
    func colourSchemes() throws {
        let charts = Self.outputs.filter { $0.key.hasPrefix("charts/") }
        #expect(charts.count == 5, "\(charts.keys.sorted())")
        for (path, svg) in charts {
            _ = try Self.parse(svg)
            #expect(svg.contains("class=\"background\" fill=\"#FFFFFF\""), "\(path)")
            #expect(svg.contains("@media (prefers-color-scheme: dark)"), "\(path)")
        }
    }

    @Test("every point carries its case, figure, comparison interval and processes; the band spans the interval")
    func pointData() throws {
        let svg = try #require(
            Self.outputs["charts/scaling-resource-counter-critical-0ns-outside-0ns-libdispatch.svg"])
        // pthread-mutex at 1 thread: 15 ns constant in both processes.
        #expect(svg.contains("data-case=\"queue-vs-lock/none/guard=pthread-mutex,threads=1,"))
        #expect(svg.contains("data-figure=\"15 ns per critical section\""))
        #expect(svg.contains("data-interval=\"comparison interval "))
        #expect(svg.contains("data-processes=\"2\""))
        // One band per series with two or more points, in that series' colour.
        #expect(svg.components(separatedBy: "class=\"band c0\"").count - 1 == 1)
        #expect(svg.components(separatedBy: "class=\"band c1\"").count - 1 == 1)
    }

    @Test("series stay apart by colour and marker shape, 13 of them as a full stride chart has")
    func distinctSeries() throws {
        // Every series at the same points, so two markers are drawn alike exactly when their shapes are:
        // with 4 shapes and 8 colours, series 8 was series 0's twin.
        let series = (0..<13).map { LineChart.Series(name: "s\($0)", points: [(1, 1), (2, 2)]) }
        let svg = LineChart(
            title: "t", x: .init(label: "x", scale: .linear), y: .init(label: "y", scale: .linear), series: series
        ).svg()
        var looks: Set<String> = []
        for index in 0..<13 {
            let group = try #require(svg.range(of: "data-series=\"s\(index)\">"))
            let marker = try #require(svg[group.upperBound...].firstMatch(of: /<(\w+ [^>]*)class="(c\d+) point"/))
            looks.insert("\(marker.1) \(marker.2)")
        }
        #expect(looks.count == 13)
    }

    @Test("text is escaped: a series named with markup stays text")
    func escaping() throws {
        let chart = LineChart(
            title: "a < b & \"c\"", x: .init(label: "x", scale: .linear), y: .init(label: "y", scale: .linear),
            series: [.init(name: "<script>", points: [(1, 1), (2, 3)])])
        let reading = try Self.parse(chart.svg())
        #expect(reading.series == ["<script>"])
        #expect(reading.text("title") == ["a < b & \"c\""])
        #expect(!reading.elements.contains("script"))
    }
}
