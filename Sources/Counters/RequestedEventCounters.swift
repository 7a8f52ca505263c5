import CPerfEvent
import Results
#if canImport(Glibc)
import Glibc
#endif

/// The events a run asks for by name (`--events`): PAPI presets (PAPI_TOT_INS) or native event
/// names, counted through PAPI for every thread of the child (an inherited event set) where PAPI
/// can count them, and through `perf_event_open` otherwise when the name is one of perf's
/// (`PerfEventNames`). Every event is a value per operation or unavailable with both reasons.
/// PAPI scales a multiplexed count itself; perf's are scaled by time enabled over time running.
public final class RequestedEventCounters: CounterSource {
    public let id = "events"
    public let availability: [String: String?]
    public static let catalogue: [Metric] = []

    /// The metric a requested event is reported under: "event.PAPI_TOT_INS", "event.cycles".
    public static func metricName(_ event: String) -> String { "event." + event }

    /// The descriptions results.json carries for `events`.
    public static func metrics(for events: [String]) -> [Metric] {
        events.map { Metric(metricName($0), unit: .events, kind: .event, heading: "\($0)/op", tableColumn: true,
                            note: "requested with --events: through PAPI where it could count it, else perf_event_open") }
    }

    /// Why each name no program could count here is refused before a run (nil when all can be
    /// tried): neither a name PAPI knows nor one of perf's.
    public static func unknown(_ events: [String]) -> [String] {
        let papi = PAPILibrary.shared
        return events.compactMap { event in
            if PerfEventNames.events[event] != nil { return nil }
            switch papi {
            case .success(let library):
                guard let reason = library.knows(event) else { return nil }
                return "'\(event)': PAPI does not know it (PAPI_event_name_to_code: \(reason)), and perf has no event of that name"
            case .failure(let unavailable):
                return "'\(event)': not one of perf's event names, and PAPI cannot be asked: \(unavailable)"
            }
        }
    }

    /// The counted events in `read(into:)`'s order: PAPI's first (one read fills them), then perf's.
    private let papiEvents: [String]
    private let perfEvents: [(name: String, fd: Int32)]
    private let papi: PAPILibrary?
    private let eventSet: Int32
    private let papiValues: UnsafeMutablePointer<Int64>

    public convenience init() { self.init(events: []) }

    public init(events: [String]) {
        var availability: [String: String?] = [:]
        var papiEvents: [String] = [], perfEvents: [(String, Int32)] = []
        var papiReasons: [String: String] = [:]
        var eventSet = PAPILibrary.noEventSet
        var library: PAPILibrary?
        if !events.isEmpty {
            switch PAPILibrary.shared {
            case .failure(let unavailable):
                for event in events { papiReasons[event] = unavailable.description }
            case .success(let loaded):
                if let problem = Self.inheritedEventSet(loaded, &eventSet) {
                    for event in events { papiReasons[event] = problem }
                } else {
                    library = loaded
                    for event in events {
                        let status = loaded.addNamedEvent(eventSet, event)
                        if status == PAPILibrary.ok { papiEvents.append(event) } else { papiReasons[event] = "PAPI_add_named_event: \(loaded.describe(status))" }
                    }
                    if !papiEvents.isEmpty, case let status = loaded.start(eventSet), status != PAPILibrary.ok {
                        for event in papiEvents { papiReasons[event] = "PAPI_start: \(loaded.describe(status))" }
                        papiEvents = []
                    }
                }
            }
        }
        let paranoid = PerfEventCounters.paranoidLevel()
        let excludeKernel = geteuid() != 0 && (paranoid ?? 2) >= 2
        for event in events {
            if papiEvents.contains(event) { availability[Self.metricName(event)] = String?.none; continue }
            let viaPAPI = "PAPI: " + (papiReasons[event] ?? "not tried")
            guard let perf = PerfEventNames.events[event] else {
                availability[Self.metricName(event)] = viaPAPI + "; not one of perf's event names"
                continue
            }
            if excludeKernel && perf.kernelOnly {
                availability[Self.metricName(event)] = viaPAPI + "; perf: kernel events excluded (perf_event_paranoid \(paranoid.map(String.init) ?? "unknown"), not root)"
                continue
            }
            let fd = rb_perf_event_open(perf.type, perf.config, excludeKernel ? 1 : 0)
            if fd >= 0 {
                perfEvents.append((event, fd))
                availability[Self.metricName(event)] = String?.none
            } else {
                availability[Self.metricName(event)] = viaPAPI + "; perf: "
                    + PerfEventCounters.reason(errno: -fd, hardware: perf.type == PerfEventNames.hardware, paranoid: paranoid)
            }
        }
        self.availability = availability
        self.papiEvents = papiEvents
        self.perfEvents = perfEvents
        self.papi = library
        self.eventSet = eventSet
        papiValues = .allocate(capacity: max(1, papiEvents.count))
    }

    deinit {
        for event in perfEvents { close(event.fd) }
        papiValues.deallocate()
    }

    /// A new event set on the CPU component whose counts include every thread created after it
    /// starts (PAPI_INHERIT); nil, or why not.
    private static func inheritedEventSet(_ library: PAPILibrary, _ eventSet: inout Int32) -> String? {
        var status = library.createEventSet(&eventSet)
        guard status == PAPILibrary.ok else { return "PAPI_create_eventset: \(library.describe(status))" }
        status = library.assignComponent(eventSet, 0)
        guard status == PAPILibrary.ok else { return "PAPI_assign_eventset_component: \(library.describe(status))" }
        // PAPI_option_t is a union; its inherit member is { int eventset; int inherit; }. The
        // buffer is larger than the union, zeroed.
        let option = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 16)
        defer { option.deallocate() }
        option.initializeMemory(as: UInt8.self, repeating: 0, count: 1024)
        option.storeBytes(of: eventSet, toByteOffset: 0, as: Int32.self)
        option.storeBytes(of: PAPILibrary.inheritAll, toByteOffset: 4, as: Int32.self)
        status = library.setOption(PAPILibrary.inheritOption, option)
        return status == PAPILibrary.ok ? nil : "PAPI_set_opt(PAPI_INHERIT): \(library.describe(status)); without it only the measuring thread would count"
    }

    public var metrics: [String] { (papiEvents + perfEvents.map(\.name)).map(Self.metricName) }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        if let papi, !papiEvents.isEmpty {
            let status = papi.read(eventSet, papiValues)
            for index in papiEvents.indices { slots[index] = status == PAPILibrary.ok ? Double(papiValues[index]) : .nan }
        }
        for (offset, event) in perfEvents.enumerated() { slots[papiEvents.count + offset] = PerfEventCounters.scaledValue(event.fd) }
    }
}
