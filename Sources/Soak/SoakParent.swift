import Backends
import FoundationEssentials
import Harness
import RuntimeKit

/// The parent side of `bench soak`, the counterpart of `Soak.run`: each backend's soak in a child
/// process of its own (`bench soak-child`), so each starts from the same resident set and a crash
/// or a hang costs that backend alone; the child's report judged into a `SoakVerdict`.
public struct SoakParent: Sendable {
    /// The `bench` executable to re-run as the children.
    public let executable: String
    public let settings: SoakSettings
    /// Bytes the resident set may grow after the warm-up before a soak fails.
    public let maximumGrowth: Int

    public init(executable: String, settings: SoakSettings, maximumGrowth: Int) {
        self.executable = executable
        self.settings = settings
        self.maximumGrowth = maximumGrowth
    }

    /// A child's arguments: `bench soak-child` reads them back into the same settings.
    public func arguments(for backend: Backend) -> [String] {
        [
            "soak-child", "--backend", backend.id, "--duration", "\(Self.seconds(settings.duration))",
            "--warm-up", "\(Self.seconds(settings.warmUp))", "--workers", "\(settings.workers)", "--seed",
            "\(settings.seed)",
            "--wait-timeout", "\(Self.seconds(settings.waitTimeout))",
        ]
    }

    /// How long a child may take: the soak, then startup, the last round's waits and shutdown.
    public var deadline: Duration { settings.duration + settings.waitTimeout * 2 + .seconds(30) }

    /// Soaks each backend in turn, reporting a line before and after each (and every 30 seconds
    /// of a soak that lasts a minute or more). Stops at an interruption (`Interruption`): the
    /// verdicts are those of the backends that finished.
    public func run(_ backends: [Backend], report: @escaping @Sendable (String) -> Void) async throws -> [SoakVerdict] {
        var verdicts: [SoakVerdict] = []
        for (index, backend) in backends.enumerated() {
            if Interruption.signal != nil { break }
            let label = "soak [\(index + 1)/\(backends.count)] \(backend.id)"
            report("\(label): \(Self.format(settings.duration))…")
            let outcome = try await withTicker(label: backend.id, report: report) {
                [executable, deadline, arguments = arguments(for: backend)] in
                try await ChildProcess.run(executable: executable, arguments: arguments, deadline: deadline)
            }
            if outcome.ending == .interrupted { break }
            let verdict = Self.verdict(backend: backend.id, outcome: outcome, maximumGrowth: maximumGrowth)
            report("\(label): \(Self.oneLine(verdict))")
            verdicts.append(verdict)
        }
        return verdicts
    }

    /// A child's outcome judged: its report against the growth allowed, or why there is none.
    public static func verdict(backend: String, outcome: ChildOutcome, maximumGrowth: Int) -> SoakVerdict {
        switch ChildVerdict(outcome) {
        case .failed(let reason):
            return SoakVerdict(backend: backend, childFailure: reason)
        case .record(let line):
            guard let report = try? JSONDecoder().decode(SoakReport.self, from: Data(line.utf8)),
                report.version == SoakReport.currentVersion
            else {
                return SoakVerdict(
                    backend: backend,
                    childFailure: "unreadable output: the last line is not a soak report: \(line.prefix(200))")
            }
            return SoakVerdict(report: report, maximumGrowth: maximumGrowth)
        }
    }

    /// "passed: 12345678 operations in 120.0 s; resident 5.1 → 5.2 MiB" or "FAILED: reason".
    public static func oneLine(_ verdict: SoakVerdict) -> String {
        guard let report = verdict.report else { return "FAILED: \(verdict.reason ?? "")" }
        let memory = [report.residentAfterWarmUp, report.residentAtEnd].compactMap { $0 }.map {
            SoakVerdict.mebibytes($0)
        }
        let figures =
            "\(report.operations.total) operations in \(report.rounds) rounds, \(format(seconds: report.seconds))"
            + (memory.count == 2 ? "; resident after warm-up \(memory[0]), at end \(memory[1])" : "")
        return verdict.passed
            ? "passed: \(figures)" + (verdict.reason.map { " (\($0))" } ?? "")
            : "FAILED: \(verdict.reason ?? "") (\(figures))"
    }

    /// "120.0 s": seconds to a tenth.
    public static func format(seconds value: Double) -> String { "\((value * 10).rounded() / 10) s" }

    public static func format(_ duration: Duration) -> String { format(seconds: seconds(duration)) }

    static func seconds(_ duration: Duration) -> Double { Double(duration.nanosecondsSaturating) / 1e9 }

    /// Runs `body`, reporting a line every 30 seconds meanwhile when the soak is long enough to
    /// need one.
    private func withTicker<T: Sendable>(
        label: String, report: @escaping @Sendable (String) -> Void,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let duration = Self.seconds(settings.duration)
        guard duration >= 60 else { return try await body() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                let start = ContinuousClock.now
                while true {
                    try await Task.sleep(for: .seconds(30))
                    report("soak: \(label): \(Int(Self.seconds(ContinuousClock.now - start))) of \(Int(duration)) s")
                }
            }
            while let next = try await group.next() {
                if let value = next {
                    group.cancelAll()
                    return value
                }
            }
            preconditionFailure("the body's task always returns a value")
        }
    }
}
