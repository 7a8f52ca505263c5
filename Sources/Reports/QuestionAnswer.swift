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
        switch part.figure {
        case .time: return timeLine(part, cases: cases) + absent + "."
        case .latency(let prefix): return latencyLine(part, prefix: prefix, cases: cases) + absent + "."
        }
    }

    /// "**Mutex** is clearly fastest at 4.8 ns, 10× ahead of actor (49 ns); then DispatchQueue.sync (67 ns)";
    /// with a tie, the leaders with their figures and those clearly slower than the best.
    static func timeLine(_ part: Question.Part, cases: [MeasuredCase]) -> String {
        let ranked = figures(part, cases: cases).map { (label: $0.contender.label, estimate: $0.estimate) }
            .sorted { $0.estimate.value < $1.estimate.value }
        guard let best = ranked.first else { return "nothing measured" }
        func figure(_ entry: (label: String, estimate: CaseEstimate)) -> String {
            let modes = entry.estimate.modes.isEmpty ? "" : "; modes: \(Figures.modes(entry.estimate.modes))"
            return "(\(Figures.nanoseconds(entry.estimate.value))\(modes))"
        }
        func shown(_ entry: (label: String, estimate: CaseEstimate)) -> String { "\(entry.label) \(figure(entry))" }
        guard ranked.count > 1 else { return "only \(shown(best)) was measured" }
        // Those not clearly behind the best, wherever they rank (a wide interval further down can
        // reach the best's when a closer, narrower one does not), and those within `closeEnough`
        // of it: a difference of a few percent is no reason to choose, and it would flip between
        // "clearly" and "a tie" from one run to the next.
        let verdicts = ranked.map { Faster(best.estimate, $0.estimate) }
        let leading = ranked.indices.filter { index in
            verdicts[index] != .first || ranked[index].estimate.value <= best.estimate.value * (1 + closeEnough)
        }
        let leaders = leading.map { ranked[$0] }
        let rest = ranked.indices.filter { !leading.contains($0) }.map { ranked[$0] }
        if leaders.count == 1 {
            let runnerUp = ranked[1]
            return "**\(best.label)** is clearly fastest at \(Figures.nanoseconds(best.estimate.value)), "
                + "\(Figures.ratio(runnerUp.estimate.value / best.estimate.value)) ahead of \(shown(runnerUp))"
                + (rest.count > 1 ? "; then " + rest.dropFirst().map(shown).joined(separator: ", ") : "")
        }
        let why =
            leading.contains { verdicts[$0] == .dependsOnMode }
            ? "which is faster depends on the mode a process falls into"
            : "any of them: within \(Int(closeEnough * 100))% of each other, or closer than their processes' spread"
        return Answers.leaders(leaders.map { "**\($0.label)** \(figure($0))" }) + " lead together, \(why)"
            + (rest.isEmpty ? "" : "; clearly slower than \(best.label): " + rest.map(shown).joined(separator: ", "))
    }

    /// Contenders within this fraction of the best lead with it, however clearly they differ.
    static let closeEnough = 0.05

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

    /// "default actors 45 ns (61 ns), fifo-dispatch's serial executors 170 ns (356 ns), …", by p50.
    static func latencyLine(_ part: Question.Part, prefix: String, cases: [MeasuredCase]) -> String {
        let ranked = part.contenders.compactMap { contender -> (label: String, p50: Double, p99: Double?)? in
            guard let measured = find(contender, in: cases), let p50 = measured.workloadMetric("\(prefix).p50")
            else { return nil }
            return (contender.label, p50.value, measured.workloadMetric("\(prefix).p99")?.value)
        }.sorted { $0.p50 < $1.p50 }
        guard !ranked.isEmpty else { return "nothing measured" }
        return ranked.map { entry in
            "\(entry.label) \(Figures.nanoseconds(entry.p50))"
                + (entry.p99.map { " (\(Figures.nanoseconds($0)))" } ?? "")
        }.joined(separator: ", ")
    }
}
