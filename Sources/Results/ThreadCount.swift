/// A number of threads as a case's parameter spells it: a fixed count ("4"), or a multiple of
/// the CPUs ("2xcpus"), which each machine resolves to its own count. The workload that runs it
/// and the report that charts it read the spelling the same way.
public enum ThreadCount: Sendable, Hashable, CustomStringConvertible {
    case fixed(Int)
    /// This many threads per CPU.
    case perCPU(Int)

    /// "4" or "2xcpus"; nil for anything else, or a count below 1.
    public init?(_ text: String) {
        if let count = Int(text) {
            guard count >= 1 else { return nil }
            self = .fixed(count)
        } else if text.hasSuffix(Self.perCPUSuffix), let factor = Int(text.dropLast(Self.perCPUSuffix.count)),
            factor >= 1
        {
            self = .perCPU(factor)
        } else {
            return nil
        }
    }

    static let perCPUSuffix = "xcpus"

    /// The threads on a machine with `cpus` CPUs.
    public func resolved(cpus: Int) -> Int {
        switch self {
        case .fixed(let count): count
        case .perCPU(let factor): factor * cpus
        }
    }

    /// The parameter's spelling: "4", "2xcpus".
    public var description: String {
        switch self {
        case .fixed(let count): "\(count)"
        case .perCPU(let factor): "\(factor)\(Self.perCPUSuffix)"
        }
    }
}
