/// One of the two builds a paired run compares; its raw value is how the journal and the
/// progress lines name it.
public enum Build: String, Sendable, Codable {
    case a = "A", b = "B"

    /// Which build runs first in pair `pair`: A in even pairs, B in odd ones (A B B A A B ...).
    /// Whatever drifts during the run (a neighbour's load, thermal state, the page cache) hits
    /// both halves of a pair nearly alike, and the alternating order cancels what is left of a
    /// steady trend.
    public static func order(ofPair pair: Int) -> [Build] { pair.isMultiple(of: 2) ? [.a, .b] : [.b, .a] }
}
