import Charts
import Results

/// The first screen's answers drawn: for each part of a question compared by time, one row per
/// measured contender, best first, its figure with its comparison interval as a band, so "cannot
/// be told apart" is bands that overlap. From the cases the quick suite measures for the answers,
/// nothing more. The stride question is left out (its stride curves draw it), and so are latency
/// parts (their percentile charts do). Each chart goes with the family of the part's first
/// measured contender. System allocator, as the answers.
enum QuestionCharts {
    static func all(_ cases: [MeasuredCase]) -> [ReportChart] {
        let system = cases.filter { $0.benchmarkCase.allocator == .system }
        return Question.firstScreen.filter { $0.text != Question.smallBodyStride.text }.flatMap { question in
            question.parts.compactMap { part in chart(question, part, cases: system) }
        }
    }

    static func chart(_ question: Question, _ part: Question.Part, cases: [MeasuredCase]) -> ReportChart? {
        guard case .time = part.figure else { return nil }
        let measured = QuestionAnswer.figures(part, cases: cases)
        guard measured.count >= 2, measured.allSatisfy({ $0.estimate.value > 0 }), let first = measured.first else {
            return nil
        }
        let perIteration = measured.map { $0.contender.perUnit == .iteration }
        let unit =
            perIteration.allSatisfy { $0 } ? "iteration" : perIteration.contains(true) ? "piece of work" : "operation"
        let rows = measured.sorted { $0.estimate.value < $1.estimate.value }.map { entry in
            let interval = entry.estimate.comparisonInterval
            return IntervalChart.Row(
                name: entry.contender.label,
                point: LineChart.Point(
                    x: 0, y: entry.estimate.value, interval: (interval.lower, interval.upper),
                    note: LineChart.Note(
                        subject: entry.measured.benchmarkCase.id,
                        figure: Figures.nanoseconds(entry.estimate.value)
                            + " per \(entry.contender.perUnit == .iteration ? "iteration" : "operation")",
                        interval: "\(ReportChart.Band.comparison.name) " + Figures.interval(interval)
                            + (interval.upper.isFinite ? " ns" : ""),
                        processes: entry.estimate.processes)))
        }
        let condition = MarkdownHTML.plainText(part.condition)
        let chart = IntervalChart(
            title: question.text, subtitle: "\(condition); \(ReportChart.allocatorSubtitle)",
            axisLabel: "ns per \(unit)" + (unit == "piece of work" ? " (a loop's: per iteration)" : "")
                + ", median (log scale)",
            rows: rows, bandLegend: ReportChart.Band.comparison.legend)
        return ReportChart(
            file: ReportChart.fileName("question-" + slug(question.text) + "--" + slug(condition)),
            title: "\(question.text) \(condition)", section: .family(first.measured.benchmarkCase.workload),
            svg: chart.svg())
    }

    /// Its first lower-case words joined by dashes, at most `length` characters: enough of a file
    /// name to say which question it is ("µs" kept as "us", as the suite's parameters write it).
    static func slug(_ text: String, length: Int = 40) -> String {
        let words = text.lowercased().replacing("µs", with: "us").split {
            !($0.isASCII && ($0.isLetter || $0.isNumber))
        }
        var slug = ""
        for word in words {
            guard slug.count + word.count < length else { break }
            slug += (slug.isEmpty ? "" : "-") + word
        }
        return slug
    }
}
