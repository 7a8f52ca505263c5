#if canImport(Glibc)
import Glibc
#endif

/// What SwiftPM built beside the running test bundle (bench, the probes, the interposer, the
/// stand-in libpapi): every product and executable goes into one directory.
public enum BuiltProducts {
    public static let directory: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let testBinary = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(testBinary[..<(testBinary.lastIndex(of: "/") ?? testBinary.endIndex)])
    }()

    /// The path of the product or executable `name` in that directory.
    public static func path(_ name: String) -> String { directory + "/" + name }
}
