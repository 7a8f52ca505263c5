#if canImport(Glibc)
import Glibc
#endif

/// libpapi, loaded with `dlopen` (never linked, so the build needs nothing) and initialised once
/// per process: the entry points `--events` counts with. RUNTIMEBENCH_PAPI_LIBRARY names another
/// library to load instead (a PAPI built elsewhere, or the tests' stand-in with known counts).
final class PAPILibrary: @unchecked Sendable {
    static let overrideVariable = "RUNTIMEBENCH_PAPI_LIBRARY"

    /// papi.h's constants this reader uses.
    static let ok: Int32 = 0
    static let noEventSet: Int32 = -1  // PAPI_NULL
    static let inheritOption: Int32 = 28  // PAPI_INHERIT
    static let inheritAll: Int32 = 1  // PAPI_INHERIT_ALL

    typealias Initialize = @convention(c) (Int32) -> Int32
    typealias CreateEventSet = @convention(c) (UnsafeMutablePointer<Int32>) -> Int32
    typealias AssignComponent = @convention(c) (Int32, Int32) -> Int32
    typealias SetOption = @convention(c) (Int32, UnsafeMutableRawPointer) -> Int32
    typealias AddNamedEvent = @convention(c) (Int32, UnsafePointer<CChar>) -> Int32
    typealias NameToCode = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<Int32>) -> Int32
    typealias Start = @convention(c) (Int32) -> Int32
    typealias Read = @convention(c) (Int32, UnsafeMutablePointer<Int64>) -> Int32
    typealias Describe = @convention(c) (Int32) -> UnsafePointer<CChar>?

    let createEventSet: CreateEventSet
    let assignComponent: AssignComponent
    let setOption: SetOption
    let addNamedEvent: AddNamedEvent
    let nameToCode: NameToCode
    let start: Start
    let read: Read
    private let describeCode: Describe
    /// Where it was loaded from and the version it was initialised with: "libpapi.so.7.0 (7.0)".
    let origin: String

    /// The process's library, or why there is none: loaded and initialised on first use.
    static let shared: Result<PAPILibrary, Unavailable> = load()

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private init(handle: UnsafeMutableRawPointer, origin: String) throws(Unavailable) {
        func symbol<T>(_ name: String, as type: T.Type) throws(Unavailable) -> T {
            guard let found = dlsym(handle, name) else { throw Unavailable(description: "\(origin) lacks \(name)") }
            return unsafeBitCast(found, to: type)
        }
        createEventSet = try symbol("PAPI_create_eventset", as: CreateEventSet.self)
        assignComponent = try symbol("PAPI_assign_eventset_component", as: AssignComponent.self)
        setOption = try symbol("PAPI_set_opt", as: SetOption.self)
        addNamedEvent = try symbol("PAPI_add_named_event", as: AddNamedEvent.self)
        nameToCode = try symbol("PAPI_event_name_to_code", as: NameToCode.self)
        start = try symbol("PAPI_start", as: Start.self)
        read = try symbol("PAPI_read", as: Read.self)
        describeCode = try symbol("PAPI_strerror", as: Describe.self)
        self.origin = origin
    }

    /// PAPI's words for an error code: "Event does not exist".
    func describe(_ code: Int32) -> String {
        describeCode(code).map { String(cString: $0) } ?? "PAPI error \(code)"
    }

    private static func load() -> Result<PAPILibrary, Unavailable> {
        let candidates: [(path: String, versions: [(Int32, Int32)])]
        if let path = getenv(overrideVariable).map({ String(cString: $0) }), !path.isEmpty {
            candidates = [(path, [(7, 1), (7, 0), (6, 0)])]
        } else {
            candidates = PAPIProbe.libraries.map { ($0.soname, [($0.major, $0.minor)]) }
        }
        for candidate in candidates {
            guard let handle = dlopen(candidate.path, RTLD_NOW | RTLD_LOCAL) else { continue }
            guard let initialize = dlsym(handle, "PAPI_library_init").map({ unsafeBitCast($0, to: Initialize.self) })
            else {
                return .failure(Unavailable(description: "\(candidate.path) lacks PAPI_library_init"))
            }
            // PAPI_VER_CURRENT = (major << 24) | (minor << 16); on success init returns it back.
            for (major, minor) in candidate.versions {
                let wanted = (major << 24) | (minor << 16)
                guard initialize(wanted) == wanted else { continue }
                do {
                    return .success(try PAPILibrary(handle: handle, origin: "\(candidate.path) (\(major).\(minor))"))
                } catch {
                    return .failure(error)
                }
            }
            return .failure(
                Unavailable(description: "PAPI_library_init refused every version this bench knows (\(candidate.path))")
            )
        }
        return .failure(
            Unavailable(
                description:
                    "PAPI not installed (none of \(candidates.map(\.path).joined(separator: ", ")) could be loaded; "
                    + "tools/install-deps.sh installs libpapi-dev)"))
    }

    /// Whether PAPI knows `name` (a preset such as PAPI_TOT_INS, or a native event), or PAPI's reason.
    func knows(_ name: String) -> String? {
        var code: Int32 = 0
        let status = nameToCode(name, &code)
        return status == Self.ok ? nil : describe(status)
    }
}
