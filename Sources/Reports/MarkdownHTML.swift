import Charts

/// The Markdown that report.md is written in, as HTML: ATX headings (with GitHub's anchors, which
/// report.md's own links use), paragraphs, nested `-` lists, pipe tables with their alignment,
/// fenced code blocks, code spans, `**strong**`, `*emphasis*`, links, and images, which the caller
/// may replace (report.html draws a chart in place of its SVG file). Only this subset: report.md
/// is generated here, so nothing else occurs, and anything unrecognised is kept as escaped text.
/// Every piece of text is escaped for its context (element text or a quoted attribute).
struct MarkdownHTML {
    /// The HTML for an image (`alt`, `source`), or nil to link to the file instead of loading it.
    var image: (_ alt: String, _ source: String) -> String? = { _, _ in nil }
    /// Per table, whether its header cells sort their columns (report.html's script reads the mark).
    var sortableTables = true

    private var anchors: [String: Int] = [:]

    init(image: @escaping (_ alt: String, _ source: String) -> String? = { _, _ in nil }) {
        self.image = image
    }

    /// `markdown` as a sequence of block elements.
    mutating func render(_ markdown: String) -> String {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var html: [String] = []
        var index = 0
        var paragraph: [String] = []
        func closeParagraph() {
            if !paragraph.isEmpty { html.append("<p>" + inline(paragraph.joined(separator: "\n")) + "</p>") }
            paragraph = []
        }
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmedSpaces
            if trimmed.isEmpty {
                closeParagraph()
                index += 1
            } else if let level = Self.headingLevel(line) {
                closeParagraph()
                let text = String(line.dropFirst(level)).trimmedSpaces
                html.append("<h\(level) id=\"\(Self.escape(anchor(text)))\">\(inline(text))</h\(level)>")
                index += 1
            } else if trimmed.hasPrefix("```") {
                closeParagraph()
                var code: [String] = []
                index += 1
                while index < lines.count, !lines[index].trimmedSpaces.hasPrefix("```") {
                    code.append(lines[index])
                    index += 1
                }
                index += 1
                html.append("<pre><code>" + Self.escape(code.joined(separator: "\n")) + "</code></pre>")
            } else if trimmed.hasPrefix("|"), index + 1 < lines.count, Self.isDelimiterRow(lines[index + 1]) {
                closeParagraph()
                var rows: [String] = []
                var next = index + 2
                while next < lines.count, lines[next].trimmedSpaces.hasPrefix("|") {
                    rows.append(lines[next])
                    next += 1
                }
                html.append(table(header: line, delimiter: lines[index + 1], rows: rows))
                index = next
            } else if Self.listItem(line) != nil {
                closeParagraph()
                var items: [(depth: Int, text: String)] = []
                while index < lines.count, let item = Self.listItem(lines[index]) {
                    items.append(item)
                    index += 1
                }
                html.append(list(items))
            } else if let (alt, source) = Self.wholeLineImage(trimmed) {
                closeParagraph()
                html.append(image(alt, source) ?? "<p>" + inline(trimmed) + "</p>")
                index += 1
            } else {
                paragraph.append(trimmed)
                index += 1
            }
        }
        closeParagraph()
        return html.joined(separator: "\n")
    }

    // MARK: Blocks

    static func headingLevel(_ line: String) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return hashes
    }

    /// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as
    /// `-`; a repeated one gets `-1`, `-2`.
    mutating func anchor(_ heading: String) -> String {
        let plain = Self.plainText(heading).lowercased()
        let slug = String(
            plain.compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_"
                    ? character : nil
            })
        let seen = anchors[slug, default: 0]
        anchors[slug] = seen + 1
        return seen == 0 ? slug : "\(slug)-\(seen)"
    }

    /// `- item` at two spaces per level of nesting: its depth and text.
    static func listItem(_ line: String) -> (depth: Int, text: String)? {
        let indent = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indent)
        guard rest.hasPrefix("- ") || rest.hasPrefix("* ") else { return nil }
        return (indent / 2, String(rest.dropFirst(2)))
    }

    /// Nested lists from items in order; an item deeper than the one before opens a list inside it.
    func list(_ items: [(depth: Int, text: String)]) -> String {
        var html = ""
        var open: [Int] = []  // depths of the open lists
        for item in items {
            if open.isEmpty {
                html += "<ul>\n<li>"
                open.append(item.depth)
            } else if item.depth > open.last! {
                html += "\n<ul>\n<li>"
                open.append(item.depth)
            } else {
                while open.count > 1, item.depth < open.last! {
                    html += "</li>\n</ul>"
                    open.removeLast()
                }
                html += "</li>\n<li>"
            }
            html += inline(item.text)
        }
        html += String(repeating: "</li>\n</ul>", count: open.count)
        return html
    }

    static func isDelimiterRow(_ line: String) -> Bool {
        let cells = splitRow(line)
        return !cells.isEmpty
            && cells.allSatisfy { cell in
                let core = cell.trimmedSpaces
                return !core.isEmpty && core.allSatisfy { $0 == "-" || $0 == ":" } && core.contains("-")
            }
    }

    /// A row's cells: split at `|` not escaped as `\|`, the outer pipes dropped; escapes kept for `inline`.
    static func splitRow(_ line: String) -> [String] {
        var body = Substring(line.trimmedSpaces)
        if body.hasPrefix("|") { body = body.dropFirst() }
        if body.hasSuffix("|") && !body.hasSuffix("\\|") { body = body.dropLast() }
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in body {
            if escaped {
                cell += "\\" + String(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell.trimmedSpaces)
                cell = ""
            } else {
                cell.append(character)
            }
        }
        if escaped { cell += "\\" }
        cells.append(cell.trimmedSpaces)
        return cells
    }

    func table(header: String, delimiter: String, rows: [String]) -> String {
        let alignments = Self.splitRow(delimiter).map { $0.trimmedSpaces.hasSuffix(":") }
        func align(_ column: Int) -> String {
            column < alignments.count && alignments[column] ? " class=\"number\"" : ""
        }
        var html = "<div class=\"table\"><table\(sortableTables ? " data-sortable=\"true\"" : "")>\n<thead><tr>"
        for (column, cell) in Self.splitRow(header).enumerated() {
            html += "<th\(align(column)) scope=\"col\">\(inline(cell))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr>"
            for (column, cell) in Self.splitRow(row).enumerated() {
                let key = Self.sortKey(cell).map { " data-value=\"\($0)\"" } ?? ""
                html += "<td\(align(column))\(key)>\(inline(cell))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table></div>"
    }

    /// A cell's number for sorting, or nil when it does not start with one ("unavailable: …",
    /// "—", a name). Times in µs, ms and s are turned into ns, so "980 ns" sorts before "1.2 µs";
    /// "k" and "M" multiply; "<0.001" sorts as 0.001.
    static func sortKey(_ cell: String) -> String? {
        var text = Substring(plainText(cell).trimmedSpaces)
        while let first = text.first, "<>≤≥~≈+".contains(first) { text = text.dropFirst() }
        var number = ""
        for character in text {
            guard character.isASCII, character.isNumber || character == "." || (number.isEmpty && character == "-")
            else { break }
            number.append(character)
        }
        guard var value = Double(number) else { return nil }
        let unit = text.dropFirst(number.count).trimmedSpaces
        let factors: [(String, Double)] = [("µs", 1e3), ("ms", 1e6), ("ns", 1), ("s", 1e9), ("k", 1e3), ("M", 1e6)]
        if let factor = factors.first(where: { unit.hasPrefix($0.0) && !unit.hasPrefix($0.0 + "y") })?.1 {
            value *= factor
        }
        return "\(value)"
    }

    /// A line that is one image and nothing else: `![alt](source)`.
    static func wholeLineImage(_ line: String) -> (String, String)? {
        guard line.hasPrefix("!["), line.hasSuffix(")"), let middle = line.firstRange(of: "]("),
            !line[middle.upperBound...].dropLast().contains(")")
        else { return nil }
        return (
            String(line[line.index(line.startIndex, offsetBy: 2)..<middle.lowerBound]),
            String(line[middle.upperBound...].dropLast())
        )
    }

    // MARK: Inline

    /// Text with its inline markup as HTML, everything else escaped.
    func inline(_ text: String) -> String {
        let characters = Array(text)
        var html = ""
        var index = 0
        func find(_ pattern: String, from start: Int) -> Int? {
            let target = Array(pattern)
            guard !target.isEmpty, start + target.count <= characters.count else { return nil }
            var at = start
            while at + target.count <= characters.count {
                if characters[at] == "\\" {
                    at += 2
                    continue
                }
                if Array(characters[at..<at + target.count]) == target { return at }
                at += 1
            }
            return nil
        }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character == "\\", let next, next.isASCII, next.isPunctuation || next.isSymbol {
                html += Self.escape(String(next))
                index += 2
            } else if character == "`" {
                let run = characters[index...].prefix { $0 == "`" }.count
                let fence = String(repeating: "`", count: run)
                // A code span ends at the same run of backticks; escapes do not apply inside it.
                var end: Int?
                var at = index + run
                while at + run <= characters.count {
                    if String(characters[at..<at + run]) == fence { end = at; break }
                    at += 1
                }
                if let end {
                    html += "<code>" + Self.escape(String(characters[(index + run)..<end])) + "</code>"
                    index = end + run
                } else {
                    html += Self.escape(fence)
                    index += run
                }
            } else if character == "!", next == "[", let (alt, source, end) = link(characters, from: index + 1) {
                // An image inside text: a link to the file, never loaded (report.html stands alone).
                html += "<a href=\"\(Self.escape(Self.safeHref(source)))\">\(Self.escape(alt))</a>"
                index = end
            } else if character == "[", let (label, target, end) = link(characters, from: index) {
                html += "<a href=\"\(Self.escape(Self.safeHref(target)))\">\(inline(label))</a>"
                index = end
            } else if character == "*", next == "*", let end = find("**", from: index + 2), end > index + 2 {
                html += "<strong>" + inline(String(characters[(index + 2)..<end])) + "</strong>"
                index = end + 2
            } else if character == "*", let next, next != " ", let end = find("*", from: index + 1), end > index + 1 {
                html += "<em>" + inline(String(characters[(index + 1)..<end])) + "</em>"
                index = end + 1
            } else if character == "\n" {
                html += "\n"
                index += 1
            } else {
                html += Self.escape(String(character))
                index += 1
            }
        }
        return html
    }

    /// `[label](target)` starting at `start`: the label, the target and the index after it.
    private func link(_ characters: [Character], from start: Int) -> (String, String, Int)? {
        guard characters[start] == "[" else { return nil }
        var depth = 0
        var at = start
        var close: Int?
        while at < characters.count {
            switch characters[at] {
            case "\\": at += 1
            case "`":
                // A bracket inside a code span is not the label's end.
                let rest = characters[(at + 1)...]
                if let end = rest.firstIndex(of: "`") { at = end }
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { close = at }
            default: break
            }
            if close != nil { break }
            at += 1
        }
        guard let close, close + 1 < characters.count, characters[close + 1] == "(",
            let end = characters[(close + 2)...].firstIndex(of: ")")
        else { return nil }
        return (String(characters[(start + 1)..<close]), String(characters[(close + 2)..<end]), end + 1)
    }

    /// A link target kept only when it cannot run script: a relative path, an anchor, http(s) or mailto.
    static func safeHref(_ target: String) -> String {
        let lower = target.lowercased().trimmedSpaces
        guard let colon = lower.firstIndex(of: ":"), !lower[..<colon].contains("/") else { return target }
        let scheme = lower[..<colon]
        return ["http", "https", "mailto"].contains(scheme) ? target : "#"
    }

    /// The text a reader sees in `markdown` (markup and escapes removed): for anchors and sort keys.
    static func plainText(_ markdown: String) -> String {
        var text = ""
        var escaped = false
        for character in markdown {
            if escaped {
                text.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character != "*" && character != "`" {
                text.append(character)
            }
        }
        return text
    }

    /// Escaped for HTML element text and for a double- or single-quoted attribute value alike.
    static func escape(_ text: String) -> String { SVGElement.escape(text) }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end (report.md has no other blanks).
    fileprivate var trimmedSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
