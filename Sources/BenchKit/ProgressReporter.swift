import Harness
import Results
#if canImport(Glibc)
import Glibc
#endif

/// Progress of a run on standard error: one line updated in place with an ETA on a terminal,
/// and one plain line per finished repetition elsewhere (CI logs, files). A run in rounds
/// (`bench ab --budget`) numbers each round's children from 1, and the ETA is the round's.
final class ProgressReporter: @unchecked Sendable {
    private let interactive = isatty(STDERR_FILENO) != 0
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant
    /// Repetitions that finished, whatever came of them (not applicable included): the count an
    /// interrupted run's summary gives, so it agrees with the last progress line.
    private(set) var finished = 0

    init() {
        start = clock.now
    }

    func report(_ event: Runner.Event) {
        switch event {
        case .started(let index, let total, let id, let repetition) where interactive:
            if index == 1 { start = clock.now }
            write("\r\u{1B}[2K[\(index)/\(total)] \(id) #\(repetition + 1)  \(eta(done: index - 1, of: total))")
        case .started:
            break
        case .finished(let index, let total, let id, let repetition, let outcome):
            finished += 1
            if interactive {
                if outcome != "ok" { write("\r\u{1B}[2K[\(index)/\(total)] \(id) #\(repetition + 1): \(outcome)\n") }
                if index == total { write("\r\u{1B}[2K") }
            } else {
                write("[\(index)/\(total)] \(id) #\(repetition + 1): \(outcome)\n")
            }
        case .addingProcesses(let cases, let budget):
            let seconds = Int(budget.components.seconds), points = Int(MeasuredRun.settledShare * 100)
            write(
                (interactive ? "\r\u{1B}[2K" : "")
                    + "modes: \(cases) case\(cases == 1 ? "" : "s") split between modes; adding processes for up to "
                    + "\(seconds) s, until each mode's share is known to ±\(points) points (--mode-budget)\n")
        case .settlingAnswers(let cases, let chosen, let processes):
            let which =
                chosen == cases
                ? "each"
                : "\(chosen) of them, the questions' and claims' first, the cheapest first "
                    + "(the rest would overrun --answer-budget)"
            write(
                (interactive ? "\r\u{1B}[2K" : "")
                    + "answers: \(cases) case\(cases == 1 ? "" : "s") on which a first-screen answer, a claim or a "
                    + "parameter set's winner hangs, not yet told apart; \(processes) more processes for \(which)\n")
        }
    }

    private func eta(done: Int, of total: Int) -> String {
        guard done > 0 else { return "" }
        let elapsed = clock.now - start
        let remaining = elapsed / done * (total - done)
        let seconds = Int(remaining.components.seconds)
        return "ETA \(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    private func write(_ text: String) { writeToStandardError(text) }
}

/// Writes to file descriptor 2 directly: the C `stderr` global is shared mutable state that
/// Swift 6 will not touch, and a progress line needs no buffering.
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0 { if errno == EINTR { continue } else { return } }
        bytes = bytes.dropFirst(written)
    }
}
