/// Claims about counts of events (system calls, page faults), which have no sampling interval:
/// a count per operation is a median over the processes, and the verdicts use wide margins
/// instead (a threshold far from the boundary, a factor between two counts).
extension Claim {
    /// Resolves a counter reading: its value per operation, or why there is none.
    static func read(_ reading: CounterReading, in evidence: Evidence) -> Result<(value: Double, line: String), Evidence.Missing> {
        let side = reading.side
        switch evidence.find(side.workload, backend: side.backend, side.parameters, label: side.label) {
        case .failure(let missing): return .failure(missing)
        case .success(let measured):
            guard let value = measured.counter(reading.counter) else {
                return .failure(Evidence.Missing("\(measured.id): \(evidence.whyUnavailable(reading.counter))"))
            }
            return .success((value, "\(side.label): \(Self.format(value)) \(reading.shown ?? reading.counter) \(reading.per)"))
        }
    }

    static func format(_ value: Double) -> String {
        value == 0 ? "0" : value < 0.001 ? "<0.001" : Evidence.Measured.format(value)
    }

    /// "Every operation of `reading` causes the event": supported at `supportedAtLeast` or more per
    /// operation, refuted below `refutedBelow`, inconclusive between. `context` readings are
    /// quoted beside it when present.
    static func counterAtLeast(id: String, statement: String, conditions: String, reading: CounterReading,
                               supportedAtLeast: Double, refutedBelow: Double, context: [CounterReading]) -> Claim {
        Claim(id: id, statement: statement) { evidence in
            let extra = context.compactMap { try? read($0, in: evidence).get().line }
            switch read(reading, in: evidence) {
            case .failure(let missing):
                return ClaimVerdict(claim: id, statement: statement, verdict: .inconclusive, evidence: extra, conditions: conditions,
                                    reason: "not measured: \(missing.reason)")
            case .success(let (value, line)):
                let (verdict, reason): (Verdict, String) =
                    value >= supportedAtLeast ? (.supported, "at least \(format(supportedAtLeast)) per operation")
                    : value < refutedBelow ? (.refuted, "fewer than \(format(refutedBelow)) per operation: almost every operation stays in user space")
                    : (.inconclusive, "between \(format(refutedBelow)) and \(format(supportedAtLeast)) per operation: some operations, not all")
                return ClaimVerdict(claim: id, statement: statement, verdict: verdict, evidence: [line] + extra, conditions: conditions, reason: reason)
            }
        }
    }

    /// "The kernel is entered when an operation blocks and only then": supported when the
    /// operation that never blocks (`free`) makes fewer than 0.01 system calls and the one that
    /// always blocks at least 0.5; refuted when the free one makes 0.5 or more.
    static func blockingOnlyTraps(id: String, statement: String, conditions: String, free: CounterReading, blocking: CounterReading) -> Claim {
        Claim(id: id, statement: statement) { evidence in
            func verdict(_ verdict: Verdict, _ lines: [String], _ reason: String) -> ClaimVerdict {
                ClaimVerdict(claim: id, statement: statement, verdict: verdict, evidence: lines, conditions: conditions, reason: reason)
            }
            let readings = (read(free, in: evidence), read(blocking, in: evidence))
            switch readings {
            case (.failure(let missing), _), (_, .failure(let missing)):
                let lines = [readings.0, readings.1].compactMap { try? $0.get().line }
                return verdict(.inconclusive, lines, "not measured: \(missing.reason)")
            case (.success(let quiet), .success(let blocked)):
                let lines = [quiet.line, blocked.line]
                if quiet.value >= 0.5 { return verdict(.refuted, lines, "the operation that never blocks enters the kernel") }
                if quiet.value < 0.01 && blocked.value >= 0.5 {
                    return verdict(.supported, lines, "no system call without blocking, at least one every other blocking hand-off")
                }
                return verdict(.inconclusive, lines, "the counts fall between the thresholds (under 0.01 without blocking, 0.5 or more with)")
            }
        }
    }

    /// "`claimed` causes fewer events than `than`": supported when `than` has at least twice as
    /// many and at least `margin` more (half an event per operation by default), refuted in the
    /// mirror case.
    static func fewerEvents(id: String, statement: String, conditions: String, claimed: CounterReading, than other: CounterReading,
                            margin: Double = 0.5, marginText: String = "half an event per operation") -> Claim {
        Claim(id: id, statement: statement) { evidence in
            func verdict(_ verdict: Verdict, _ lines: [String], _ reason: String) -> ClaimVerdict {
                ClaimVerdict(claim: id, statement: statement, verdict: verdict, evidence: lines, conditions: conditions, reason: reason)
            }
            let readings = (read(claimed, in: evidence), read(other, in: evidence))
            switch readings {
            case (.failure(let missing), _), (_, .failure(let missing)):
                let lines = [readings.0, readings.1].compactMap { try? $0.get().line }
                return verdict(.inconclusive, lines, "not measured: \(missing.reason)")
            case (.success(let mine), .success(let theirs)):
                let lines = [mine.line, theirs.line]
                if theirs.value >= 2 * mine.value && theirs.value - mine.value >= margin {
                    return verdict(.supported, lines, "\(other.side.label) takes at least twice as much, and \(marginText) more")
                }
                if mine.value >= 2 * theirs.value && mine.value - theirs.value >= margin {
                    return verdict(.refuted, lines, "\(claimed.side.label) takes at least twice as much, and \(marginText) more")
                }
                return verdict(.inconclusive, lines, "the figures differ by less than a factor of 2 or \(marginText)")
            }
        }
    }
}
