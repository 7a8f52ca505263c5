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
    public let availability: [String: Availability]
    public static let catalogue: [Metric] = []

    /// The metric a requested event is reported under: "event.PAPI_TOT_INS", "event.cycles".
    public static func metricName(_ event: String) -> String { "event." + event }

    /// The descriptions results.json carries for `events`.
    public static func metrics(for events: [String]) -> [Metric] {
        events.filter { $0 != SyscallCounters.eventName }.map {
            Metric(
                metricName($0), unit: .events, kind: .event, heading: "\($0)/op", tableColumn: true,
                note: "requested with --events: through PAPI where it could count it, else perf_event_open")
        }
    }

    /// Why each name no program could count here is refused before a run (nil when all can be
    /// tried): neither a name PAPI knows nor one of perf's.
    public static func unknown(_ events: [String]) -> [String] {
        if events.contains(where: SoftwareDefinedEvents.isSoftwareDefined) { _ = SoftwareDefinedEvents.registration }
        let papi = PAPILibrary.shared
        return events.compactMap { event in
            if PerfEventNames.events[event] != nil || event == SyscallCounters.eventName { return nil }
            switch papi {
            case .success(let library):
                guard let reason = library.knows(event) else { return nil }
                return "'\(event)': PAPI does not know it (PAPI_event_name_to_code: \(reason)), "
                    + "and perf has no event of that name"
            case .failure(let unavailable):
                return "'\(event)': not one of perf's event names, and PAPI cannot be asked: \(unavailable)"
            }
        }
    }

    /// A PAPI event set and the events added to it, in the order PAPI_read writes them.
    private struct PAPISet {
        let id: Int32
        let events: [String]
        let values: UnsafeMutablePointer<Int64>
    }

    /// The counted events in `read(into:)`'s order: each PAPI set's (one read fills them), then perf's.
    private let papiSets: [PAPISet]
    private let perfEvents: [(name: String, fd: Int32)]
    private let papi: PAPILibrary?

    public convenience init() { self.init(events: []) }

    public init(events: [String]) {
        var availability: [String: Availability] = [:]
        var reasons: [String: String] = [:]
        var sets: [PAPISet] = []
        var library: PAPILibrary?
        // Our runtime events, offered to PAPI: registered before PAPI is first asked.
        let softwareDefined = events.filter(SoftwareDefinedEvents.isSoftwareDefined)
        if !softwareDefined.isEmpty, let problem = SoftwareDefinedEvents.registration {
            for event in softwareDefined { reasons[event] = problem }
        }
        if !events.isEmpty {
            switch PAPILibrary.shared {
            case .failure(let unavailable):
                for event in events where reasons[event] == nil { reasons[event] = unavailable.description }
            case .success(let loaded):
                library = loaded
                // Software-defined events are the process's own totals: their set needs no
                // inheritance. Every other event counts every thread only in an inherited set.
                let hardware = events.filter { !SoftwareDefinedEvents.isSoftwareDefined($0) }
                let software = softwareDefined.filter { reasons[$0] == nil }
                for (names, inherited) in [(hardware, true), (software, false)] where !names.isEmpty {
                    if let set = Self.openSet(loaded, names, inherited: inherited, reasons: &reasons) {
                        sets.append(set)
                    }
                }
            }
        }
        let counted = Set(sets.flatMap(\.events))
        var perfEvents: [(String, Int32)] = []
        let paranoid = PerfEventCounters.paranoidLevel()
        let excludeKernel = PerfEventCounters.excludesKernel(paranoid: paranoid)
        for event in events {
            if counted.contains(event) { availability[Self.metricName(event)] = .available; continue }
            let viaPAPI = "PAPI: " + (reasons[event] ?? "not tried")
            guard let perf = PerfEventNames.events[event] else {
                availability[Self.metricName(event)] = .unavailable(reason: viaPAPI + "; not one of perf's event names")
                continue
            }
            if excludeKernel && perf.kernelOnly {
                availability[Self.metricName(event)] = .unavailable(
                    reason: viaPAPI + "; perf: kernel events excluded "
                        + "(perf_event_paranoid \(paranoid.map(String.init) ?? "unknown"), not root)")
                continue
            }
            let fd = rb_perf_event_open(perf.type, perf.config, excludeKernel ? 1 : 0)
            if fd >= 0 {
                perfEvents.append((event, fd))
                availability[Self.metricName(event)] = .available
            } else {
                availability[Self.metricName(event)] = .unavailable(
                    reason: viaPAPI + "; perf: "
                        + PerfEventCounters.reason(
                            errno: -fd, hardware: perf.type == PerfEventNames.hardware, paranoid: paranoid))
            }
        }
        self.availability = availability
        self.papiSets = sets
        self.perfEvents = perfEvents
        self.papi = library
    }

    deinit {
        for event in perfEvents { close(event.fd) }
        for set in papiSets { set.values.deallocate() }
    }

    /// A started event set of `names` (those PAPI could add), or nil with each name's reason.
    private static func openSet(
        _ library: PAPILibrary, _ names: [String], inherited: Bool, reasons: inout [String: String]
    ) -> PAPISet? {
        var id = PAPILibrary.noEventSet
        if let problem = newEventSet(library, &id, inherited: inherited) {
            for name in names { reasons[name] = problem }
            return nil
        }
        var added: [String] = []
        for name in names {
            let status = library.addNamedEvent(id, name)
            if status == PAPILibrary.ok {
                added.append(name)
            } else {
                reasons[name] = "PAPI_add_named_event: \(library.describe(status))"
            }
        }
        guard !added.isEmpty else { return nil }
        let status = library.start(id)
        guard status == PAPILibrary.ok else {
            for name in added { reasons[name] = "PAPI_start: \(library.describe(status))" }
            return nil
        }
        return PAPISet(id: id, events: added, values: .allocate(capacity: added.count))
    }

    /// A new event set on the CPU component, inherited by every thread created after it starts
    /// when `inherited` (PAPI_INHERIT); nil, or why not.
    private static func newEventSet(_ library: PAPILibrary, _ eventSet: inout Int32, inherited: Bool) -> String? {
        var status = library.createEventSet(&eventSet)
        guard status == PAPILibrary.ok else { return "PAPI_create_eventset: \(library.describe(status))" }
        guard inherited else { return nil }
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
        return status == PAPILibrary.ok
            ? nil
            : "PAPI_set_opt(PAPI_INHERIT): \(library.describe(status)); "
                + "without it only the measuring thread would count"
    }

    public var metrics: [String] { (papiSets.flatMap(\.events) + perfEvents.map(\.name)).map(Self.metricName) }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        var slot = 0
        if let papi {
            for set in papiSets {
                let status = papi.read(set.id, set.values)
                for index in set.events.indices {
                    slots[slot] = status == PAPILibrary.ok ? Double(set.values[index]) : .nan
                    slot += 1
                }
            }
        }
        for event in perfEvents {
            slots[slot] = PerfEventCounters.scaledValue(event.fd)
            slot += 1
        }
    }
}
