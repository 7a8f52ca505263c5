import Results

/// What must be equal for two runs' times to be comparable, and for two runs to come from the
/// same machine: the CPU, how many are online, which of them the children could use (affinity,
/// `--cpus`, cgroup quota), whether the machine is virtual, the kernel and the Swift toolchain
/// that built bench. Not the host name (CI containers get a new one every run). A toolchain
/// upgrade changes the code measured: judge it with `bench ab` of the two builds, or `--force`.
public struct MachineFingerprint: Sendable, Equatable {
    /// Each field's value, nil where a results file does not record it (written before it
    /// was): such a field is not compared.
    public let fields: [(name: String, value: String?)]

    public init(_ environment: RunEnvironment) {
        fields = [
            ("CPU", environment.cpuModel), ("online CPUs", "\(environment.onlineCPUs)"),
            ("usable CPUs", environment.usableCPUs?.description),
            ("virtual machine", environment.virtualMachine), ("kernel", environment.kernel),
            ("Swift", environment.swiftCompiler),
        ]
    }

    /// "CPU: X vs Y; online CPUs: 2 vs 8", the fields that differ, or nil when none does.
    public func differences(from other: MachineFingerprint) -> String? {
        let different = zip(fields, other.fields).compactMap { mine, theirs -> String? in
            guard let value = mine.value, let otherValue = theirs.value, value != otherValue else { return nil }
            return "\(mine.name): \(value) vs \(otherValue)"
        }
        return different.isEmpty ? nil : different.joined(separator: "; ")
    }

    public static func == (lhs: MachineFingerprint, rhs: MachineFingerprint) -> Bool {
        lhs.differences(from: rhs) == nil
    }
}
