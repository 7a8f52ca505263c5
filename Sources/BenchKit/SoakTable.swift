import Results
import Soak

/// `bench soak`'s tables: operations by kind, then memory and verdict, one row per backend.
enum SoakTable {
    static func print(_ verdicts: [SoakVerdict]) {
        guard !verdicts.isEmpty else { return }
        let kinds = SoakOperations().byKind.map(\.kind)
        var operations = [["backend", "rounds"] + kinds + ["total", "per s"]]
        var memory = [["backend", "RSS before", "after warm-up", "at end", "peak", "growth", "verdict"]]
        for verdict in verdicts {
            guard let report = verdict.report else {
                operations.append([verdict.backend, "—"] + kinds.map { _ in "—" } + ["—", "—"])
                memory.append([verdict.backend, "—", "—", "—", "—", "—", "FAILED: \(verdict.reason ?? "")"])
                continue
            }
            let perSecond = report.seconds > 0 ? Int((Double(report.operations.total) / report.seconds).rounded()) : 0
            operations.append(
                [report.backend, "\(report.rounds)"] + report.operations.byKind.map { "\($0.count)" }
                    + ["\(report.operations.total)", "\(perSecond)"])
            let mib = { (bytes: Int?) in bytes.map { SoakVerdict.mebibytes($0) } ?? "not measured" }
            memory.append([
                report.backend, mib(report.residentBefore), mib(report.residentAfterWarmUp), mib(report.residentAtEnd),
                mib(report.residentPeak), report.residentGrowth.map { SoakVerdict.mebibytes($0, signed: true) } ?? "—",
                verdict.passed
                    ? "passed" + (verdict.reason.map { " (\($0))" } ?? "") : "FAILED: \(verdict.reason ?? "")",
            ])
        }
        TextTable(rows: operations) { $0 > 0 }.lines.forEach { Swift.print($0) }
        Swift.print("")
        TextTable(rows: memory) { $0 > 0 && $0 < memory[0].count - 1 }.lines.forEach { Swift.print($0) }
    }
}
