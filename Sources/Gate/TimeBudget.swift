/// A length of time given on the command line: "90s", "10m", "1h", "1h30m", or a bare number of
/// seconds.
public struct TimeBudget: Sendable {
    public let seconds: Double

    public init?(spelled argument: String) {
        var total = 0.0, number = "", sawUnit = false
        for character in argument {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            default: return nil
            }
            guard let value = Double(number) else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            // A bare number is seconds; a number after a unit ("1h30") has no unit of its own.
            guard !sawUnit, let value = Double(number) else { return nil }
            total += value
        }
        guard total.isFinite, total > 0 else { return nil }
        seconds = total
    }

    /// "10m", "1m30s", "45s": for progress lines and notes.
    public static func spelled(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        return "\(whole / 60)m" + (whole % 60 == 0 ? "" : "\(whole % 60)s")
    }
}
