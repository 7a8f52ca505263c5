#if canImport(Glibc)
import Glibc
#endif

/// Whether PAPI can count hardware events here, and PAPI's own reason when it cannot. PAPI is
/// loaded with `dlopen` (never linked, so the build needs nothing), initialised with the version
/// constant of the library actually loaded, and asked about its perf_event component.
///
/// Hardware counts themselves come from `perf_event_open` (PerfEventCounters), which PAPI's
/// perf_event component wraps; the probe tells a user whether PAPI-based tools would work too.
public struct PAPIProbe: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case notInstalled(String)
        case failed(String)
        /// A cycle counter could be added to an event set: hardware events are countable.
        case ready(version: String)
        /// PAPI loads but its perf_event component is disabled; the string is PAPI's reason.
        case componentDisabled(String)
        /// The component is enabled (PAPI 7 enables it even without a PMU, since software events
        /// work) but PAPI_TOT_CYC cannot be added; the string is PAPI's error.
        case noHardwareEvents(String)
    }

    public let state: State

    /// Sonames to try, newest first, with the major/minor version each one implies.
    static let libraries: [(soname: String, major: Int32, minor: Int32)] = [
        ("libpapi.so.7.1", 7, 1), ("libpapi.so.7.0", 7, 0), ("libpapi.so.7", 7, 0),
    ]
    /// Offsets in PAPI_component_info_t (papi.h): name[128], short_name[64], description[128],
    /// version[64], support_version[64], kernel_version[64], then disabled_reason[1024], then
    /// `int disabled`. The char arrays make the layout fixed across PAPI 5 to 7.
    static let disabledReasonOffset = 128 + 64 + 128 + 64 + 64 + 64
    static let disabledReasonLength = 1024
    static let disabledOffset = disabledReasonOffset + disabledReasonLength

    public init() {
        state = Self.probe()
    }

    public var summary: String {
        switch state {
        case .notInstalled(let why): "unavailable: PAPI not installed (\(why))"
        case .failed(let why): "unavailable: \(why)"
        case .ready(let version): "available (PAPI \(version), perf_event component enabled)"
        case .componentDisabled(let why): "unavailable: PAPI's perf_event component is disabled: \(why)"
        case .noHardwareEvents(let why):
            "unavailable: PAPI loads, but cannot count cycles (PAPI_add_event(PAPI_TOT_CYC): \(why)): no PMU"
        }
    }

    private static func probe() -> State {
        guard
            let (handle, major, minor) = libraries.lazy.compactMap({ entry in
                dlopen(entry.soname, RTLD_NOW | RTLD_LOCAL).map { ($0, entry.major, entry.minor) }
            }).first
        else {
            return .notInstalled(
                "none of \(libraries.map(\.soname).joined(separator: ", ")) could be loaded; "
                    + "tools/install-deps.sh installs libpapi-dev")
        }
        typealias LibraryInit = @convention(c) (Int32) -> Int32
        typealias ComponentCount = @convention(c) () -> Int32
        typealias ComponentInfo = @convention(c) (Int32) -> UnsafeRawPointer?
        typealias ComponentIndex = @convention(c) (UnsafePointer<CChar>) -> Int32
        guard let initSymbol = dlsym(handle, "PAPI_library_init"),
            let infoSymbol = dlsym(handle, "PAPI_get_component_info"),
            let indexSymbol = dlsym(handle, "PAPI_get_component_index")
        else {
            return .failed("libpapi lacks PAPI_library_init / PAPI_get_component_info")
        }
        // PAPI_VER_CURRENT = (major << 24) | (minor << 16); on success init returns it back.
        let wanted = (major << 24) | (minor << 16)
        let got = unsafeBitCast(initSymbol, to: LibraryInit.self)(wanted)
        guard got == wanted else {
            return .failed("PAPI_library_init(\(String(wanted, radix: 16))) returned \(got)")
        }
        let component = unsafeBitCast(indexSymbol, to: ComponentIndex.self)("perf_event")
        guard component >= 0, let info = unsafeBitCast(infoSymbol, to: ComponentInfo.self)(component) else {
            return .componentDisabled("PAPI has no perf_event component")
        }
        let disabled = info.load(fromByteOffset: disabledOffset, as: Int32.self)
        guard disabled != 0 else { return tryCycles(handle, version: "\(major).\(minor)") }
        let reasonBytes = UnsafeRawBufferPointer(start: info + disabledReasonOffset, count: disabledReasonLength)
        let reason = String(decoding: reasonBytes.prefix { $0 != 0 }, as: UTF8.self)
        return .componentDisabled(reason.isEmpty ? "code \(disabled), no reason given" : reason)
    }

    /// PAPI_TOT_CYC: PAPI_PRESET_MASK | 0x3B (papi.h), the event every PMU offers.
    static let totalCycles = Int32(bitPattern: 0x8000_003B)
    /// PAPI_NULL: the "no event set yet" handle.
    static let noEventSet: Int32 = -1

    /// Adds PAPI_TOT_CYC to a new event set: the only reliable test that hardware events work.
    private static func tryCycles(_ handle: UnsafeMutableRawPointer, version: String) -> State {
        typealias Create = @convention(c) (UnsafeMutablePointer<Int32>) -> Int32
        typealias Add = @convention(c) (Int32, Int32) -> Int32
        typealias Destroy = @convention(c) (UnsafeMutablePointer<Int32>) -> Int32
        typealias Cleanup = @convention(c) (Int32) -> Int32
        typealias Describe = @convention(c) (Int32) -> UnsafePointer<CChar>?
        guard let create = dlsym(handle, "PAPI_create_eventset"), let add = dlsym(handle, "PAPI_add_event"),
            let cleanup = dlsym(handle, "PAPI_cleanup_eventset"), let destroy = dlsym(handle, "PAPI_destroy_eventset"),
            let describe = dlsym(handle, "PAPI_strerror")
        else {
            return .failed("libpapi lacks the event-set functions")
        }
        var set = noEventSet
        guard unsafeBitCast(create, to: Create.self)(&set) == 0 else { return .failed("PAPI_create_eventset failed") }
        defer {
            _ = unsafeBitCast(cleanup, to: Cleanup.self)(set)
            _ = unsafeBitCast(destroy, to: Destroy.self)(&set)
        }
        let rc = unsafeBitCast(add, to: Add.self)(set, totalCycles)
        guard rc != 0 else { return .ready(version: version) }
        let message = unsafeBitCast(describe, to: Describe.self)(rc).map { String(cString: $0) } ?? "error \(rc)"
        return .noHardwareEvents(message)
    }
}
