#if canImport(Glibc)
import Glibc
#endif

/// Where the interposer library is, for LD_PRELOAD in a child: SwiftPM builds the
/// `RuntimeBenchInterposer` product into the same directory as `bench`.
public enum InterposerLibrary {
    public static let fileName = "libRuntimeBenchInterposer.so"

    /// The library beside `executable`, or why there is none.
    public static func locate(besides executable: String) -> Result<String, Missing> {
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let path = (directory.isEmpty ? "." : directory) + "/" + fileName
        return access(path, R_OK) == 0 ? .success(path) : .failure(Missing(path: path))
    }

    /// Why there is no interposer to preload: the library is not built, or (the CLI says) the
    /// build is sanitized.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }

        init(path: String) {
            description =
                "\(path) is not built (it is built with the package: `swift build`, "
                + "or `swift build -c release --product RuntimeBenchInterposer` beside a release bench)"
        }
    }
}
