/// A node of an SVG document: an element with attributes in the order given (so output is
/// byte-for-byte stable between runs), children, and optional text. Just enough XML to draw
/// charts without a dependency; text and attribute values are always escaped.
public struct SVGElement: Sendable, Equatable {
    public let name: String
    public var attributes: [(String, String)]
    public var children: [SVGElement]
    public var text: String?

    public init(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil, children: [SVGElement] = [])
    {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    public static func == (lhs: SVGElement, rhs: SVGElement) -> Bool {
        lhs.render() == rhs.render()
    }

    /// The element as XML, children indented by one space per level.
    public func render(indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        let attributeText = attributes.map { " \($0.0)=\"\(Self.escape($0.1))\"" }.joined()
        if children.isEmpty && text == nil { return "\(pad)<\(name)\(attributeText)/>" }
        if children.isEmpty { return "\(pad)<\(name)\(attributeText)>\(Self.escape(text!))</\(name)>" }
        var lines = ["\(pad)<\(name)\(attributeText)>"]
        if let text { lines.append(pad + " " + Self.escape(text)) }
        lines += children.map { $0.render(indent: indent + 1) }
        lines.append("\(pad)</\(name)>")
        return lines.joined(separator: "\n")
    }

    /// Escapes the five special characters (quotes too, for attribute values), for XML and HTML
    /// alike: the apostrophe as `&#39;`, which HTML 4 lacks a name for.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// A coordinate as SVG wants it: at most two decimals, no trailing zeros.
func coordinate(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
}
