import Foundation
import Testing

@testable import Reports

/// report.html: report.md's content on one page that loads nothing, charts inline with their
/// points' data, and a script that runs without error in a real browser.
@Suite("report.html")
struct HTMLReportTests {
    static var page: String { Fixture.outputs["report.html"]! }

    @Test("stands alone: no image, script, style sheet or font is loaded, and the page's policy forbids it")
    func selfContained() throws {
        let page = Self.page
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"))
        for loaded in ["<img", "<link", " src=", "url(", "@import", "<?xml"] {
            #expect(!page.contains(loaded), "\(loaded)")
        }
    }

    @Test("every chart report.md shows is drawn inline in its place, its ids numbered apart")
    func chartsInline() throws {
        let markdown = try #require(Fixture.outputs["report.md"])
        let images = markdown.split(separator: "\n").filter { $0.hasPrefix("![") && $0.contains("(charts/") }
        #expect(images.count == 5)
        #expect(Self.page.components(separatedBy: "<figure class=\"chart\"").count - 1 == images.count)
        for number in 1...images.count {
            #expect(Self.page.contains("<svg") && Self.page.contains("id=\"chart-\(number)-title\""))
        }
        #expect(!Self.page.contains("id=\"chart-title\""))
        // The stride chart's points carry their cases.
        #expect(Self.page.contains("data-case=\"apply-stride/libdispatch/body=0ns,stride=4,iterations=1000/system\""))
    }

    @Test("the same headings, tables and rows as report.md")
    func sameContent() throws {
        let markdown = try #require(Fixture.outputs["report.md"])
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let headings = lines.filter { MarkdownHTML.headingLevel(String($0)) != nil }
        #expect(headings.count > 5)
        #expect(Self.page.matches(of: /<\/h[1-6]>/).count == headings.count)
        let delimiterRows = lines.filter { MarkdownHTML.isDelimiterRow(String($0)) }.count
        #expect(Self.page.components(separatedBy: "<table").count - 1 == delimiterRows)
        let tableRows = lines.filter { $0.hasPrefix("|") }.count - delimiterRows
        #expect(Self.page.components(separatedBy: "<tr>").count - 1 == tableRows)
        #expect(Self.page.contains("<h2 id=\"questions\">Questions</h2>"))
    }

    @Test("Markdown's subset: escaping in text, code and attributes; pipes in cells; nested lists; safe links")
    func markdown() {
        var renderer = MarkdownHTML()
        let html = renderer.render(
            """
            # A <b> & "c"

            Text with `<code> & 'x'` and **strong *inner* text** and [a link](charts/a"b.svg), \
            [bad](javascript:run) and \\*not emphasis\\*.

            - one
              - one.one
            - two

            | name | ns/op |
            | --- | ---: |
            | a \\| b | 1.2 µs |
            | <script> | unavailable: no PMU |
            """)
        #expect(html.contains("<h1 id=\"a-b--c\">A &lt;b&gt; &amp; &quot;c&quot;</h1>"))
        #expect(html.contains("<code>&lt;code&gt; &amp; &#39;x&#39;</code>"))
        #expect(html.contains("<strong>strong <em>inner</em> text</strong>"))
        #expect(html.contains("<a href=\"charts/a&quot;b.svg\">a link</a>"))
        #expect(html.contains("<a href=\"#\">bad</a>"))
        #expect(html.contains("*not emphasis*"))
        #expect(html.contains("<ul>\n<li>one\n<ul>\n<li>one.one</li>\n</ul></li>\n<li>two</li>\n</ul>"))
        #expect(html.contains("<td>a | b</td><td class=\"number\" data-value=\"1200.0\">1.2 µs</td>"))
        #expect(html.contains("<td>&lt;script&gt;</td><td class=\"number\">unavailable: no PMU</td>"))
        #expect(!html.contains("<script"))
    }

    @Test("sort keys: times in ns whatever their unit, ratios and bounds as numbers, no key for a gap")
    func sortKeys() {
        #expect(MarkdownHTML.sortKey("980") == "980.0")
        #expect(MarkdownHTML.sortKey("1.2 µs") == "1200.0")
        #expect(MarkdownHTML.sortKey("**4.86 ns**") == "4.86")
        #expect(MarkdownHTML.sortKey("9.45×") == "9.45")
        #expect(MarkdownHTML.sortKey("<0.001") == "0.001")
        #expect(MarkdownHTML.sortKey("unavailable: no PMU") == nil)
        #expect(MarkdownHTML.sortKey("—") == nil)
        #expect(MarkdownHTML.sortKey("libdispatch") == nil)
    }

    // MARK: In a browser

    /// Chromium on PATH, as Debian (`chromium`) or others (`chromium-browser`) name it.
    static let chromium: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for folder in path.split(separator: ":")
            where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// What the page's <body> says after its script ran: its attributes, from the dumped DOM.
    static func bodyAttributes(_ dom: String) throws -> [String: String] {
        let tag = try #require(dom.firstMatch(of: /<body([^>]*)>/)).1
        var attributes: [String: String] = [:]
        for match in tag.matches(of: /([a-z-]+)="([^"]*)"/) { attributes[String(match.1)] = String(match.2) }
        return attributes
    }

    @Test(
        """
        in headless Chromium: the script runs without an error, finds every point, toggles a series, shows a \
        point's data and sorts a table
        """,
        .enabled(if: chromium != nil, "no chromium or chromium-browser on PATH (tools/install-deps.sh installs it)"),
        .timeLimit(.minutes(5)))
    func inChromium() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("html-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ResultsWriter.write(Fixture.run, to: folder.path)
        let page = try String(contentsOfFile: folder.path + "/report.html", encoding: .utf8)
        let dumped = folder.appendingPathComponent("dom.html")
        _ = FileManager.default.createFile(atPath: dumped.path, contents: nil)
        let output = try FileHandle(forWritingTo: dumped)
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: Self.chromium!)
        browser.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile",
            "--dump-dom", "file://\(folder.path)/report.html#self-test",
        ]
        browser.standardOutput = output
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        // Chromium's first start takes seconds on a small machine: wait without blocking a thread,
        // for as long as the test's time limit allows.
        while browser.isRunning { try await Task.sleep(for: .milliseconds(200)) }
        try output.close()
        #expect(browser.terminationStatus == 0)
        let dom = try String(contentsOf: dumped, encoding: .utf8)
        let body = try Self.bodyAttributes(dom)
        #expect(body["data-state"] == "ready", "\(body)")
        #expect(body["data-errors"] == nil, "\(body)")
        let points = page.matches(of: /class="c\d+ point"/).count
        #expect(points > 0)
        #expect(body["data-points"] == "\(points)")
        #expect(body["data-charts"] == "5")
        let seen = body["data-self-test"] ?? ""
        #expect(seen.contains("hidden=1; shown-again=true"), "\(seen)")
        #expect(seen.contains("comparison interval") && seen.contains("2 processes"), "\(seen)")
        #expect(seen.contains("sorted=true"), "\(seen)")
    }
}
