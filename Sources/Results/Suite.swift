/// How much to run: which parameter sets each workload offers, and the run's defaults. A results
/// file records it, as its raw value ("smoke", "quick", "full").
public enum Suite: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Seconds: one small case per workload, to check the machinery (CI, end-to-end tests).
    case smoke
    /// About 5 minutes on a 2-core machine, under the system allocator alone.
    case quick
    /// Under 30 minutes on a 2-core machine.
    case full

    /// Child processes per case unless the user says otherwise. A figure's interval comes from the
    /// spread between processes, so processes count more than samples (README, "How far a figure
    /// holds"). Five, not four: at five against five the rank test behind "clearly" (`Faster`)
    /// still decides with one process out of place, and one slow process in a repeat run is what
    /// turned four-process verdicts into ties.
    public var defaultRepetitions: Int {
        switch self {
        case .smoke: 3
        case .quick, .full: 5
        }
    }

    /// Allocators a case runs under unless the user says otherwise. The quick suite answers the
    /// questions people bring first, within minutes, and "which allocator?" is a question of its
    /// own that doubles every case: it runs under the system allocator alone, and its report says
    /// how to add jemalloc. The smoke suite keeps both (CI checks allocations under jemalloc), and
    /// the full suite compares them.
    public var defaultAllocators: [Allocator] { self == .quick ? [.system] : Allocator.allCases }

    /// Samples per process unless the user says otherwise: enough for a steady median per
    /// process, the rest of the time spent on more processes. The quick suite's four pay for part
    /// of its fifth process.
    public var defaultSamples: Int {
        switch self {
        case .smoke: 5
        case .quick: 4
        case .full: 10
        }
    }

    /// Seconds a run may spend, after every case's repetitions, adding processes to the cases
    /// whose processes fell into modes, until each mode's share is known (`MeasuredRun.modeBudget`):
    /// none for the smoke suite, which checks the machinery; a tenth of the quick suite's time;
    /// two minutes of the full suite's.
    public var defaultModeBudgetSeconds: Int {
        switch self {
        case .smoke: 0
        case .quick: 20
        case .full: 120
        }
    }

    /// Seconds a run may spend, after every case's repetitions, on one round of more processes
    /// for the cases on which a first-screen answer hangs undecided (`AnswerRound`): none for the
    /// smoke suite; for the quick suite, whose answers these are, about a sixth of its time (the
    /// round takes the leaders of a hanging part too, `UndecidedAnswers`); the full suite's five
    /// processes of ten samples decide more on their own.
    public var defaultAnswerBudgetSeconds: Int {
        switch self {
        case .smoke: 0
        case .quick: 45
        case .full: 60
        }
    }

    public var description: String { rawValue }

    /// Minimum duration of one sample, in milliseconds, unless the user says otherwise. The quick
    /// suite's 5 ms is still 5,000 times the clock's resolution and longer than a scheduler tick.
    public var defaultSampleMilliseconds: Int { self == .quick ? 5 : 10 }
}
