#if canImport(Glibc)
import Glibc
#endif

import Results

/// Allocations, retains and releases on every thread, counted by the interposer a child preloads
/// when a run asks (`--count-allocations`): Sources/CInterposer, found here with `dlsym` so that
/// nothing links it. Exact, per thread, summed at read time; what it cannot see is in the notes.
public final class InterposerCounters: CounterSource {
    public let id = "interposer"
    public let availability: [String: Availability]

    typealias Version = @convention(c) () -> UInt32
    typealias Read = @convention(c) (UnsafeMutablePointer<UInt64>) -> Void
    private let reader: Read?
    /// The interposer's totals, written by each read; allocated once, so reading never allocates.
    private let totals = UnsafeMutablePointer<UInt64>.allocate(capacity: InterposerCounters.catalogue.count)

    /// The interface version this reader knows (CInterposer.h's RB_INTERPOSER_VERSION).
    static let interfaceVersion: UInt32 = 1
    static let callsNote =
        "every thread's calls, counted by the interposer --count-allocations preloads; "
        + "that run's timings include its cost (Sources/CInterposer/README.md)"
    static let swiftNote =
        "calls into libswiftCore from other code (the suite, the backends, Concurrency, Dispatch); "
        + "libswiftCore's own code calls these without passing the interposer, so stdlib internals are not counted"

    /// In the order the interposer writes them (CInterposer.h's RB_COUNT_*).
    public static let catalogue = [
        Metric(
            "alloc.mallocs", unit: .allocations, kind: .count, heading: "mallocs/op", tableColumn: true, note: callsNote
        ),
        Metric("alloc.frees", unit: .allocations, kind: .count, heading: "frees/op", note: callsNote),
        Metric("alloc.bytes", unit: .bytes, kind: .count, heading: "bytes requested/op", note: callsNote),
        Metric("swift.retains", unit: .events, kind: .count, heading: "retains/op", tableColumn: true, note: swiftNote),
        Metric("swift.releases", unit: .events, kind: .count, heading: "releases/op", note: swiftNote),
        Metric(
            "swift.objects", unit: .allocations, kind: .count, heading: "objects/op", tableColumn: true, note: swiftNote
        ),
    ]
    static let names = catalogue.map(\.name)

    public init() {
        let rtldDefault = UnsafeMutableRawPointer(bitPattern: 0)
        let reason: String?
        if let sanitizer = sanitizerReplacingMalloc() {
            reader = nil
            reason = "\(sanitizer) replaces malloc in this build, so the interposer is not preloaded"
        } else if let version = dlsym(rtldDefault, "rb_interposer_version"),
            let read = dlsym(rtldDefault, "rb_interposer_read")
        {
            let found = unsafeBitCast(version, to: Version.self)()
            if found == Self.interfaceVersion {
                reader = unsafeBitCast(read, to: Read.self)
                reason = nil
            } else {
                reader = nil
                reason =
                    "the preloaded interposer speaks version \(found), "
                    + "this bench reads \(Self.interfaceVersion) (rebuild both)"
            }
        } else {
            reader = nil
            reason = "not counted (run with --count-allocations)"
        }
        availability = Dictionary(
            uniqueKeysWithValues: Self.names.map { ($0, Availability(unavailableBecause: reason)) })
    }

    deinit { totals.deallocate() }

    public var metrics: [String] { reader == nil ? [] : Self.names }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        guard let reader else { return }
        reader(totals)
        for slot in slots.indices { slots[slot] = Double(totals[slot]) }
    }
}
