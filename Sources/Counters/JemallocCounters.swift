#if canImport(Glibc)
import Glibc
#endif

import Results

/// jemalloc's own statistics through `mallctl`, found with `dlsym`: present only when the child
/// runs with jemalloc preloaded (the `jemalloc` allocator) or linked.
///
/// Accuracy: `thread.allocated` is exact but covers the calling (measuring) thread only; the
/// arena request count (`small.nmalloc + large.nmalloc` over all arenas) covers every thread but
/// counts thread-cache refills, not single allocations, while threads cache, so it is a lower
/// bound that arrives in batches.
public final class JemallocCounters: CounterSource {
    public let id = "jemalloc"
    public let availability: [String: Availability]

    typealias Mallctl =
        @convention(c) (
            UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
            UnsafeMutableRawPointer?, Int
        ) -> Int32
    private let mallctl: Mallctl?
    /// Control names as C strings made once: building them per read would allocate, and be counted.
    private let threadAllocated = Array("thread.allocated".utf8CString)
    private let smallRequests = Array("stats.arenas.\(JemallocCounters.allArenas).small.nmalloc".utf8CString)
    private let largeRequests = Array("stats.arenas.\(JemallocCounters.allArenas).large.nmalloc".utf8CString)
    private let epochName = Array("epoch".utf8CString)

    /// jemalloc's MALLCTL_ARENAS_ALL: the arena index that sums every arena.
    static let allArenas = 4096
    /// In the order `read(into:)` writes them. Both are counts that do not depend on timing.
    public static let catalogue = [
        Metric(
            "jemalloc.thread-allocated-bytes", unit: .bytes, kind: .count, heading: "bytes allocated/op",
            tableColumn: true),
        Metric("jemalloc.arena-requests", unit: .allocations, kind: .count, heading: "arena requests/op"),
    ]
    static let names = catalogue.map(\.name)

    public init() {
        if let sanitizer = sanitizerReplacingMalloc() {
            // A sanitized build routes malloc to the sanitizer's allocator: a preloaded jemalloc is
            // loaded but never called, and would read 0 bytes per operation.
            mallctl = nil
            availability = Dictionary(
                uniqueKeysWithValues: Self.names.map {
                    (
                        $0,
                        .unavailable(
                            reason: "\(sanitizer) replaces malloc in this build, so jemalloc never sees the allocations"
                        )
                    )
                })
        } else if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") {  // RTLD_DEFAULT
            mallctl = unsafeBitCast(symbol, to: Mallctl.self)
            availability = Dictionary(uniqueKeysWithValues: Self.names.map { ($0, .available) })
        } else {
            mallctl = nil
            availability = Dictionary(
                uniqueKeysWithValues: Self.names.map {
                    (
                        $0,
                        .unavailable(
                            reason: "jemalloc not preloaded (run with --allocator jemalloc"
                                + (JemallocLibrary.locate() == nil ? "; tools/install-deps.sh installs it)" : ")"))
                    )
                })
        }
    }

    public var metrics: [String] { mallctl == nil ? [] : Self.names }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        guard mallctl != nil else { return }
        refreshEpoch()
        // Same order as `names`.
        // a numeric conversion, not `Double.init`, which can resolve to init(bitPattern:)
        slots[0] = value(threadAllocated).map { Double($0) } ?? .nan
        if let small = value(smallRequests), let large = value(largeRequests) {
            slots[1] = Double(small + large)
        } else {
            slots[1] = .nan
        }
    }

    /// Statistics are a snapshot taken at the last epoch change: advance it before reading.
    private func refreshEpoch() {
        var current: UInt64 = 0
        var next: UInt64 = 1
        var size = MemoryLayout<UInt64>.size
        _ = epochName.withUnsafeBufferPointer { mallctl?($0.baseAddress!, &current, &size, &next, size) }
    }

    /// A 64-bit statistic (jemalloc's uint64_t counters), or nil when jemalloc refuses the name
    /// (e.g. built without statistics).
    private func value(_ name: [CChar]) -> UInt64? {
        var result: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        let rc = name.withUnsafeBufferPointer { mallctl?($0.baseAddress!, &result, &size, nil, 0) }
        return rc == 0 ? result : nil
    }
}

/// The sanitizer whose allocator replaces malloc in this process, or nil. TSan and ASan intercept
/// malloc themselves, so LD_PRELOAD of another allocator has no effect on the program's own calls.
public func sanitizerReplacingMalloc() -> String? {
    let rtldDefault = UnsafeMutableRawPointer(bitPattern: 0)
    if dlsym(rtldDefault, "__tsan_init") != nil { return "ThreadSanitizer" }
    if dlsym(rtldDefault, "__asan_init") != nil { return "AddressSanitizer" }
    return nil
}
