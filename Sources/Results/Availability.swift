/// Whether a counter could be measured here, and if not, why: what every counter source reports
/// per metric and what results.json records per run.
///
/// In files it is the text it always was, "available" or "unavailable: REASON", so files written
/// before the type existed read the same.
public enum Availability: Sendable, Hashable, Codable, CustomStringConvertible {
    case available
    case unavailable(reason: String)

    /// Available when `reason` is nil.
    public init(unavailableBecause reason: String?) {
        self = reason.map { .unavailable(reason: $0) } ?? .available
    }

    public var isAvailable: Bool { self == .available }

    /// The reason it cannot be measured; nil when it can.
    public var reason: String? {
        switch self {
        case .available: nil
        case .unavailable(let reason): reason
        }
    }

    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }

    static let unavailablePrefix = "unavailable: "

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if text == "available" {
            self = .available
        } else if text.hasPrefix(Self.unavailablePrefix) {
            self = .unavailable(reason: String(text.dropFirst(Self.unavailablePrefix.count)))
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected \"available\" or \"unavailable: REASON\", found \"\(text)\""))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
