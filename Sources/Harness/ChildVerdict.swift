import Results
#if canImport(Glibc)
import Glibc
#endif

/// What the parent makes of a child: the one record it printed, or a failure with the reason.
/// A failed case is kept in the results with its reason; the run goes on.
public enum ChildVerdict: Sendable, Equatable {
    /// The last non-empty line of standard output: the child's record, still to be decoded.
    case record(String)
    case failed(reason: String)

    /// Lines of standard error quoted in a failure reason: enough to show a trap's message.
    public static let quotedErrorLines = 5

    public init(_ outcome: ChildOutcome) {
        switch outcome.ending {
        case .interrupted:
            self = .failed(reason: "interrupted: the run was stopped while this child ran; killed")
        case .timedOut(let deadline):
            self = .failed(reason: "hung: still running after the \(deadline) deadline; killed")
        case .signalled(let signal):
            self = .failed(reason: "crashed: killed by \(Self.signalName(signal))" + Self.quote(outcome.standardError))
        case .exited(let code) where code != 0:
            if let sanitizer = Self.sanitizerError(outcome.standardError) {
                // A sanitizer-instrumented build catches the crash itself and exits (ThreadSanitizer
                // with 66) instead of dying of the signal.
                self = .failed(
                    reason: "crashed: \(sanitizer) (exit status \(code))" + Self.quote(outcome.standardError))
            } else {
                self = .failed(reason: "exited with status \(code)" + Self.quote(outcome.standardError))
            }
        case .exited:
            let lines = outcome.standardOutput.split(whereSeparator: \.isNewline)
            guard let last = lines.last(where: { !$0.allSatisfy(\.isWhitespace) }) else {
                self = .failed(reason: "printed no record (empty standard output)")
                return
            }
            self = .record(String(last))
        }
    }

    /// "SIGSEGV (11)", or "signal N" for one without a name.
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGBUS: "SIGBUS",
            SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP",
        ]
        return names[signal].map { "\($0) (\(signal))" } ?? "signal \(signal)"
    }

    /// "ThreadSanitizer: SEGV on unknown address 0x000000000010" from a sanitizer's report, or nil.
    /// Two forms end a sanitized process with the sanitizer's exit status (66 for ThreadSanitizer)
    /// instead of the signal: its report of a crash ("==1234==ERROR: ThreadSanitizer: SEGV on ..."),
    /// and a failed internal check, which is how a Swift trap under ThreadSanitizer sometimes ends
    /// while the backtracer runs ("...ThreadSanitizer: CHECK failed: tsan_rtl.cpp:261 ...").
    static func sanitizerError(_ standardError: String) -> String? {
        for line in standardError.split(whereSeparator: \.isNewline) {
            guard line.contains("ERROR: ") || line.contains("Sanitizer: CHECK failed") else { continue }
            guard let marker = line.firstRange(of: "Sanitizer:") else { continue }
            // Back from "Sanitizer:" over the name's letters ("Thread", "Address", "Leak", ...).
            var start = marker.lowerBound
            while start > line.startIndex, line[line.index(before: start)].isLetter {
                start = line.index(before: start)
            }
            // Without the trailing parenthesized details: "(pc 0x… bp 0x… T4242)", "(0x0, 0x0) (tid=2186)".
            var text = String(line[start...])
            while true {
                while text.last?.isWhitespace == true { text.removeLast() }
                guard text.last == ")", let open = text.lastIndex(of: "("), open > text.startIndex,
                    text[text.index(before: open)] == " "
                else { break }
                text = String(text[..<open])
            }
            return text
        }
        return nil
    }

    /// The lines of standard error that say what happened. After a Swift crash that is the trap's
    /// message and the backtracer's verdict ("Fatal error: ...", "*** Program crashed: Bad pointer
    /// dereference ..."), which come first, above pages of registers and images; otherwise the
    /// last lines.
    private static func quote(_ standardError: String) -> String {
        let lines = standardError.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
        let telling = lines.filter { line in
            ["Fatal error", "Program crashed:", "Precondition failed", "Assertion failed"].contains {
                line.contains($0)
            }
        }
        let quoted = telling.isEmpty ? lines.suffix(quotedErrorLines) : telling.prefix(quotedErrorLines)
        return quoted.isEmpty ? "" : "; stderr: " + quoted.joined(separator: " | ")
    }
}
