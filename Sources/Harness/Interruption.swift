import Results
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT), SIGTERM or SIGHUP (a dropped SSH session) during a run: the handler only
/// records the signal; the runners see it before each child and while one runs (`ChildProcess`
/// stops the child), stop starting new ones, and the run's results are written from what
/// finished, saying it was interrupted. The process then exits 128 + the signal (130, 143, 129),
/// as a shell expects of an interrupted command.
public enum Interruption {
    private static let received = Atomic<Int32>(0)

    /// The signals that end a run with its results written.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers for `signals` (once per process; later calls do nothing new).
    public static func install() {
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Async-signal-safe: one atomic store. The first signal is the one reported.
                _ = Interruption.received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
    }

    /// The signal that interrupted the run, or nil.
    public static var signal: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// "SIGINT" / "SIGTERM" / "SIGHUP" and the exit status a shell expects (130 / 143 / 129).
    public static func describe(_ signal: Int32) -> (name: String, status: Int32) {
        let name =
            switch signal {
            case SIGINT: "SIGINT"
            case SIGTERM: "SIGTERM"
            case SIGHUP: "SIGHUP"
            default: "signal \(signal)"
            }
        return (name, 128 + signal)
    }

    /// For tests: as if `signal` had arrived (0 clears it).
    public static func simulate(_ signal: Int32) { received.store(signal, ordering: .relaxed) }
}
