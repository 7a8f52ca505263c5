#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit

/// A point on CLOCK_MONOTONIC, the clock `PThreadCondition` waits on.
public struct MonotonicInstant: Sendable, Comparable {
    public let nanoseconds: Int64

    public static var now: MonotonicInstant {
        var spec = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// `now + duration`, saturating instead of overflowing for huge timeouts.
    public static func after(_ duration: Duration) -> MonotonicInstant {
        let sum = now.nanoseconds.addingReportingOverflow(duration.nanosecondsSaturating)
        return MonotonicInstant(nanoseconds: sum.overflow ? Int64.max : sum.partialValue)
    }

    var absoluteTime: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
}
