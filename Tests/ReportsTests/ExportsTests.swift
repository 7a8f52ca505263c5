import Foundation
import Reports
import Testing

/// The exports match the formats their readers expect: JMH's result JSON and the
/// `{name, unit, value}` list of github-action-benchmark's customSmallerIsBetter.
@Suite("exports: JMH JSON and smaller-is-better")
struct ExportsTests {
    static var outputs: [String: String] { Fixture.outputs }

    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try #require(outputs[path], "no \(path)").utf8))
    }

    @Test("JMH: an array of benchmarks, each with mode, threads, forks, params and a primary metric of the right shape")
    func jmh() throws {
        let benchmarks = try #require(try Self.json("jmh-result.json") as? [[String: Any]])
        let measuredCases = Fixture.run.cases.filter { !$0.records.isEmpty }.count
        #expect(benchmarks.count == measuredCases, "one entry per case with samples; failed cases are left out")
        for benchmark in benchmarks {
            #expect(benchmark["benchmark"] is String && benchmark["mode"] as? String == "avgt")
            #expect(benchmark["threads"] as? Int == 1 && benchmark["forks"] as? Int == 2)
            #expect(benchmark["params"] is [String: String])
            let primary = try #require(benchmark["primaryMetric"] as? [String: Any])
            #expect(primary["score"] is Double && primary["scoreError"] is Double && primary["scoreUnit"] as? String == "ns/op")
            #expect((primary["scoreConfidence"] as? [Double])?.count == 2)
            let percentiles = try #require(primary["scorePercentiles"] as? [String: Double])
            #expect(Set(percentiles.keys).isSuperset(of: ["0.0", "50.0", "90.0", "99.0", "100.0"]))
            #expect((primary["rawData"] as? [[Double]])?.first?.count == 10)
            #expect(benchmark["secondaryMetrics"] is [String: Any])
        }
        let outside = try #require(benchmarks.first {
            $0["benchmark"] as? String == "runtimebench.spawn.libdispatch" && ($0["params"] as? [String: String])?["pattern"] == "outside"
        })
        #expect((outside["params"] as? [String: String])?["allocator"] == "system")
        let primary = try #require(outside["primaryMetric"] as? [String: Any])
        // The figure, and half the width of its repeat interval (the run's drift alone: both processes read 200).
        let score = try #require(primary["score"] as? Double), error = try #require(primary["scoreError"] as? Double)
        #expect(abs(score - 200) < 1e-9 && error > 28 && error < 30, "\(primary)")
        let secondary = try #require(outside["secondaryMetrics"] as? [String: [String: Any]])
        #expect(secondary["syscalls"]?["score"] as? Double == 0.5 && secondary["syscalls"]?["scoreUnit"] as? String == "#/op")
        #expect(secondary["cycles"] == nil, "an unavailable counter is absent, not 0")
        let pingpong = try #require(benchmarks.first { $0["benchmark"] as? String == "runtimebench.semaphore.libdispatch" })
        let figures = try #require(pingpong["secondaryMetrics"] as? [String: [String: Any]])
        #expect(figures["handoff_ns.p99"]?["score"] as? Double == 20_000 && figures["handoff_ns.p99"]?["scoreUnit"] as? String == "ns")
    }

    @Test("smaller-is-better: name, unit and value per case, the value the case's figure")
    func smallerIsBetter() throws {
        let entries = try #require(try Self.json("smaller-is-better.json") as? [[String: Any]])
        #expect(entries.count == Fixture.run.cases.filter { !$0.records.isEmpty }.count)
        for entry in entries {
            #expect(entry["name"] is String && entry["unit"] as? String == "ns/op" && entry["value"] is Double)
            #expect(Set(entry.keys).isSubset(of: ["name", "unit", "value", "range", "extra"]))
        }
        let tie = try #require(entries.first { $0["name"] as? String == "spawn/pthread-mutex/pattern=outside/system" })
        // Processes at 49.5 and 52.5: their median (the geometric mean of the two), and half the repeat interval 43.7–59.4.
        #expect(abs(try #require(tie["value"] as? Double) - (49.5 * 52.5).squareRoot()) < 1e-9 && tie["range"] as? String == "± 7.83", "\(tie)")
    }

    @Test("results.csv keeps its columns, and a failed case's missing value is empty with the reason, not 0")
    func csv() throws {
        let csv = try #require(Self.outputs["results.csv"])
        #expect(csv.hasPrefix("case_id,workload,backend,parameters,allocator,status,metric,unit,value,repeat95_low,repeat95_high,samples,repetitions,unavailable\r\n"))
        #expect(csv.contains("spawn/swift-concurrency/pattern=outside/system,spawn,swift-concurrency,pattern=outside,system,failed: crashed: signal 11 (SIGSEGV),ns_per_op,ns,,,,0,0,failed: crashed: signal 11 (SIGSEGV)\r\n"))
        // The figure has the interval; the description of the pooled samples has none.
        let figure = try #require(csv.split(separator: "\r\n").first { $0.hasPrefix("spawn/libdispatch/pattern=outside/system,") && $0.contains(",ns_per_op,") })
        let fields = figure.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(abs(Double(fields[8])! - 200) < 1e-9 && Double(fields[9])! < 199 && Double(fields[10])! > 201, "\(fields)")
        #expect(csv.contains(",ns_per_op.median,ns,200.0,,,20,2,\r\n"))
        // A counter's unit is its source's: task-clock is CPU time in ns, syscalls are events.
        #expect(csv.contains(",task-clock.per_op,ns,"), "\(csv.prefix(2_000))")
        #expect(csv.contains(",syscalls.per_op,events,"))
    }
}
