import Claims
import Gate
import Results

/// Runs of one suite on several machines, each analysed once on its own (`RunAnalysis`) and then
/// set side by side: every case's figure per machine, and every "clearly" that some machine's
/// report states (a parameter set's winner over its runner-up, jemalloc against the system
/// allocator, a claim's verdict) checked on every machine, with the machines where it does not
/// hold. `bench report A.json B.json …` renders it (`MachineReport`, `MachineCharts`).
///
/// A figure is only compared with another machine's as a ratio; whether a statement holds is
/// decided within each machine's own run, where its processes were measured together.
public struct MachineComparison: Sendable {
    public struct Machine: Sendable {
        /// "M1", "M2", … in the order the files were given: the report's column headings.
        public let label: String
        public let file: String
        public let analysis: RunAnalysis
        public let fingerprint: MachineFingerprint
        let cases: [MeasuredCase]

        public var run: RunResults { analysis.run }
    }

    /// One statement and, per machine in `machines` order, what that machine's run says of it.
    public struct Statement: Sendable {
        public let text: String
        public let outcomes: [Agreement.Statement.Outcome]

        /// The labels of the machines where it does not hold, with what they say instead.
        public func exceptions(_ machines: [Machine]) -> [(label: String, outcome: Agreement.Statement.Outcome)] {
            zip(machines, outcomes).filter { $0.1 != .holds }.map { ($0.0.label, $0.1) }
        }

        public var holdsEverywhere: Bool { outcomes.allSatisfy { $0 == .holds } }
    }

    /// Why files cannot be set side by side.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        /// Two files ran different suites, so their cases and parameters differ.
        case differentSuites(first: String, firstSuite: Suite, other: String, otherSuite: Suite)

        public var description: String {
            switch self {
            case .differentSuites(let first, let firstSuite, let other, let otherSuite):
                "\(first) ran the \(firstSuite) suite and \(other) the \(otherSuite) suite: "
                    + "a report across machines sets the same cases side by side; run one suite everywhere"
            }
        }
    }

    public let machines: [Machine]
    /// Each parameter set's clear winner over its runner-up on any machine (system allocator).
    public let winners: [Statement]
    /// Each case where jemalloc is clearly faster or slower than the system allocator on any machine.
    public let allocators: [Statement]
    /// Per claim (in the claims' order), its verdict on each machine.
    public let claims: [(claim: String, statement: String, verdicts: [Verdict?])]

    /// `runs` as (file, run), in the order given; at least two.
    public init(_ runs: [(file: String, run: RunResults)]) throws(Refusal) {
        precondition(runs.count >= 2, "a comparison across machines needs two runs")
        for other in runs.dropFirst() where other.run.suite != runs[0].run.suite {
            throw .differentSuites(
                first: runs[0].file, firstSuite: runs[0].run.suite, other: other.file, otherSuite: other.run.suite)
        }
        machines = runs.enumerated().map { index, input in
            let analysis = RunAnalysis(input.run)
            return Machine(
                label: "M\(index + 1)", file: input.file, analysis: analysis,
                fingerprint: MachineFingerprint(input.run.environment),
                cases: MeasuredCase.all(input.run, estimates: analysis.estimates))
        }
        winners = Self.merge(machines) { Agreement.winnerStatements($0.cases, $1.cases) }
        allocators = Self.merge(machines) { Agreement.allocatorStatements($0.cases, $1.cases) }
        var claimOrder: [(String, String)] = []
        var verdicts: [String: [Verdict?]] = [:]
        for (index, machine) in machines.enumerated() {
            for verdict in machine.analysis.verdicts {
                if verdicts[verdict.claim] == nil {
                    claimOrder.append((verdict.claim, verdict.statement))
                    verdicts[verdict.claim] = Array(repeating: nil, count: machines.count)
                }
                verdicts[verdict.claim]![index] = verdict.verdict
            }
        }
        claims = claimOrder.map { ($0.0, $0.1, verdicts[$0.0]!) }
    }

    /// Machines whose identities agree in every field: two runs on one machine, or on machines
    /// built alike (a CI matrix of one instance type). Each group has two labels or more.
    public var alike: [[String]] {
        var groups: [[Machine]] = []
        for machine in machines {
            if let index = groups.firstIndex(where: { $0[0].fingerprint == machine.fingerprint }) {
                groups[index].append(machine)
            } else {
                groups.append([machine])
            }
        }
        return groups.filter { $0.count > 1 }.map { $0.map(\.label) }
    }

    /// Every case id of any machine, in the first order each appears.
    public var caseIDs: [String] {
        var seen = Set<String>()
        return machines.flatMap { $0.run.cases.map(\.benchmarkCase.id) }.filter { seen.insert($0).inserted }
    }

    /// Each machine's statements (made there, checked on every machine by `check(made, on)`),
    /// merged by their words: a statement made on several machines is one row.
    private static func merge(
        _ machines: [Machine],
        check: (_ made: Machine, _ on: Machine) -> [Agreement.Statement]
    ) -> [Statement] {
        var order: [String] = []
        var outcomes: [String: [Agreement.Statement.Outcome]] = [:]
        for made in machines {
            let checked = machines.map { check(made, $0) }
            for (position, statement) in checked[0].enumerated() where outcomes[statement.text] == nil {
                order.append(statement.text)
                outcomes[statement.text] = checked.map { $0[position].outcome }
            }
        }
        return order.map { Statement(text: $0, outcomes: outcomes[$0]!) }
    }
}
