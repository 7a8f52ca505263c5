#if canImport(Glibc)
import Glibc
#endif

/// Where libjemalloc.so.2 is, for LD_PRELOAD in a child. Debian's libjemalloc2 puts it in the
/// multiarch library directory; the others cover other layouts.
public enum JemallocLibrary {
    public static let candidates = [
        "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
        "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
        "/usr/lib64/libjemalloc.so.2",
        "/usr/lib/libjemalloc.so.2",
        "/usr/local/lib/libjemalloc.so.2",
    ]

    /// The first candidate that exists and is readable, or nil.
    public static func locate() -> String? {
        candidates.first { access($0, R_OK) == 0 }
    }
}
