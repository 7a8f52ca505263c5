/// The calibrations workloads need, measured once per run by `bench run` and handed to every
/// child (`ChildRequest.calibration`), so that the cases of one run are comparable: the same
/// parameters mean the same work in every process. A workload with a calibration adds it here.
public enum WorkloadCalibration {
    /// Measures every calibration now (in the parent, before any child runs): about a second.
    public static func measure() -> [String: Double] {
        [SpinCalibration.name: SpinCalibration.measure(over: SpinCalibration.runWindow)]
    }

    /// Makes this process (a child) use the run's calibrations; names it does not know are ignored
    /// (a newer parent may send more).
    /// - Throws: a description of a value that cannot be used.
    public static func use(_ calibration: [String: Double]) throws(CalibrationError) {
        if let spin = calibration[SpinCalibration.name] {
            guard spin > 0, spin.isFinite else { throw CalibrationError(name: SpinCalibration.name, value: spin) }
            SpinCalibration.use(nanosecondsPerRound: spin)
        }
    }
}

public struct CalibrationError: Error, CustomStringConvertible {
    public let name: String
    public let value: Double
    public var description: String { "calibration \(name) = \(value) cannot be used: it must be positive and finite" }
}
