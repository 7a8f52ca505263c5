import Counters
import Gate
import Results
import Testing

@Suite struct ThresholdsTests {
    @Test func layersBuiltInThenDefaultsThenOverridesInOrder() throws {
        let thresholds = try Thresholds.parse(
            """
            {
              "schema": 1,
              "description": "test",
              "defaults": {"time": {"maximumRelativeRegression": 0.1}, "count": {"compare": false}},
              "overrides": [
                {"workload": "queue-vs-lock", "maximumRelativeRegression": 0.2},
                {"case": "threads=4", "metric": "ns-per-op", "maximumRelativeRegression": 0.3, "significanceLevel": \
            0.05}
              ]
            }
            """)
        let plain = thresholds.limits(
            caseID: "spin/none/rounds=0/system", workload: "spin", metric: metric("ns-per-op"))
        #expect(plain.maximumRelativeRegression == 0.1)
        #expect(plain.minimumEffect == Thresholds.builtIn[.time]!.minimumEffect)
        let queue = thresholds.limits(
            caseID: "queue-vs-lock/x/threads=1/system", workload: "queue-vs-lock", metric: metric("task-clock"))
        #expect(queue.maximumRelativeRegression == 0.2)
        let four = thresholds.limits(
            caseID: "queue-vs-lock/x/threads=4/system", workload: "queue-vs-lock", metric: metric("ns-per-op"))
        #expect(four.maximumRelativeRegression == 0.3 && four.significanceLevel == 0.05)
        #expect(!thresholds.limits(caseID: "a", workload: "a", metric: metric("jemalloc.arena-requests")).compare)
        #expect(
            thresholds.limits(caseID: "a", workload: "a", metric: metric("page-faults")) == Thresholds.builtIn[.event]!)
        #expect(
            thresholds.limits(caseID: "a", workload: "a", metric: metric("jemalloc.thread-allocated-bytes"))
                .maximumAbsoluteRegression == 16)
        #expect(
            !Thresholds.builtIn[.event]!.compare && !Thresholds.builtIn[.cpu]!.compare,
            "off unless a file turns them on")
    }

    @Test func countersDescribeTheKindTheGateReads() {
        #expect(metric("ns-per-op").kind == .time)
        #expect(metric("jemalloc.arena-requests").kind == .count)
        #expect(metric("jemalloc.thread-allocated-bytes").unit == .bytes)
        #expect(metric("instructions").kind == .count)
        #expect(metric("task-clock").kind == .cpu)
        #expect(metric("context-switches").kind == .event)
        #expect(Set(CounterSet.catalogue.map(\.name)).count == CounterSet.catalogue.count, "each metric described once")
    }

    /// The description of `name`: ns-per-op, or one of the counters this bench has.
    func metric(_ name: String) -> Metric {
        name == Metric.nanosecondsPerOperation.name
            ? .nanosecondsPerOperation : CounterSet.catalogue.first { $0.name == name }!
    }

    @Test(arguments: [
        ("", "not valid JSON"),
        (#"{"schema": 1, "defaults": {"time": {"minimumEffect": 0.0"#, "not valid JSON"),
        ("[1, 2]", "wrong type"),
        (#"{"defaults": {}}"#, "missing field 'schema'"),
        (#"{"schema": 2}"#, "schema 2; this bench reads thresholds schema 1"),
        (#"{"schema": "1"}"#, "schema: wrong type"),
        (#"{"schema": 1, "thresholds": {}}"#, "thresholds: unknown field"),
        (#"{"schema": 1, "defaults": {"time": {"minimumEfect": 0.1}}}"#, "defaults.time.minimumEfect: unknown field"),
        (#"{"schema": 1, "defaults": {"latency": {}}}"#, "defaults.latency: unknown metric kind"),
        (
            #"{"schema": 1, "defaults": {"time": {"significanceLevel": 1.5}}}"#,
            "significanceLevel: must be between 0 and 1"
        ),
        (#"{"schema": 1, "defaults": {"time": {"minimumEffect": -0.1}}}"#, "minimumEffect: must be ≥ 0"),
        (#"{"schema": 1, "defaults": {"time": {"compare": "no"}}}"#, "compare: wrong type"),
        (#"{"schema": 1, "overrides": [{"maximumRelativeRegression": 0.1}]}"#, "overrides[0] selects nothing"),
        (
            #"{"schema": 1, "overrides": [{"case": "(", "compare": false}]}"#,
            "overrides[0].case: '(' is not a valid regular expression"
        ),
        (#"{"schema": 1, "overrides": [{"workload": ""}]}"#, "overrides[0].workload: must not be empty"),
        // Refused before compiling: the regex parser recursed itself off the stack on these.
        (
            #"{"schema": 1, "overrides": [{"case": "\#(String(repeating: "[", count: 150))", "compare": false}]}"#,
            "… (150 characters)' nests groups or classes 150 deep; at most 100"
        ),
        (
            #"{"schema": 1, "overrides": [{"case": "\#(String(repeating: "a", count: 1001))", "compare": false}]}"#,
            "is 1001 characters long; at most 1000 are accepted"
        ),
        (#"{"schema": 1, "overrides": {"workload": "x"}}"#, "overrides: wrong type"),
    ])
    func badFilesSayWhatIsWrong(text: String, expected: String) {
        do {
            _ = try Thresholds.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(text) → \(error.description)")
        }
    }
}
