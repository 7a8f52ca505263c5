import Backends
import Results

/// A workload's parameters read with one set of messages: "<workload> needs <name>=<valid>, got
/// '<text>'" (or "got none"), so a mistyped case says what it should have been.
extension BenchmarkCase {
    /// The parameter `name` as one of `Choice`'s values; `fallback` when the case does not give it
    /// (an error when there is none).
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, default fallback: Choice? = nil)
        throws(WorkloadError) -> Choice where Choice.RawValue == String
    {
        let text = parameter(name)
        if let text, let value = Choice(rawValue: text) { return value }
        if text == nil, let fallback { return fallback }
        throw badParameter(name, valid: Choice.allCases.map(\.rawValue).joined(separator: "|"), got: text)
    }

    /// The parameter `name` as a whole number in `range`; `fallback` when the case does not give it.
    public func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws(WorkloadError)
        -> Int
    {
        guard let value = try optionalInteger(name, in: range) ?? fallback else {
            throw badParameter(name, valid: "\(range.lowerBound)...\(range.upperBound)", got: nil)
        }
        return value
    }

    /// The parameter `name` as a whole number in `range`, or nil when the case does not give it.
    public func optionalInteger(_ name: String, in range: ClosedRange<Int>) throws(WorkloadError) -> Int? {
        guard let text = parameter(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw badParameter(name, valid: "\(range.lowerBound)...\(range.upperBound)", got: text)
        }
        return value
    }

    /// `backend`, or the error that says this case runs on one.
    public func requireBackend(_ backend: Backend?) throws(WorkloadError) -> Backend {
        guard let backend else { throw .badParameter("\(workload) runs on a backend; none was given") }
        return backend
    }

    /// "<workload> needs <name>=<valid>, got '<text>'" (or "got none").
    public func badParameter(_ name: String, valid: String, got text: String?) -> WorkloadError {
        .badParameter("\(workload) needs \(name)=<\(valid)>, got \(text.map { "'\($0)'" } ?? "none")")
    }
}
