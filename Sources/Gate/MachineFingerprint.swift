import Results

/// What must be equal for two runs' times to be comparable: the CPU, how many of them, whether
/// the machine is virtual, and the kernel. Not the host name (CI containers get a new one every
/// run), not the compiler (a compiler upgrade is a change the gate should judge).
public struct MachineFingerprint: Sendable, Equatable {
    public let fields: [(name: String, value: String)]

    public init(_ environment: RunEnvironment) {
        fields = [("CPU", environment.cpuModel), ("online CPUs", "\(environment.onlineCPUs)"),
                  ("virtual machine", environment.virtualMachine), ("kernel", environment.kernel)]
    }

    /// "CPU: X vs Y; online CPUs: 2 vs 8", the fields that differ, or nil when none does.
    public func differences(from other: MachineFingerprint) -> String? {
        let different = zip(fields, other.fields).filter { $0.value != $1.value }
            .map { "\($0.name): \($0.value) vs \($1.value)" }
        return different.isEmpty ? nil : different.joined(separator: "; ")
    }

    public static func == (lhs: MachineFingerprint, rhs: MachineFingerprint) -> Bool { lhs.differences(from: rhs) == nil }
}
