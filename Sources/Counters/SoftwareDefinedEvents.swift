import PThreadPrimitives
import RuntimeKit
#if canImport(Glibc)
import Glibc
#endif

/// Our backends' runtime events offered to PAPI as Software Defined Events, so PAPI-based tools
/// can read them too: `sde:::RuntimeBench::steals`, ... (one per `RuntimeEvent`). libsde is
/// dlopen'd with RTLD_GLOBAL and the counters registered before PAPI starts, which is where
/// PAPI's sde component looks for them.
enum SoftwareDefinedEvents {
    static let library = "RuntimeBench"
    static let prefix = "sde:::\(library)::"

    /// The PAPI name of `event`.
    static func name(_ event: RuntimeEvent) -> String { prefix + event.name }

    static func isSoftwareDefined(_ name: String) -> Bool { name.hasPrefix("sde:::") }

    /// Where a read of PAPI's puts the totals: made once, since a read must not allocate (it runs
    /// between samples, where jemalloc's counters would count it). Read by PAPI_read's caller's
    /// thread only: the measuring thread.
    nonisolated(unsafe) static let totals = UnsafeMutablePointer<UInt64>.allocate(capacity: RuntimeEvent.count)

    /// Registers every runtime event once per process; nil, or why they are not offered.
    static let registration: String? = register()

    private static func register() -> String? {
        guard let handle = dlopen("libsde.so.1", RTLD_NOW | RTLD_GLOBAL) ?? dlopen("libsde.so", RTLD_NOW | RTLD_GLOBAL)
        else {
            return "libsde not installed (it comes with PAPI: tools/install-deps.sh)"
        }
        typealias Initialize = @convention(c) (UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
        typealias Register =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>, Int32, Int32,
                @convention(c) (UnsafeMutableRawPointer?) -> Int64, UnsafeMutableRawPointer?
            ) -> Int32
        guard let initialize = dlsym(handle, "papi_sde_init").map({ unsafeBitCast($0, to: Initialize.self) }),
            let register = dlsym(handle, "papi_sde_register_counter_cb").map({ unsafeBitCast($0, to: Register.self) })
        else {
            return "libsde lacks papi_sde_init or papi_sde_register_counter_cb"
        }
        let sde = initialize(library)
        for event in RuntimeEvent.allCases {
            // PAPI_SDE_RO | PAPI_SDE_DELTA (0), PAPI_SDE_long_long (0); the event rides in `param`.
            let status = register(
                sde, event.name, 0, 0,
                { param in
                    RuntimeEvents.read(into: SoftwareDefinedEvents.totals)
                    return Int64(truncatingIfNeeded: SoftwareDefinedEvents.totals[Int(bitPattern: param) - 1])
                }, UnsafeMutableRawPointer(bitPattern: event.rawValue + 1))
            if status != 0 { return "papi_sde_register_counter_cb(\(event.name)) returned \(status)" }
        }
        return nil
    }
}
