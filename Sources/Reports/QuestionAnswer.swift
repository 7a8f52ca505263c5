import Claims
import Results

/// A question's answer from one run, one line per part: the contenders best first with their
/// figures, and a verdict only where a repeat run would give the same one (`Faster`); "cannot be
/// told apart" otherwise, with the numbers on each side. Under the system allocator.
enum QuestionAnswer {
    /// "**Q**" and a bullet per part, for every question.
    static func markdownLines(_ questions: [Question], cases: [MeasuredCase]) -> [String] {
        let system = cases.filter { $0.benchmarkCase.allocator == .system }
        return questions.flatMap { question -> [String] in
            let found = question.parts.map { part in part.contenders.contains { find($0, in: system) != nil } }
            guard found.contains(true) else {
                return ["- **\(question.text)** Not measured in this run: `\(question.measuredBy)` measures it."]
            }
            return ["- **\(question.text)**"]
                + question.parts.map { part in "  - \(part.condition): " + line(part, cases: system) }
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
    }

    /// What a part's answer says before it is worded: the contenders a reader may choose (the
    /// one clearly best, or every one that leads with the best, in the question's order) and why
    /// they lead together. Two runs give the same answer when they name the same leaders.
    struct Outcome: Equatable, Sendable {
        let leaders: [String]
        let reason: Reason

        enum Reason: Equatable, Sendable {
            /// One contender, clearly ahead of every other by more than `Standing.closeEnough`.
            case clearlyBest
            /// Within `Standing.closeEnough`, or closer than their processes' spread.
            case close
            /// A mode of one is faster than the best, another slower (`Faster.dependsOnMode`).
            case dependsOnMode
        }

        /// The outcome of `entries`: nil with fewer than two.
        init?(_ entries: [Entry]) {
            guard entries.count > 1, let best = entries.min(by: { $0.estimate.value < $1.estimate.value }) else {
                return nil
            }
            let leading = entries.filter { Standing.leads($0.estimate, withBest: best.estimate) }
            leaders = leading.map(\.label)
            reason =
                leading.count == 1
                ? .clearlyBest
                : leading.contains { Faster(best.estimate, $0.estimate) == .dependsOnMode } ? .dependsOnMode : .close
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
    /// and the rest ("**Mutex** is clearly fastest at 4.8 ns, 10× ahead of actor (49 ns); then
    /// DispatchQueue.sync (67 ns)"), or the leaders together and those clearly slower than the best.
    ///
    /// Leaders are those that lead with the best (`Standing.leads`), wherever they rank: a wide
    /// interval further down can reach the best's when a closer, narrower one does not. They are
    /// named in the question's order, every one of them, so the same set reads the same in a
    /// repeat run whichever of them came first this time.
    static func rankedLine(_ entries: [Entry], clearly: String) -> String {
        let order = entries.indices.sorted { entries[$0].estimate.value < entries[$1].estimate.value }
        guard let first = order.first else { return "nothing measured" }
        let best = entries[first]
        guard let outcome = Outcome(entries) else { return "only \(best.shown) was measured" }
        let rest = order.filter { !outcome.leaders.contains(entries[$0].label) }.map { entries[$0] }
        let why: String
        switch outcome.reason {
        case .clearlyBest:
            let runnerUp = entries[order[1]]
            return "**\(best.label)** is \(clearly) at \(Figures.nanoseconds(best.estimate.value)), "
                + "\(Figures.ratio(runnerUp.estimate.value / best.estimate.value)) ahead of \(runnerUp.shown)"
                + (rest.count > 1 ? "; then " + rest.dropFirst().map(\.shown).joined(separator: ", ") : "")
        case .dependsOnMode: why = "which is faster depends on the mode a process falls into"
        case .close:
            why =
                "any of them: within \(Int(Standing.closeEnough * 100))% of each other, "
                + "or closer than their processes' spread"
        }
        let named = entries.filter { outcome.leaders.contains($0.label) }.map { "**\($0.label)** \($0.figure)" }
        return named.dropLast().joined(separator: ", ") + " and " + named.last! + " lead together, \(why)"
            + (rest.isEmpty ? "" : "; clearly slower than \(best.label): " + rest.map(\.shown).joined(separator: ", "))
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
