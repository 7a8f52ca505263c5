import ArgumentParser
import Backends
import Fidelity
import Harness
import Results
import Reports
import Workloads

/// `bench fidelity`: every suite path beside the same operation written directly against the
/// runtime, interleaved in one run, with the verdict of the bound.
struct FidelityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        abstract:
            "Check that the suite's figures are the runtimes' figures: each protocol path beside its direct reference.",
        discussion: """
            For every operation the suite publishes that has a direct form (a pthread mutex, \
            Mutex.withLock, a POSIX semaphore, pthread_create + join, a serial queue's sync, async \
            + drain, chained async, tasks from outside the pool, group fan-out and enter + leave, \
            semaphore wait + signal, apply at the suite's strides, an actor call, a task group's \
            child, `Task { }.value`), runs the suite's case and the `direct` case \
            that performs the same operation directly: C for libdispatch-c and the pthread and \
            POSIX primitives, idiomatic Swift (`DispatchQueue.sync { }`, `concurrentPerform`, \
            `Mutex.withLock`) for libdispatch, the concrete type in a plain loop for our own \
            backends, and for the async operations plain Swift on each backend's executors (Swift's \
            own on swift-concurrency). The two run back to back in every repetition, each in its own process, so \
            drift hits both alike. A row's figure is the median over processes of each process's \
            median, per unit (per iteration for apply).

            A suite figure is faithful when it is within 0.8–1.25× of the direct figure or at \
            most 3 ns from it, whichever is looser. The bound has two sides: a reference slower \
            than the suite pays for something the suite does not, and validates nothing. Where \
            the direct layer is idiomatic Swift, its gap to the C row is the Swift overlay's own \
            cost. With --allocator jemalloc each row also \
            gives the bytes the measuring thread allocated per operation on both sides: the suite \
            must allocate no more than its reference (1 byte of slack, less than any allocation), \
            except where the runtime allocates by how the work was scheduled (apply, async, \
            chained async), whose bytes are shown but not judged.

            A row is over the bound only when the suite's interval (from the spread between its \
            processes) lies wholly above the bound of the direct interval's upper end, and under \
            it only when it lies wholly below the bound of the direct interval's lower end; a \
            figure outside the bound with overlapping intervals is `unclear`: its processes \
            disagree, and more --repetitions decide it.

            --gate says what fails the run. `time` (the default): a row clearly over or under the \
            bound, or one that allocates more. `allocations`: only a row that allocates more, or has no \
            allocation figure; timing verdicts are printed but do not fail, which suits a CI \
            machine whose timing cannot be trusted.

            Exit status: 0 nothing the gate checks failed (unclear rows do not fail), 1 something \
            did (or a row has no figure: a case failed), 2 an unwritable --json or --out, 64 a \
            mistake on the command line (an unknown suite, backend, allocator or gate, an --out \
            that holds another run); 130/143 when interrupted.

            Examples:
              bench fidelity
              bench fidelity --backend libdispatch-c --repetitions 5
              bench fidelity --suite smoke --allocator jemalloc --gate allocations
            """
    )

    @Option(
        help:
            """
            Which references: smoke (sync, semaphore, one apply, an actor call), quick (those of the quick suite) \
            or full (every operation).
            """)
    var suite: String = Suite.full.rawValue

    @Option(
        name: .customLong("backend"), help: "Only this backend (repeatable); the rows without a backend always run.")
    var backends: [String] = []

    /// Five, not the suites' two or three: async and chained async can settle into a fast or a
    /// slow mode per process, on both sides alike, and the median of three falls in the slow mode
    /// often enough to flip a verdict between runs.
    @Option(parsing: .unconditional, help: "Child processes per case, each pair run back to back.")
    var repetitions = 5

    @Option(
        name: .customLong("allocator"),
        help:
            """
            Run the pairs under this allocator (repeatable): system (default), jemalloc \
            (adds bytes allocated per operation).
            """)
    var allocators: [String] = []

    @Option(
        help:
            """
            What fails the run: time (a row clearly over or under the bound, or allocating more) or allocations \
            (only allocating more; needs --allocator jemalloc).
            """)
    var gate: String = Gate.time.rawValue

    enum Gate: String, CaseIterable { case time, allocations }

    @OptionGroup var measurement: MeasurementOptions

    @Option(
        help:
            """
            Also write the rows as JSON to this file (fields operation, backend, suite_ns, direct_ns, \
            ratio, within_bound, ...).
            """)
    var json: String?

    @OptionGroup var output: RunOutput

    /// The suite, backends, allocators and gate the options name; a name this bench does not know
    /// is a command-line mistake.
    private func choices() throws(PlanError) -> (suite: Suite, backends: [Backend], allocators: [Allocator], gate: Gate)
    {
        guard let chosenSuite = Suite(rawValue: suite) else {
            throw .invalid("unknown suite '\(suite)'; valid: \(Suite.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let chosenGate = Gate(rawValue: gate) else {
            throw .invalid("unknown gate '\(gate)'; valid: \(Gate.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let chosenBackends = try RunPlan.select(backends, from: Backends.all, kind: "backend") { $0.id }
        let chosenAllocators =
            allocators.isEmpty
            ? [Allocator.system]
            : try RunPlan.select(allocators, from: Allocator.allCases, kind: "allocator") { $0.rawValue }
        return (chosenSuite, chosenBackends, chosenAllocators, chosenGate)
    }

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1, got \(repetitions)") }
        let chosen: (suite: Suite, backends: [Backend], allocators: [Allocator], gate: Gate)
        do { chosen = try choices() } catch { throw ValidationError(error.description) }
        if chosen.gate == .allocations, !chosen.allocators.contains(.jemalloc) {
            throw ValidationError(
                "--gate allocations needs --allocator jemalloc: only jemalloc counts the bytes allocated per operation")
        }
    }

    func run() throws {
        let files = CommandFiles(command: "fidelity")
        let chosen = try choices()  // validate() has checked them
        let (chosenSuite, chosenAllocators, chosenGate) = (chosen.suite, chosen.allocators, chosen.gate)
        try files.checkWritable(json, option: "--json")
        let plan = try Self.plan(
            suite: chosenSuite, backends: chosen.backends, allocators: chosenAllocators, repetitions: repetitions)
        let directory = output.directory(prefix: "fidelity-")
        let measured = measurement, output = output
        let run = try runBlocking {
            try await RunAndWrite.run(
                plan, suite: chosenSuite, measurement: measured, output: output, directory: directory,
                label: "bench fidelity"
            ).run
        }
        let rows = FidelityRow.rows(in: run.cases)
        // The allocation columns only where some row has a figure (jemalloc).
        let columns = FidelityReport.header.count - (rows.contains { $0.suiteAllocatedBytes != nil } ? 0 : 2)
        TextTable(rows: ([FidelityReport.header] + rows.map(FidelityReport.cells)).map { Array($0.prefix(columns)) }) {
            FidelityReport.numericColumns.contains($0)
        }.lines.forEach { print($0) }
        let within = rows.filter(\.withinBound).count
        let over = rows.filter { $0.standing == .over }, under = rows.filter { $0.standing == .under }
        let unclear = rows.filter { $0.standing == .unclear }
        print(
            "bench fidelity: \(within) of \(rows.count) rows \(FidelityBound.standard); \(over.count) clearly over, "
                + "\(under.count) clearly under, \(unclear.count) unclear"
                + (unclear.isEmpty ? "" : " (run again with more --repetitions)"))
        let allocating = rows.filter { $0.allocatesNoMore == false }
        let unmeasured = rows.filter {
            $0.allocatesNoMore == nil && $0.pair.directCase.allocator == .jemalloc && $0.pair.allocationsComparable
        }
        if chosenAllocators.contains(.jemalloc) {
            print(
                "bench fidelity: \(allocating.count) rows allocate more per operation than their reference"
                    + (unmeasured.isEmpty ? "" : "; \(unmeasured.count) jemalloc rows have no allocation figure"))
        }
        if let json {
            do { try writeAtomically(try FidelityReport.json(rows), to: json) } catch {
                throw files.failure("cannot write --json \(json): \(error)")
            }
            print("bench fidelity: wrote \(json)")
        }
        let missing = rows.filter { $0.missing != nil }
        let failed =
            switch chosenGate {
            case .time: !over.isEmpty || !under.isEmpty || !missing.isEmpty || !allocating.isEmpty
            case .allocations: !missing.isEmpty || !allocating.isEmpty || !unmeasured.isEmpty
            }
        if failed { throw ExitStatus.foundSomethingWrong }
    }

    /// Each pair as two adjacent cases, the suite's first, so every repetition runs them back to back.
    static func plan(suite: Suite, backends: [Backend], allocators: [Allocator], repetitions: Int) throws -> RunPlan {
        let direct = Direct()
        let ids = Set(backends.map(\.id))
        let directCases = direct.parameterSets(for: suite).flatMap { parameters in
            let backendIDs = direct.usesBackend(for: parameters) ? backends.map(\.id) : [BenchmarkCase.noBackend]
            return backendIDs.flatMap { backend in
                allocators.map {
                    BenchmarkCase(workload: direct.name, backend: backend, parameters: parameters, allocator: $0)
                }
            }
        }
        let pairs = FidelityPairs.pairs(in: directCases)
            .filter { $0.backend == BenchmarkCase.noBackend || ids.contains($0.backend) }
        do {
            return try RunPlan(cases: pairs.flatMap { [$0.suiteCase, $0.directCase] }, repetitions: repetitions)
        } catch {
            throw CommandFiles(command: "fidelity").failure(error.description)
        }
    }
}
