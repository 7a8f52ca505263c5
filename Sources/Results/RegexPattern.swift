/// A user's regular expression (`--filter`, a thresholds file's `case`), checked before it is
/// compiled. Swift's regex parser recurses once per nested group or class: 5,000 nested '['
/// overflowed the main thread's 8 MB stack and crashed `bench` (found by the malformed-files
/// test). A filter needs neither a thousand characters nor a hundred levels.
public enum RegexPattern {
    public static let maximumLength = 1_000
    public static let maximumNesting = 100

    /// Why `pattern` is refused before compiling, or nil.
    public static func problem(with pattern: String) -> String? {
        if pattern.count > maximumLength {
            return "is \(pattern.count) characters long; at most \(maximumLength) are accepted"
        }
        var depth = 0, deepest = 0, escaped = false
        for character in pattern {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "(", "[", "{": depth += 1; deepest = max(deepest, depth)
            case ")", "]", "}": depth = max(0, depth - 1)
            default: break
            }
        }
        return deepest > maximumNesting
            ? "nests groups or classes \(deepest) deep; at most \(maximumNesting) are accepted" : nil
    }

    /// `text` as a message shows it: whole when short, else its start and its length.
    public static func shown(_ text: String, limit: Int = 80) -> String {
        text.count <= limit ? text : "\(text.prefix(limit))… (\(text.count) characters)"
    }
}
