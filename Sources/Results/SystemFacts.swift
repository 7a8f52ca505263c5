#if canImport(Glibc)
import Glibc
#endif

/// Small readers of /proc and /sys, each returning nil when the file is absent or unreadable,
/// so callers can say "unavailable: <why>" instead of guessing.
public enum SystemFacts {
    /// The whole text of a small file, or nil.
    public static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }

    /// The first line of a file, trimmed, or nil.
    public static func firstLine(_ path: String) -> String? {
        read(path)?.split(whereSeparator: \.isNewline).first.map { String($0).trimmed }
    }

    /// The value of the first `key : value` line in /proc/cpuinfo.
    public static func cpuinfo(_ key: String) -> String? {
        read("/proc/cpuinfo")?.split(whereSeparator: \.isNewline).lazy
            .map { $0.split(separator: ":", maxSplits: 1) }
            .first { $0.count == 2 && $0[0].trimmed == key }
            .map { $0[1].trimmed }
    }
}

extension StringProtocol {
    public var trimmed: String { String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
}
