/// Why a runtime cannot run in this process (`ConcurrencyRuntime.prepareProcess()`): a case on it
/// is "not applicable" with this reason, never measured on something else under its name.
public struct RuntimeUnavailable: Error, CustomStringConvertible, Equatable {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
