import CaseCatalogue
import Harness
import Results

/// The figures workloads measure themselves, described once as counters are (`Workload.figures`):
/// the report reads their headings, notes and direction from results.json, and the ranking of
/// `footprint` its words ("smallest") from the direction and unit.

extension Metric {
    /// A workload figure whose column reads "name (unit)".
    static func figure(
        _ name: String, unit: MetricUnit, kind: MetricKind, polarity: Polarity = .lowerIsBetter,
        heading: String? = nil, note: String? = nil
    ) -> Metric {
        Metric(
            name, unit: unit, kind: kind, polarity: polarity, heading: heading ?? "\(name) (\(unit.rawValue))",
            note: note)
    }

    /// `<prefix>.p50` and `<prefix>.p99` in ns (`LatencyHistogram.percentileMetrics`), with one note.
    static func latencyPercentiles(_ prefix: String, note: String) -> [Metric] {
        ["p50", "p99"].map { figure("\(prefix).\($0)", unit: .nanoseconds, kind: .time, note: note) }
    }
}

extension Semaphores {
    public var figures: [Metric] {
        Metric.latencyPercentiles(
            "handoff_ns",
            note:
                "`handoff_ns.p50`/`.p99` is one hand-off's latency: from the sender's clock, "
                + "read just before `signal`, to the receiver's, read just after its `wait` returns, "
                + "over every pair's hand-offs. ns/op is a round's wall time divided by the hand-offs of all pairs "
                + "together: with one pair it is about the mean latency, but with several pairs at once "
                + "(`pingpong-oversubscribed`) their hand-offs overlap, so ns/op is a throughput figure and can be "
                + "several times below the p50.")
            + [.figure("max_holders", unit: .count, kind: .count)]
    }
}

extension Groups {
    public var figures: [Metric] {
        Metric.latencyPercentiles(
            "notify_ns",
            note:
                "`notify_ns.p50`/`.p99` is the time from the last `leave` to the start of the notify block; "
                + "ns/op is the whole operation (enter, notify registration, the leaving task's submission and run, "
                + "and the wake-up of the measuring thread), so it is always the larger.")
    }
}

extension QueueVsLock {
    /// Each participant's share of the work over an equal share: 1 is fair, and the further the
    /// least share falls below 1 the more some participant starved.
    public var figures: [Metric] {
        [
            .figure("fairness.min_share", unit: .share, kind: .event, polarity: .higherIsBetter),
            .figure("fairness.max_share", unit: .share, kind: .event),
        ]
    }
}

extension ApplyStride {
    public var figures: [Metric] { [.figure(Self.iterationsPerPiece, unit: .iterations, kind: .count)] }
}

extension Spin {
    public var figures: [Metric] { [.figure("injected-slowdown", unit: .factor, kind: .count)] }
}

extension Footprint {
    /// Memory per waiting unit of work: what the family ranks by.
    public var figures: [Metric] {
        [
            .figure(
                FigureName.residentBytesPerUnit.rawValue, unit: .bytes, kind: .event, heading: "resident bytes/unit"),
            .figure("footprint.virtual_bytes_per_unit", unit: .bytes, kind: .event),
        ]
    }
}

extension SwiftAsync {
    public var figures: [Metric] {
        Metric.latencyPercentiles(
            "hop_ns",
            note:
                "`hop_ns.p50`/`.p99` (actor-hop) is one hop's latency: from the clock read before a call to the one "
                + "read on the other actor's executor when it starts, and from the one read before it returns to the "
                + "caller's after, over one round trip in 8; ns/op is every hop's, the timed ones' clock reads "
                + "in it.")
            + Metric.latencyPercentiles(
                "resume_ns",
                note:
                    "`resume_ns.p50`/`.p99` (continuation) is from the clock read just before `resume`, on the "
                    + "pool's thread, to the suspended task running again on its executor.")
    }
}
