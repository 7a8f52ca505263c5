import Claims
import Results

/// A question's answer from one run, one line per part: the contenders best first with their
/// figures, and a verdict only where a repeat run would give the same one (`Faster`); "cannot be
/// told apart" otherwise, with the numbers on each side. Under the system allocator.
enum QuestionAnswer {
    /// "**Q**" and a bullet per part, for every question; `cpus`, the CPUs the children could
    /// use, turns a per-CPU thread count into threads.
    static func markdownLines(_ questions: [Question], cases: [MeasuredCase], cpus: Int? = nil) -> [String] {
        let system = cases.filter { $0.benchmarkCase.allocator == .system }
        return questions.flatMap { question -> [String] in
            let found = question.parts.map { part in part.contenders.contains { find($0, in: system) != nil } }
            guard found.contains(true) else {
                return ["- **\(question.text)** Not measured in this run: `\(question.measuredBy)` measures it."]
            }
            return ["- **\(question.text)**"]
                + question.parts.map { part in "  - \(part.shownCondition(cpus: cpus)): " + line(part, cases: system) }
        }
    }

    static func find(_ contender: Question.Contender, in cases: [MeasuredCase]) -> MeasuredCase? {
        cases.first { contender.spec.matches($0.benchmarkCase) }
    }

    static func line(_ part: Question.Part, cases: [MeasuredCase]) -> String {
        let missing = part.contenders.filter { find($0, in: cases)?.estimate == nil }.map(\.label)
        guard missing.count < part.contenders.count else { return "not measured in this run." }
        let absent = missing.isEmpty ? "" : " (not measured: \(Answers.leaders(missing)))"
        let clearly =
            switch part.figure {
            case .time: "clearly fastest"
            case .latency: "clearly lowest"
            }
        return rankedLine(entries(part, cases: cases), clearly: clearly) + absent + "."
    }

    /// The measured contenders of `part`, in the question's order, with the figure they are
    /// ranked by: the time per unit, its modes beside it; or the latency's p50, each process's p50
    /// one value, compared as a time is, with the p99 beside it.
    static func entries(_ part: Question.Part, cases: [MeasuredCase]) -> [Entry] {
        switch part.figure {
        case .time:
            return figures(part, cases: cases).map { entry in
                Entry(
                    label: entry.contender.label, caseID: entry.measured.benchmarkCase.id, estimate: entry.estimate,
                    detail: entry.estimate.modes.isEmpty ? "" : "; modes: \(Figures.modes(entry.estimate.modes))")
            }
        case .latency(let prefix):
            let found = part.contenders.compactMap { contender in
                find(contender, in: cases).map { (contender, $0) }
            }
            let estimates = RunEstimates(found.map(\.1.result)) { $0.workloadMetrics?["\(prefix).p50"]?.value }
            return found.compactMap { contender, measured -> Entry? in
                guard let estimate = estimates[measured.benchmarkCase.id] else { return nil }
                let p99 = measured.workloadMetric("\(prefix).p99").map { "; p99 \(Figures.nanoseconds($0.value))" }
                return Entry(
                    label: contender.label, caseID: measured.benchmarkCase.id, estimate: estimate, detail: p99 ?? "")
            }
        }
    }

    /// One contender of an answer: its figure, and what is said beside it in parentheses.
    struct Entry {
        let label: String
        let caseID: String
        let estimate: CaseEstimate
        /// After the figure, e.g. "; modes: …".
        let detail: String

        var shown: String { "\(label) \(figure)" }
        var figure: String { "(\(Figures.nanoseconds(estimate.value))\(detail))" }

        /// "actor (49 ns, 1.09×)": as `shown`, with the ratio to `best`'s figure.
        func shown(against best: Entry) -> String { "\(label) \(figure(against: best))" }

        /// "(49 ns, 1.09×)": the figure with its ratio to `best`'s.
        func figure(against best: Entry) -> String {
            "(\(Figures.nanoseconds(estimate.value)), \(Figures.ratio(estimate.value / best.estimate.value))\(detail))"
        }
    }

    /// What a part's answer says before it is worded: each measured contender's place against the
    /// best (`Standing.place`), in the question's order. The leaders are the ones a reader may
    /// choose; `undecided` and `dependsOnMode` are said as such, not as leading or as slower, so
    /// that a repeat run which settles them either way contradicts nothing (`contradictions`).
    struct Outcome: Equatable, Sendable {
        /// The best and every contender within `Standing.closeEnough` of it.
        let leaders: [String]
        /// More than `closeEnough` behind by their figures, but not clearly so.
        let undecided: [String]
        /// The leaders and the undecided, in the question's order: none of them clearly more than
        /// `closeEnough` behind the best, said as one group ("lead together"). Said apart, a
        /// contender near the 5% line (the automatic stride at 1.04× in one run, 1.06× in the next)
        /// moved between the two from one run to the next with nothing decided either way.
        let leadingGroup: [String]
        /// Faster than the best in one mode, slower in another.
        let dependsOnMode: [String]
        /// Clearly more than `closeEnough` behind the best.
        let behind: [String]

        /// The outcome of `entries`: nil with fewer than two.
        init?(_ entries: [Entry]) {
            guard entries.count > 1, let best = entries.min(by: { $0.estimate.value < $1.estimate.value }) else {
                return nil
            }
            let places = entries.map { ($0.label, Standing.place($0.estimate, withBest: best.estimate)) }
            func labels(_ place: Standing.Place) -> [String] { places.filter { $0.1 == place }.map(\.0) }
            leaders = labels(.leads)
            undecided = labels(.undecided)
            leadingGroup = places.filter { $0.1 == .leads || $0.1 == .undecided }.map(\.0)
            dependsOnMode = labels(.dependsOnMode)
            behind = labels(.behind)
        }

        /// One contender ahead of every other by more than `closeEnough`, and clearly so.
        var isClearlyBest: Bool { leaders.count == 1 && undecided.isEmpty && dependsOnMode.isEmpty }

        /// The contenders one run names a leader and the other clearly behind: the only way two
        /// answers can say opposite things.
        func contradictions(_ other: Outcome) -> [String] {
            leaders.filter { other.behind.contains($0) } + other.leaders.filter { behind.contains($0) }
        }
    }

    /// Every part of `questions` with its outcome in this run, under the system allocator; nil
    /// where fewer than two contenders were measured.
    static func outcomes(_ questions: [Question], cases: [MeasuredCase]) -> [(
        question: Question, part: Question.Part, outcome: Outcome?
    )] {
        let system = cases.filter { $0.benchmarkCase.allocator == .system }
        return questions.flatMap { question in
            question.parts.map { part in (question, part, Outcome(entries(part, cases: system))) }
        }
    }

    /// The answer line for contenders ranked by their estimates: the clear best with its margin
    /// and the rest with their ratios to it ("**Mutex** is clearly fastest at 4.8 ns, 10× ahead of
    /// actor (49 ns); then DispatchQueue.sync (67 ns, 14×)"); or the leader, or the leaders
    /// together (within 5% of the best, or more than 5% behind by their figures but within their
    /// processes' spread, each with its ratio), then those whose modes fall either side of the
    /// best, and those clearly slower.
    ///
    /// Each group is named in the question's order, every one of its contenders, so the same
    /// groups read the same in a repeat run whichever contender came first this time.
    static func rankedLine(_ entries: [Entry], clearly: String) -> String {
        let order = entries.indices.sorted { entries[$0].estimate.value < entries[$1].estimate.value }
        guard let first = order.first else { return "nothing measured" }
        let best = entries[first]
        guard let outcome = Outcome(entries) else { return "only \(best.shown) was measured" }
        if outcome.isClearlyBest {
            let runnerUp = entries[order[1]]
            // Each with its ratio to the best too: "56.6× ahead of async let on work-stealing; then
            // async let" left a reader to work out the 176× to the one most people would use.
            let rest = order.dropFirst(2).map { entries[$0].shown(against: best) }
            return "**\(best.label)** is \(clearly) at \(Figures.nanoseconds(best.estimate.value)), "
                + "\(Figures.ratio(runnerUp.estimate.value / best.estimate.value)) ahead of \(runnerUp.shown)"
                + (rest.isEmpty ? "" : "; then " + rest.joined(separator: ", "))
        }
        // In the question's order, but the slower ones by figure, as the clear best's line has them.
        func named(_ labels: [String]) -> [Entry] { entries.filter { labels.contains($0.label) } }
        let percent = "\(Int(Standing.closeEnough * 100))%"
        let group = named(outcome.leadingGroup)
        var line =
            group.count == 1
            ? "**\(best.label)** leads at \(Figures.nanoseconds(best.estimate.value))"
                + (best.detail.isEmpty ? "" : " (\(best.detail.dropFirst(2)))")
            : Answers.listed(
                group.map { "**\($0.label)** " + ($0.label == best.label ? $0.figure : $0.figure(against: best)) })
                + " lead together, none clearly more than \(percent) behind the fastest"
        let modal = named(outcome.dependsOnMode)
        if !modal.isEmpty {
            line +=
                "; ahead of or behind \(best.label) depending on the mode a process falls into: "
                + Answers.listed(modal.map(\.shown))
        }
        let slower = order.map { entries[$0] }.filter { outcome.behind.contains($0.label) }
        if !slower.isEmpty {
            line += "; clearly slower than \(best.label): " + slower.map(\.shown).joined(separator: ", ")
        }
        return line
    }

    /// Each measured contender of `part` in the question's order, with its case and its figure
    /// per unit (per iteration for a loop): what the answer line ranks and the question's chart draws.
    static func figures(_ part: Question.Part, cases: [MeasuredCase]) -> [(
        contender: Question.Contender, measured: MeasuredCase, estimate: CaseEstimate
    )] {
        part.contenders.compactMap { contender in
            guard let measured = find(contender, in: cases), let estimate = measured.estimate else { return nil }
            switch contender.perUnit {
            case .operation: return (contender, measured, estimate)
            case .iteration:
                guard let text = measured.benchmarkCase.parameter("iterations"), let iterations = Double(text),
                    iterations > 0
                else { return nil }
                return (contender, measured, estimate.scaled(by: 1 / iterations))
            }
        }
    }
}
