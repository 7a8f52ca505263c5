import CaseCatalogue

/// Which layer a claim's verdict measures. The guide speaks of GCD; a Swift programmer meets it
/// through the `Dispatch` overlay, and the overlay has costs of its own (a `DispatchQueue.sync`
/// section costs several times a `dispatch_sync_f`), so a claim can hold for the runtime and not
/// for Swift code, or the other way round. Each claim is evaluated on both where both exist.
public enum ClaimLayer: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Swift code: libdispatch through the `Dispatch` overlay, against the locks Swift code uses.
    case swift
    /// The runtime itself: libdispatch's C entry points (`dispatch_sync_f`, `dispatch_apply_f`,
    /// ...), against pthreads called from C where the suite has that reference.
    case runtime
    /// Swift concurrency: tasks and actors on Swift's own executors, or a backend's
    /// (`SwiftConcurrencyClaims`); the Swift documentation's claims, not the guide's.
    case concurrency

    /// The layers the dispatch guide's claims are read on.
    static let guideLayers: [ClaimLayer] = [.swift, .runtime]

    /// The backend that stands for GCD on this layer.
    var gcd: BackendName { self == .swift ? .libdispatch : .libdispatchC }

    /// The suffix of a claim's id on this layer: none for Swift code, the claims' first reading.
    var idSuffix: String { self == .swift ? "" : "-runtime" }

    public var description: String {
        switch self {
        case .swift: "Swift code (the Dispatch overlay)"
        case .runtime: "the runtime itself (libdispatch's C entry points)"
        case .concurrency: "Swift concurrency (Swift's own executors, or a backend's)"
        }
    }
}
