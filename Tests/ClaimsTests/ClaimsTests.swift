import Claims
import Results
import Testing

/// The claims logic on hand-made results: a clear difference is supported or refuted, overlapping
/// intervals, a missing case and a missing counter are inconclusive with the reason.
@Suite("claims: verdicts from hand-made results")
struct ClaimsTests {
    /// A case of three processes whose samples all lie within ±1% of `nanoseconds` (so its
    /// interval is narrow), with `counters` per operation.
    static func measured(
        _ id: (workload: String, backend: String, parameters: [(String, String)]), nanoseconds: Double,
        counters: [String: Double] = [:], unavailable: [String: String] = [:]
    ) -> CaseResult {
        let benchmarkCase = BenchmarkCase(
            workload: id.workload, backend: id.backend,
            parameters: id.parameters.map { Parameter($0.0, $0.1) }, allocator: .system)
        var result = CaseResult(benchmarkCase: benchmarkCase)
        let samples = (0..<20).map { nanoseconds * (0.99 + 0.001 * Double($0)) }
        result.records = (0..<3).map { repetition in
            CaseRecord(
                caseID: benchmarkCase.id, repetition: repetition, batch: 100,
                nanosecondsPerOperation: samples.map { $0 * (1 + 0.002 * Double(repetition)) },
                metricsPerOperation: counters, unavailable: unavailable, cpus: [0])
        }
        return result
    }

    static func run(_ cases: [CaseResult]) -> RunResults {
        RunResults(
            environment: RunEnvironment.capture(gitCommit: "test"),
            counterAvailability: RunResults.counterAvailability(of: cases),
            suite: .quick, repetitions: 3, sampleTimeNanoseconds: 10_000_000, cases: cases)
    }

    static func guarded(_ kind: String, _ backend: String, contended: Bool = false) -> (
        String, String, [(String, String)]
    ) {
        (
            "queue-vs-lock", backend,
            [
                ("guard", kind), ("threads", contended ? "2xcpus" : "1"), ("resource", "counter"),
                ("critical", contended ? "100ns" : "0ns"), ("outside", contended ? "1us" : "0ns"),
            ]
        )
    }

    static func verdict(_ claim: String, _ cases: [CaseResult]) throws -> ClaimVerdict {
        try #require(Claim.verdicts(for: run(cases)).first { $0.claim == claim })
    }

    @Test(
        """
        a queue clearly faster than the mutex supports the claim; clearly slower refutes it; \
        overlapping is inconclusive
        """)
    func timingClaim() throws {
        let mutex = Self.measured(Self.guarded("swift-mutex", "none"), nanoseconds: 20)
        let faster = try Self.verdict(
            "queues-beat-locks-uncontended",
            [mutex, Self.measured(Self.guarded("queue-sync", "libdispatch"), nanoseconds: 10)])
        #expect(faster.verdict == .supported, "\(faster)")
        #expect(faster.evidence.contains { $0.contains("libdispatch queue-sync, 1 thread: 10") }, "\(faster.evidence)")

        let slower = try Self.verdict(
            "queues-beat-locks-uncontended",
            [mutex, Self.measured(Self.guarded("queue-sync", "libdispatch"), nanoseconds: 40)])
        #expect(slower.verdict == .refuted, "\(slower)")

        let close = try Self.verdict(
            "queues-beat-locks-uncontended",
            [mutex, Self.measured(Self.guarded("queue-sync", "libdispatch"), nanoseconds: 20.05)])
        #expect(
            close.verdict == .inconclusive
                && close.reason.contains("differ by less than their processes' spread allows"), "\(close)")
    }

    @Test("the contended claim takes the faster of the queue's sync and async")
    func fastestCandidateSpeaks() throws {
        let verdict = try Self.verdict(
            "queues-beat-locks-contended",
            [
                Self.measured(Self.guarded("pthread-mutex", "none", contended: true), nanoseconds: 500),
                Self.measured(Self.guarded("queue-sync", "libdispatch", contended: true), nanoseconds: 900),
                Self.measured(Self.guarded("queue-async", "libdispatch", contended: true), nanoseconds: 300),
            ])
        #expect(verdict.verdict == .supported && verdict.evidence[0].contains("queue-async"), "\(verdict)")
    }

    @Test("a case that did not run makes the verdict inconclusive and names it")
    func missingCase() throws {
        let verdict = try Self.verdict(
            "queues-beat-locks-uncontended", [Self.measured(Self.guarded("swift-mutex", "none"), nanoseconds: 20)])
        #expect(verdict.verdict == .inconclusive && verdict.reason.contains("queue-vs-lock/libdispatch/"), "\(verdict)")
    }

    @Test(
        """
        system calls per uncontended lock: none refutes 'locks always trap', one per lock supports it, \
        an unavailable counter is inconclusive
        """)
    func counterClaim() throws {
        let id = Self.guarded("pthread-mutex", "none")
        #expect(
            try Self.verdict("locks-always-trap", [Self.measured(id, nanoseconds: 20, counters: ["syscalls": 0.0001])])
                .verdict == .refuted)
        #expect(
            try Self.verdict("locks-always-trap", [Self.measured(id, nanoseconds: 20, counters: ["syscalls": 1.0])])
                .verdict == .supported)
        #expect(
            try Self.verdict("locks-always-trap", [Self.measured(id, nanoseconds: 20, counters: ["syscalls": 0.3])])
                .verdict == .inconclusive)
        let blind = try Self.verdict(
            "locks-always-trap", [Self.measured(id, nanoseconds: 20, unavailable: ["syscalls": "tracefs not mounted"])])
        #expect(blind.verdict == .inconclusive && blind.reason.contains("tracefs not mounted"), "\(blind)")
    }

    @Test("a semaphore that traps only when it blocks supports the claim; one that traps without blocking refutes it")
    func semaphoreClaim() throws {
        func cases(free: Double, blocking: Double) -> [CaseResult] {
            [
                Self.measured(
                    ("semaphore", "libdispatch", [("pattern", "uncontended"), ("semaphore", "backend")]),
                    nanoseconds: 10, counters: ["syscalls": free]),
                Self.measured(
                    ("semaphore", "libdispatch", [("pattern", "pingpong"), ("semaphore", "backend")]),
                    nanoseconds: 5_000, counters: ["syscalls": blocking]),
            ]
        }
        #expect(
            try Self.verdict("semaphores-trap-only-when-blocking", cases(free: 0, blocking: 2)).verdict == .supported)
        #expect(try Self.verdict("semaphores-trap-only-when-blocking", cases(free: 1, blocking: 2)).verdict == .refuted)
        #expect(
            try Self.verdict("semaphores-trap-only-when-blocking", cases(free: 0, blocking: 0.1)).verdict
                == .inconclusive)
    }

    @Test(
        """
        resident bytes per waiting unit: a thread with many more than a queued block supports the memory claim; \
        a small difference is inconclusive
        """)
    func memoryClaim() throws {
        func cases(queued: Double, threaded: Double) -> [CaseResult] {
            func figure(_ value: Double) -> [String: WorkloadMetric] {
                ["footprint.resident_bytes_per_unit": WorkloadMetric(value, unit: .bytes)]
            }
            var block = Self.measured(
                ("footprint", "libdispatch", [("unit", "queued-block"), ("units", "256")]), nanoseconds: 500)
            var thread = Self.measured(
                ("footprint", "none", [("unit", "thread"), ("units", "256")]), nanoseconds: 20_000)
            block.records = block.records.map { $0.with(workloadMetrics: figure(queued)) }
            thread.records = thread.records.map { $0.with(workloadMetrics: figure(threaded)) }
            return [block, thread]
        }
        #expect(try Self.verdict("threads-cost-memory", cases(queued: 96, threaded: 12_288)).verdict == .supported)
        #expect(try Self.verdict("threads-cost-memory", cases(queued: 12_288, threaded: 96)).verdict == .refuted)
        #expect(try Self.verdict("threads-cost-memory", cases(queued: 96, threaded: 900)).verdict == .inconclusive)
    }

    @Test(
        """
        the runtime layer judges dispatch_sync_f against pthread_mutex_lock from their C references, \
        apart from Swift code's verdict
        """)
    func runtimeLayer() throws {
        let cases = [
            Self.measured(("direct", "libdispatch-c", [("operation", "sync")]), nanoseconds: 15),
            Self.measured(("direct", "none", [("operation", "pthread-mutex")]), nanoseconds: 4),
            Self.measured(Self.guarded("queue-sync", "libdispatch"), nanoseconds: 70),
            Self.measured(Self.guarded("swift-mutex", "none"), nanoseconds: 10),
        ]
        let runtime = try Self.verdict("queues-beat-locks-uncontended-runtime", cases)
        #expect(runtime.layer == .runtime && runtime.verdict == .refuted, "\(runtime)")
        #expect(runtime.evidence.contains { $0.contains("dispatch_sync_f, C: 15") }, "\(runtime.evidence)")
        let swift = try Self.verdict("queues-beat-locks-uncontended", cases)
        #expect(swift.layer == .swift && swift.verdict == .refuted, "\(swift)")
        // Every claim with a GCD side is judged on both layers, next to each other.
        let verdicts = Claim.verdicts(for: Self.run([]))
        for (index, verdict) in verdicts.enumerated()
        where verdict.layer == .runtime && verdict.claim.hasSuffix("-runtime") {
            #expect(
                index > 0 && verdicts[index - 1].claim + "-runtime" == verdict.claim
                    && verdicts[index - 1].layer == .swift,
                "\(verdict.claim) does not follow its Swift-code verdict")
        }
    }

    @Test("every claim, the guide's and the Swift documents', gets a verdict, even from an empty run")
    func everyClaimAnswers() {
        let verdicts = Claim.verdicts(for: Self.run([]))
        #expect(verdicts.count == Claim.all.count && Claim.all.count > GuideClaims.all.count)
        #expect(verdicts.allSatisfy { $0.verdict == .inconclusive && $0.reason.hasPrefix("not measured") })
        #expect(Set(verdicts.map(\.claim)).count == verdicts.count, "claim ids are unique")
    }
}

extension CaseRecord {
    func with(workloadMetrics: [String: WorkloadMetric]) -> CaseRecord {
        CaseRecord(
            version: version, caseID: caseID, repetition: repetition, batch: batch,
            nanosecondsPerOperation: nanosecondsPerOperation,
            metricsPerOperation: metricsPerOperation, unavailable: unavailable, workloadMetrics: workloadMetrics,
            cpus: cpus)
    }
}

extension ClaimsTests {
    @Test("the cases whose system calls a claim reads: the uncontended mutex and libdispatch's semaphores")
    func syscallCases() {
        let cases = Claim.cases(reading: "syscalls").map(\.description)
        let expected = [
            "queue-vs-lock/none/guard=pthread-mutex,threads=1,", "semaphore/libdispatch-c/pattern=pingpong,",
            "semaphore/libdispatch/pattern=uncontended,",
        ]
        for prefix in expected { #expect(cases.contains { $0.hasPrefix(prefix) }, "\(prefix) in \(cases)") }
        #expect(!cases.contains { $0.hasPrefix("thread-spawn") || $0.hasPrefix("spawn/") }, "\(cases)")
        #expect(!cases.contains { $0.contains("threads=2xcpus") }, "context is quoted when counted, not counted for")
        #expect(Claim.cases(reading: "no-such-counter").isEmpty)
    }
}

extension ClaimsTests {
    @Test("a timing comparison no side of which is clearly faster names its two cases for more processes")
    func undecidedCases() {
        let mutex = Self.measured(Self.guarded("swift-mutex", "none"), nanoseconds: 20)
        let close = Self.measured(Self.guarded("queue-sync", "libdispatch"), nanoseconds: 20.05)
        let undecided = Claim.undecidedCaseIDs([mutex, close])
        #expect(undecided.contains(mutex.benchmarkCase.id) && undecided.contains(close.benchmarkCase.id))
        let far = Self.measured(Self.guarded("queue-sync", "libdispatch"), nanoseconds: 40)
        #expect(
            !Claim.undecidedCaseIDs([mutex, far]).contains(far.benchmarkCase.id), "decided: refuted, no more needed")
    }
}
