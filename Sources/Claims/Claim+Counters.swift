import Results

/// Claims about counts of events (system calls, page faults), which have no sampling interval:
/// a count per operation is a median over the processes, and the verdicts use wide margins
/// instead (a threshold far from the boundary, a factor between two counts).
extension Claim {
    /// Resolves a counter reading: its value per operation, or why there is none.
    static func read(_ reading: CounterReading, in evidence: Evidence) -> Result<Reading, Evidence.Missing> {
        let side = reading.side
        switch evidence.find(side.spec, label: side.label) {
        case .failure(let missing): return .failure(missing)
        case .success(let measured):
            guard let value = measured.counter(reading.counter) else {
                return .failure(Evidence.Missing("\(measured.id): \(evidence.whyUnavailable(reading.counter))"))
            }
            return .success(
                (value, "\(side.label): \(Self.format(value)) \(reading.shown ?? reading.counter) \(reading.per)"))
        }
    }

    static func format(_ value: Double) -> String {
        value == 0 ? "0" : value < 0.001 ? "<0.001" : Figures.value(value)
    }

    /// A counter's value per operation and its evidence line.
    typealias Reading = (value: Double, line: String)

    /// `rule` applied to both readings, or, when either is missing, an inconclusive judgement
    /// that quotes whichever was measured.
    static func judgeBoth(
        _ first: CounterReading, _ second: CounterReading, in evidence: Evidence,
        _ rule: (Reading, Reading) -> Judgement
    ) -> Judgement {
        let readings = (read(first, in: evidence), read(second, in: evidence))
        switch readings {
        case (.success(let one), .success(let other)):
            return rule(one, other)
        case (.failure(let missing), _), (_, .failure(let missing)):
            let lines = [readings.0, readings.1].compactMap { try? $0.get().line }
            return Judgement(.inconclusive, lines, "not measured: \(missing.reason)")
        }
    }

    /// "Every operation of `reading` causes the event": supported at `supportedAtLeast` or more per
    /// operation, refuted below `refutedBelow`, inconclusive between. `context` readings are
    /// quoted beside it when present.
    static func counterAtLeast(
        id: String, layer: ClaimLayer, statement: String, conditions: String, reading: CounterReading,
        supportedAtLeast: Double, refutedBelow: Double, context: [CounterReading]
    ) -> Claim {
        Claim(
            id: id, layer: layer, statement: statement, conditions: conditions,
            cited: ([reading] + context).map(\.side.spec), readings: [reading]
        ) { evidence in
            let extra = context.compactMap { try? read($0, in: evidence).get().line }
            switch read(reading, in: evidence) {
            case .failure(let missing):
                return Judgement(.inconclusive, extra, "not measured: \(missing.reason)")
            case .success(let (value, line)):
                if value >= supportedAtLeast {
                    return Judgement(.supported, [line] + extra, "at least \(format(supportedAtLeast)) per operation")
                }
                if value < refutedBelow {
                    return Judgement(
                        .refuted, [line] + extra,
                        "fewer than \(format(refutedBelow)) per operation: almost every operation stays in user space")
                }
                return Judgement(
                    .inconclusive, [line] + extra,
                    "between \(format(refutedBelow)) and \(format(supportedAtLeast)) per operation: "
                        + "some operations, not all")
            }
        }
    }

    /// "The kernel is entered when an operation blocks and only then": supported when the
    /// operation that never blocks (`free`) makes fewer than 0.01 system calls and the one that
    /// always blocks at least 0.5; refuted when the free one makes 0.5 or more.
    static func blockingOnlyTraps(
        id: String, layer: ClaimLayer, statement: String, conditions: String, free: CounterReading,
        blocking: CounterReading
    ) -> Claim {
        Claim(
            id: id, layer: layer, statement: statement, conditions: conditions,
            cited: [free.side.spec, blocking.side.spec], readings: [free, blocking]
        ) { evidence in
            judgeBoth(free, blocking, in: evidence) { quiet, blocked in
                let lines = [quiet.line, blocked.line]
                if quiet.value >= 0.5 {
                    return Judgement(.refuted, lines, "the operation that never blocks enters the kernel")
                }
                if quiet.value < 0.01 && blocked.value >= 0.5 {
                    return Judgement(
                        .supported, lines, "no system call without blocking, at least one every other blocking hand-off"
                    )
                }
                return Judgement(
                    .inconclusive, lines,
                    "the counts fall between the thresholds (under 0.01 without blocking, 0.5 or more with)")
            }
        }
    }

    /// "`claimed` causes fewer events than `than`": supported when `than` has at least twice as
    /// many and at least `margin` more (half an event per operation by default), refuted in the
    /// mirror case.
    static func fewerEvents(
        id: String, layer: ClaimLayer, statement: String, conditions: String, claimed: CounterReading,
        than other: CounterReading,
        margin: Double = 0.5, marginText: String = "half an event per operation"
    ) -> Claim {
        Claim(
            id: id, layer: layer, statement: statement, conditions: conditions,
            cited: [claimed.side.spec, other.side.spec], readings: [claimed, other]
        ) { evidence in
            judgeBoth(claimed, other, in: evidence) { mine, theirs in
                let lines = [mine.line, theirs.line]
                if theirs.value >= 2 * mine.value && theirs.value - mine.value >= margin {
                    return Judgement(
                        .supported, lines, "\(other.side.label) takes at least twice as much, and \(marginText) more")
                }
                if mine.value >= 2 * theirs.value && mine.value - theirs.value >= margin {
                    return Judgement(
                        .refuted, lines, "\(claimed.side.label) takes at least twice as much, and \(marginText) more")
                }
                return Judgement(.inconclusive, lines, "the figures differ by less than a factor of 2 or \(marginText)")
            }
        }
    }
}
