/// report.html: report.md's content as one page that stands alone (opened from a mail or a CI
/// artifact, with nothing beside it and no network): every chart inline, its points telling their
/// case, figure, interval and processes on hover; a click on a legend entry hides or shows that
/// series; a click on a table's header sorts by that column (numbers as numbers, "unavailable"
/// last either way). No CDN, font or image is loaded: the page's own policy forbids it.
///
/// The text is report.md's, rendered by `MarkdownHTML`, so the two never say different things;
/// a chart's image line is replaced by the chart itself, whose points carry their data
/// (`LineChart.Note`), so nothing here re-derives a figure.
struct HTMLReport {
    static let fileName = "report.html"

    /// The page for `markdown`, drawing `charts` where the Markdown shows their files as images.
    static func render(markdown: String, charts: [ReportChart]) -> String {
        let byFile = Dictionary(charts.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        var drawn = 0
        var renderer = MarkdownHTML { alt, source in
            guard let chart = byFile[source] else { return nil }
            drawn += 1
            return figure(chart, number: drawn, alt: alt)
        }
        let content = renderer.render(markdown)
        let title =
            markdown.split(separator: "\n").first { $0.hasPrefix("# ") }.map {
                MarkdownHTML.plainText(String($0.dropFirst(2)))
            } ?? "RuntimeBench report"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(contentPolicy)">
            <title>\(MarkdownHTML.escape(title))</title>
            <style>\(styleSheet)</style>
            </head>
            <body data-state="loading">
            <main>
            \(content)
            </main>
            <div id="tooltip" role="tooltip" hidden></div>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    /// Nothing from anywhere but the page itself: its own style and script, inline.
    static let contentPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

    /// The chart's SVG inside a figure. Its XML declaration goes (it is not allowed inside HTML),
    /// and the ids its title and description are labelled by get the chart's number: every chart
    /// names them alike, and an id must be unique in a page.
    static func figure(_ chart: ReportChart, number: Int, alt: String) -> String {
        var svg = Substring(chart.svg)
        if svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") { svg = svg[svg.index(after: end)...] }
        let prefix = "chart-\(number)"
        let numbered = String(svg)
            .replacing("id=\"chart-title\"", with: "id=\"\(prefix)-title\"")
            .replacing("id=\"chart-description\"", with: "id=\"\(prefix)-description\"")
            .replacing(
                "aria-labelledby=\"chart-title chart-description\"",
                with: "aria-labelledby=\"\(prefix)-title \(prefix)-description\"")
        return """
            <figure class="chart" id="\(prefix)">
            \(numbered.trimmingSuffixNewlines)
            <figcaption>\(MarkdownHTML.escape(alt)) · \
            <a href="\(MarkdownHTML.escape(chart.file))">SVG file</a></figcaption>
            </figure>
            """
    }

    static let styleSheet = """

        :root { color-scheme: light dark; --text: #1F2328; --muted: #57606A; --line: #D0D7DE; --stripe: #F6F8FA;
          --back: #FFFFFF; --link: #0969DA; }
        @media (prefers-color-scheme: dark) {
          :root { --text: #E6EDF3; --muted: #8B949E; --line: #30363D; --stripe: #161B22; --back: #0D1117;
            --link: #4493F8; }
        }
        body { margin: 0; background: var(--back); color: var(--text);
          font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif; }
        main { max-width: 1280px; margin: 0 auto; padding: 16px 24px 64px; }
        a { color: var(--link); }
        h1, h2, h3, h4 { line-height: 1.25; margin: 1.4em 0 0.5em; }
        h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
        code { font: 0.9em ui-monospace, 'DejaVu Sans Mono', monospace; background: var(--stripe); padding: 0.1em 0.3em;
          border-radius: 4px; }
        pre { background: var(--stripe); padding: 12px; overflow-x: auto; }
        pre code { background: none; padding: 0; }
        div.table { overflow-x: auto; margin: 0.8em 0; }
        table { border-collapse: collapse; font-size: 13px; }
        th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
        th.number, td.number { text-align: right; font-variant-numeric: tabular-nums; }
        tbody tr:nth-child(even) { background: var(--stripe); }
        th.sortable { cursor: pointer; user-select: none; white-space: nowrap; }
        th.sortable::after { content: ' \\2195'; color: var(--muted); }
        th[aria-sort='ascending']::after { content: ' \\2191'; color: var(--text); }
        th[aria-sort='descending']::after { content: ' \\2193'; color: var(--text); }
        figure.chart { margin: 1em 0; overflow-x: auto; }
        figure.chart svg { max-width: 100%; height: auto; }
        figure.chart figcaption { color: var(--muted); font-size: 13px; }
        figure.chart .legend-entry { cursor: pointer; }
        figure.chart .legend-entry.off { opacity: 0.35; }
        figure.chart .series-off { display: none; }
        figure.chart .point { cursor: crosshair; }
        figure.chart .point:hover, figure.chart .point:focus { stroke-width: 3; stroke: var(--text); outline: none; }
        #tooltip { position: fixed; z-index: 10; max-width: 480px; padding: 6px 10px; border-radius: 6px;
          background: var(--text); color: var(--back); font-size: 13px; pointer-events: none; }
        #tooltip .case { font-weight: 600; overflow-wrap: anywhere; }

        """

    /// The page's behaviour. It records any error in `data-errors` on <body> and sets `data-state`
    /// to "ready" when every chart and table is set up, with the points it found in `data-points`:
    /// what a headless browser's dump of the page shows (`HTMLReportTests`). With `#self-test` in
    /// the address it also toggles a series, hovers a point and sorts a table, writing what it saw
    /// to `data-self-test`, so a test checks the interactions in a real browser.
    static let script = """

        (function () {
          'use strict';
          var body = document.body;
          var errors = [];
          function record(message) {
            errors.push(String(message));
            body.setAttribute('data-errors', errors.join(' | '));
          }
          window.addEventListener('error', function (event) { record(event.message || 'error'); });
          window.addEventListener('unhandledrejection', function (event) { record(event.reason); });
          var tooltip = document.getElementById('tooltip');
          var fields = [['data-case', 'case'], ['data-figure', ''], ['data-interval', ''], ['data-processes', '']];

          function showTooltip(point, x, y) {
            tooltip.textContent = '';
            fields.forEach(function (field) {
              var value = point.getAttribute(field[0]);
              if (value === null) { return; }
              var line = document.createElement('div');
              if (field[1]) { line.className = field[1]; }
              line.textContent =
                field[0] === 'data-processes' ? value + (value === '1' ? ' process' : ' processes') : value;
              tooltip.appendChild(line);
            });
            tooltip.hidden = false;
            var left = Math.min(x + 14, window.innerWidth - tooltip.offsetWidth - 8);
            var top = y + 14 + tooltip.offsetHeight > window.innerHeight ? y - tooltip.offsetHeight - 14 : y + 14;
            tooltip.style.left = Math.max(8, left) + 'px';
            tooltip.style.top = Math.max(8, top) + 'px';
          }
          function hideTooltip() { tooltip.hidden = true; }

          function setUpChart(svg) {
            svg.querySelectorAll('.point').forEach(function (point) {
              if (point.hasAttribute('data-case')) {
                // The page's tooltip says all of it; the SVG's own title would show a second one.
                var title = point.querySelector('title');
                if (title) { title.remove(); }
              }
              point.setAttribute('tabindex', '0');
              function follow(event) { showTooltip(point, event.clientX, event.clientY); }
              point.addEventListener('mouseenter', follow);
              point.addEventListener('mousemove', follow);
              point.addEventListener('mouseleave', hideTooltip);
              point.addEventListener('focus', function () {
                var box = point.getBoundingClientRect();
                showTooltip(point, box.right, box.bottom);
              });
              point.addEventListener('blur', hideTooltip);
            });
            svg.querySelectorAll('.legend-entry').forEach(function (entry) {
              entry.setAttribute('tabindex', '0');
              entry.setAttribute('role', 'button');
              entry.setAttribute('aria-pressed', 'true');
              function toggle() {
                var name = entry.getAttribute('data-series');
                var hide = !entry.classList.contains('off');
                entry.classList.toggle('off', hide);
                entry.setAttribute('aria-pressed', hide ? 'false' : 'true');
                svg.querySelectorAll('[data-series]').forEach(function (element) {
                  if (!element.classList.contains('legend-entry') && element.getAttribute('data-series') === name) {
                    element.classList.toggle('series-off', hide);
                  }
                });
              }
              entry.addEventListener('click', toggle);
              entry.addEventListener('keydown', function (event) {
                if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); toggle(); }
              });
            });
          }

          // A cell's sort key: its number (data-value, set where the cell starts with one), else its text;
          // empty, a dash or "unavailable…" is missing and sorts last in either direction.
          function cellKey(cell) {
            var text = cell ? cell.textContent.trim() : '';
            var value = cell ? cell.getAttribute('data-value') : null;
            return {
              missing:
                text === '' || text === '\\u2014' || text === '\\u2013' || text === '-' || /^unavailable/i.test(text),
              number: value === null ? null : Number(value),
              text: text
            };
          }
          function compare(a, b, direction) {
            if (a.missing !== b.missing) { return a.missing ? 1 : -1; }
            var order;
            if (a.number !== null && b.number !== null) { order = a.number - b.number; }
            else if (a.number !== null || b.number !== null) { order = a.number !== null ? -1 : 1; }
            else { order = a.text.localeCompare(b.text, undefined, { numeric: true }); }
            return order * direction;
          }
          function setUpTable(table) {
            if (!table.tHead || !table.tBodies.length) { return; }
            var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
            headers.forEach(function (header, column) {
              header.classList.add('sortable');
              header.setAttribute('tabindex', '0');
              header.setAttribute('aria-sort', 'none');
              function sort() {
                var direction = header.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
                headers.forEach(function (other) { other.setAttribute('aria-sort', 'none'); });
                header.setAttribute('aria-sort', direction === 1 ? 'ascending' : 'descending');
                var rows = table.tBodies[0];
                var keyed = Array.prototype.slice.call(rows.rows).map(function (row, index) {
                  return { row: row, index: index, key: cellKey(row.cells[column]) };
                });
                keyed.sort(function (a, b) { return compare(a.key, b.key, direction) || a.index - b.index; });
                keyed.forEach(function (entry) { rows.appendChild(entry.row); });
              }
              header.addEventListener('click', sort);
              header.addEventListener('keydown', function (event) {
                if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); sort(); }
              });
            });
          }

          function selfTest() {
            var seen = [];
            var entry = document.querySelector('figure.chart .legend-entry');
            if (entry) {
              entry.dispatchEvent(new MouseEvent('click', { bubbles: true }));
              seen.push('hidden=' + document.querySelectorAll('figure.chart .series-off').length);
              entry.dispatchEvent(new MouseEvent('click', { bubbles: true }));
              seen.push('shown-again=' + (document.querySelectorAll('figure.chart .series-off').length === 0));
            }
            var point = document.querySelector('figure.chart .point[data-case]');
            if (point) {
              point.dispatchEvent(new MouseEvent('mouseenter', { clientX: 20, clientY: 20 }));
              seen.push('tooltip=' + (tooltip.hidden ? '' : tooltip.textContent));
              point.dispatchEvent(new MouseEvent('mouseleave', {}));
            }
            var sorted = null;
            document.querySelectorAll('table[data-sortable]').forEach(function (table) {
              if (sorted !== null) { return; }
              var headers = table.tHead.rows[0].cells;
              for (var column = 0; column < headers.length && sorted === null; column++) {
                var values = table.querySelectorAll('tbody td:nth-child(' + (column + 1) + ')[data-value]');
                if (values.length < 2) { continue; }
                headers[column].dispatchEvent(new MouseEvent('click', { bubbles: true }));
                var keys = Array.prototype.map.call(table.tBodies[0].rows, function (row) {
                  return cellKey(row.cells[column]);
                });
                sorted = keys.every(function (key, index) {
                  return index === 0 || compare(keys[index - 1], key, 1) <= 0;
                });
              }
            });
            seen.push('sorted=' + sorted);
            body.setAttribute('data-self-test', seen.join('; '));
          }

          try {
            document.querySelectorAll('figure.chart svg').forEach(setUpChart);
            document.querySelectorAll('table[data-sortable]').forEach(setUpTable);
            body.setAttribute('data-charts', String(document.querySelectorAll('figure.chart svg').length));
            body.setAttribute('data-points', String(document.querySelectorAll('figure.chart svg .point').length));
            if (window.location.hash === '#self-test') { selfTest(); }
            body.setAttribute('data-state', 'ready');
          } catch (error) {
            record(error && error.message ? error.message : error);
            body.setAttribute('data-state', 'failed');
          }
        })();

        """
}

extension String {
    fileprivate var trimmingSuffixNewlines: Substring {
        var text = Substring(self)
        while text.hasSuffix("\n") { text = text.dropLast() }
        return text
    }
}

extension HTMLReport: OutputFormat {
    /// report.md's text, as MarkdownReport renders it for this write, with the same charts.
    static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        let markdown = MarkdownReport.outputs(of: input).first { $0.path == "report.md" }?.contents ?? ""
        return [ResultsWriter.Output(path: fileName, contents: render(markdown: markdown, charts: input.charts))]
    }
}
