/// footprint's `unit`: what waits while it is held.
public enum FootprintUnit: String, Sendable, CaseIterable {
    /// A parked thread (no backend).
    case thread
    /// A block queued on a suspended serial queue of the backend.
    case queuedBlock = "queued-block"
}
