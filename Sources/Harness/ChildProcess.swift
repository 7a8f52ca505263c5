import Results
#if canImport(Glibc)
import Glibc
#endif
import Subprocess
import SystemPackage

/// How a child process ended, and what it printed.
public struct ChildOutcome: Sendable {
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        /// Killed by a signal it did not handle (a crash: SIGSEGV, SIGILL from a Swift trap, ...).
        case signalled(Int32)
        /// Still running at the deadline; it was killed.
        case timedOut(Duration)
        /// The run was interrupted (`Interruption`) while the child ran; it was killed, and its
        /// repetition is not recorded at all.
        case interrupted
    }

    public let ending: Ending
    public let standardOutput: String
    public let standardError: String
}

/// Runs one child process to completion or to its deadline. The parent of a benchmark run starts
/// one per case and repetition, so a crash or a hang costs that case alone.
public enum ChildProcess {
    /// The most a child may print on each stream. A case's record is a few kilobytes even with
    /// thousands of raw samples; beyond this the child is misbehaving, and is reported as such.
    public static let outputLimit = 16 * 1024 * 1024

    /// This process's executable: what a parent re-runs as its children.
    public static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(length > 0, "cannot read /proc/self/exe: \(String(cString: strerror(errno)))")
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let backtraceVariable = "SWIFT_BACKTRACE"

    /// Swift's backtracer in a child, unless the user set SWIFT_BACKTRACE: on, so a crash still
    /// says what it was ("*** Program crashed: Bad pointer dereference at ..."), but without
    /// symbolicating the backtrace. Only the first lines of a crash are kept (`ChildVerdict`), and
    /// symbolication can take seconds on a busy machine, so a trap under a short deadline would be
    /// recorded as a hang.
    static let crashBacktrace = "enable=yes,symbolicate=off"

    /// - Parameters:
    ///   - environment: variables set or replaced on top of the parent's environment
    ///     (e.g. `LD_PRELOAD` for the jemalloc allocator).
    ///   - deadline: wall time after which the child is killed and reported as timed out.
    public static func run(
        executable: String,
        arguments: [String],
        environment overrides: [String: String] = [:],
        deadline: Duration
    ) async throws -> ChildOutcome {
        var overrides = overrides
        if getenv(backtraceVariable) == nil && overrides[backtraceVariable] == nil {
            overrides[backtraceVariable] = crashBacktrace
        }
        let environment = Environment.inherit.updating(
            Dictionary(uniqueKeysWithValues: overrides.map { (Environment.Key(rawValue: $0.key)!, Optional($0.value)) })
        )
        let finished: ChildOutcome? = try await withThrowingTaskGroup(of: ChildOutcome?.self) { group in
            group.addTask {
                let result = try await Subprocess.run(
                    .path(FilePath(executable)),
                    arguments: Arguments(arguments),
                    environment: environment,
                    output: .string(limit: outputLimit),
                    error: .string(limit: outputLimit)
                )
                let ending: ChildOutcome.Ending
                switch result.terminationStatus {
                case .exited(let code): ending = .exited(Int32(code))
                case .signaled(let signal): ending = .signalled(Int32(signal))
                }
                return ChildOutcome(
                    ending: ending, standardOutput: result.standardOutput,
                    standardError: result.standardError)
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil  // the deadline won
            }
            group.addTask {
                // An interrupted run stops its child at once (cancelling the group kills it).
                while Interruption.signal == nil { try await Task.sleep(for: .milliseconds(50)) }
                return ChildOutcome(ending: .interrupted, standardOutput: "", standardError: "")
            }
            let first = try await group.next()!
            group.cancelAll()  // cancelling the run kills the child (Subprocess ends with SIGKILL)
            guard first == nil else { return first }
            // A parent whose threads were all held (a test process's shared pool) can see its
            // deadline pass only after the child had ended by itself; that child did not hang.
            while let other = await group.nextResult() {
                if case .success(let outcome?) = other, case .exited = outcome.ending { return outcome }
            }
            return nil
        }
        guard let finished else {
            return ChildOutcome(ending: .timedOut(deadline), standardOutput: "", standardError: "")
        }
        return await interruptedByTheSameSignal(finished)
            ? ChildOutcome(ending: .interrupted, standardOutput: "", standardError: "") : finished
    }

    /// A terminal's Ctrl-C goes to the whole process group: the child dies of the SIGINT the
    /// parent is handling. That child was interrupted, not crashed. Its death can be seen before
    /// the parent's handler has run, so a child killed by one of `Interruption.signals` waits up to a second
    /// for the parent's own signal; a child killed by one alone (someone's `kill`) stays a crash.
    static func interruptedByTheSameSignal(_ outcome: ChildOutcome) async -> Bool {
        guard case .signalled(let signal) = outcome.ending, Interruption.signals.contains(signal) else { return false }
        let clock = ContinuousClock(), giveUp = clock.now + .seconds(1)
        while Interruption.signal == nil && clock.now < giveUp { try? await Task.sleep(for: .milliseconds(10)) }
        return Interruption.signal != nil
    }
}
