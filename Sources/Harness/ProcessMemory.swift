import Results
#if canImport(Glibc)
import Glibc
#endif

/// The process's memory as the kernel counts it (/proc/self/statm): its virtual size (every
/// mapping, e.g. a thread's whole reserved stack) and its resident set (pages actually touched).
public struct ProcessMemory: Sendable {
    public let virtualBytes: Int
    public let residentBytes: Int

    /// Now, or nil when /proc/self/statm cannot be read (not Linux, or /proc not mounted).
    public static func now() -> ProcessMemory? {
        guard let file = fopen("/proc/self/statm", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        // "size resident shared text lib data dt", in pages.
        let pages = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard pages.count >= 2 else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return ProcessMemory(virtualBytes: pages[0] * page, residentBytes: pages[1] * page)
    }
}
