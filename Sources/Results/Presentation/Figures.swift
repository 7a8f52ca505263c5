#if canImport(Glibc)
import Glibc
#endif

/// How numbers read everywhere a person reads them (report.md, the terminal, the claims'
/// evidence, the gate's tables). Three significant figures at most: a median of noisy samples is
/// not known better than that, and more digits only hide the difference that matters.
public enum Figures {
    /// A time or a count: "0.713", "12.3", "456", "12345"; below 0.001 in exponent form
    /// ("3.73e-7"), so a rare event is not rounded away to a zero it never was.
    public static func value(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        // Beyond 1e15 a whole number reads no better than its exponent, and past Int.max it
        // would trap: two processes far apart give an interval bound that large.
        if magnitude >= 100 && magnitude < 1e15 { return "\(Int(value.rounded()))" }
        if magnitude >= 1e15 {
            let exponent = Int(floor(log10(magnitude)))
            return "\(trimmed((value / pow(10, Double(exponent)) * 100).rounded() / 100, digits: 2))e\(exponent)"
        }
        if magnitude >= 0.001 {
            let digits = 2 - Int(floor(log10(magnitude)))
            let factor = pow(10, Double(digits))
            return trimmed((value * factor).rounded() / factor, digits: digits)
        }
        let exponent = Int(floor(log10(magnitude)))
        let mantissa = (value / pow(10, Double(exponent)) * 100).rounded() / 100
        return "\(trimmed(mantissa, digits: 2))e\(exponent)"
    }

    /// A time given in nanoseconds, in the unit that keeps it short: "4.87 ns", "1.01 µs",
    /// "57.6 ms", "1.2 s" (three significant figures, as `value`).
    public static func nanoseconds(_ nanoseconds: Double) -> String {
        let magnitude = abs(nanoseconds)
        if magnitude >= 1e9 { return value(nanoseconds / 1e9) + " s" }
        if magnitude >= 1e6 { return value(nanoseconds / 1e6) + " ms" }
        if magnitude >= 1e3 { return value(nanoseconds / 1e3) + " µs" }
        return value(nanoseconds) + " ns"
    }

    /// An interval, "12.1–12.6".
    public static func interval(_ lower: Double, _ upper: Double) -> String { "\(value(lower))–\(value(upper))" }

    /// A repeat interval, "12.1–12.6", or "unbounded" when one process had nothing to compare with.
    public static func interval(_ interval: RepeatInterval) -> String {
        interval.upper.isFinite ? self.interval(interval.lower, interval.upper) : "unbounded (one process)"
    }

    /// A case's modes, fastest first: "16.4 ns in 3 of 4 processes, 2.52 µs in 1";
    /// `format` writes a figure (by default, as a time).
    public static func modes(
        _ modes: [ProcessMode], format: (Double) -> String = { Figures.nanoseconds($0) }
    ) -> String {
        modes.enumerated().map { index, mode in
            "\(format(mode.estimate.value)) in \(mode.processes)"
                + (index == 0 ? " of \(mode.ofProcesses) processes" : "")
        }.joined(separator: ", ")
    }

    /// A ratio, "1.00×", "2.35×", "15.2×", "123×".
    public static func ratio(_ ratio: Double) -> String {
        if ratio >= 100 { return "\(Int(ratio.rounded()))×" }
        if ratio >= 10 { return trimmed((ratio * 10).rounded() / 10, digits: 1, keep: true) + "×" }
        return trimmed((ratio * 100).rounded() / 100, digits: 2, keep: true) + "×"
    }

    /// `value` with `digits` decimals at most; `keep` pads to exactly `digits` ("1.50").
    private static func trimmed(_ value: Double, digits: Int, keep: Bool = false) -> String {
        var text = "\(value)"
        if text.contains("e") { return text }
        let parts = text.split(separator: ".", maxSplits: 1)
        var decimals = parts.count > 1 ? String(parts[1]) : ""
        if decimals.count > digits { decimals = String(decimals.prefix(digits)) }
        if keep { decimals += String(repeating: "0", count: max(0, digits - decimals.count)) }
        while !keep && decimals.hasSuffix("0") { decimals.removeLast() }
        text = String(parts[0]) + (decimals.isEmpty ? "" : "." + decimals)
        return text
    }
}
