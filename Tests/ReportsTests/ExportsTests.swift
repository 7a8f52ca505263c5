import Foundation
@testable import Reports
import Testing

/// The exports match the formats their readers expect: JMH's result JSON and the
/// `{name, unit, value}` list of github-action-benchmark's customSmallerIsBetter.
@Suite("exports: JMH JSON, smaller-is-better, Google Benchmark JSON, InfluxDB line protocol")
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
            #expect(
                primary["score"] is Double && primary["scoreError"] is Double
                    && primary["scoreUnit"] as? String == "ns/op")
            #expect((primary["scoreConfidence"] as? [Double])?.count == 2)
            let percentiles = try #require(primary["scorePercentiles"] as? [String: Double])
            #expect(Set(percentiles.keys).isSuperset(of: ["0.0", "50.0", "90.0", "99.0", "100.0"]))
            #expect((primary["rawData"] as? [[Double]])?.first?.count == 10)
            #expect(benchmark["secondaryMetrics"] is [String: Any])
        }
        let outside = try #require(
            benchmarks.first {
                $0["benchmark"] as? String == "runtimebench.spawn.libdispatch"
                    && ($0["params"] as? [String: String])?["pattern"] == "outside"
            })
        #expect((outside["params"] as? [String: String])?["allocator"] == "system")
        let primary = try #require(outside["primaryMetric"] as? [String: Any])
        // The figure, and half the width of its repeat interval (the run's drift alone: both processes read 200).
        let score = try #require(primary["score"] as? Double), error = try #require(primary["scoreError"] as? Double)
        #expect(abs(score - 200) < 1e-9 && error > 28 && error < 30, "\(primary)")
        let secondary = try #require(outside["secondaryMetrics"] as? [String: [String: Any]])
        #expect(
            secondary["syscalls"]?["score"] as? Double == 0.5
                && secondary["syscalls"]?["scoreUnit"] as? String == "#/op")
        #expect(secondary["cycles"] == nil, "an unavailable counter is absent, not 0")
        let pingpong = try #require(
            benchmarks.first { $0["benchmark"] as? String == "runtimebench.semaphore.libdispatch" })
        let figures = try #require(pingpong["secondaryMetrics"] as? [String: [String: Any]])
        #expect(
            figures["handoff_ns.p99"]?["score"] as? Double == 20_000
                && figures["handoff_ns.p99"]?["scoreUnit"] as? String == "ns")
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
        // Processes at 49.5 and 52.5: their median (the geometric mean of the two), and half the
        // repeat interval 43.6–59.7.
        #expect(
            abs(try #require(tie["value"] as? Double) - (49.5 * 52.5).squareRoot()) < 1e-9
                && tie["range"] as? String == "± 8.05", "\(tie)")
    }

    @Test(
        """
        Google Benchmark JSON: one iteration per process and a median aggregate per case, the machine in the context \
        (compare.py reads it)
        """)
    func googleBenchmark() throws {
        let file = try #require(try Self.json("google-benchmark.json") as? [String: Any])
        let context = try #require(file["context"] as? [String: Any])
        #expect(
            context["num_cpus"] is Int && context["runtimebench_cpu_model"] is String
                && context["runtimebench_swift"] is String)
        let benchmarks = try #require(file["benchmarks"] as? [[String: Any]])
        let measured = Fixture.run.cases.filter { !$0.records.isEmpty }
        #expect(
            benchmarks.count == measured.reduce(0) { $0 + $1.records.count + 1 },
            "a repetition per process and a median per case")
        for benchmark in benchmarks {
            #expect(
                benchmark["time_unit"] as? String == "ns" && benchmark["real_time"] is Double
                    && benchmark["cpu_time"] is Double)
            #expect(
                benchmark["run_type"] as? String == "iteration" || benchmark["aggregate_name"] as? String == "median")
        }
        let outside = benchmarks.filter {
            $0["run_name"] as? String == "spawn/libdispatch/pattern=outside/system/ops:1000"
        }
        #expect(
            outside.count == 3
                && outside.last?["name"] as? String == "spawn/libdispatch/pattern=outside/system/ops:1000_median")
        // Both processes read 200 ns per operation: each repetition and the median say 200,000 ns per
        // iteration of 1,000, so that compare.py's whole nanoseconds keep the digits.
        #expect(outside.allSatisfy { abs(($0["real_time"] as? Double ?? 0) - 200_000) < 1e-6 }, "\(outside)")
        #expect(outside.compactMap { $0["repetition_index"] as? Int } == [0, 1])
    }

    @Test("InfluxDB line protocol: a line per case, tags escaped, float and integer fields, a missing counter absent")
    func influx() throws {
        let text = try #require(Self.outputs["results.influx"])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == Fixture.run.cases.filter { !$0.records.isEmpty }.count)
        let outside = try #require(
            lines.first { $0.contains("case=spawn/libdispatch/pattern\\=outside/system,") }, "\(lines.prefix(2))")
        #expect(
            outside.hasPrefix(
                "runtimebench,case=spawn/libdispatch/pattern\\=outside/system,workload=spawn,"
                    + "backend=libdispatch,parameters=pattern\\=outside,allocator=system,"))
        // Tags, then one space, then fields; no unescaped space inside either part.
        let unescapedSpaces = outside.indices.filter {
            outside[$0] == " "
                && (outside.index(before: $0) < outside.startIndex || outside[outside.index(before: $0)] != "\\")
        }
        #expect(
            unescapedSpaces.count == 1 || unescapedSpaces.count == 2,
            "tags, fields and an optional timestamp: \(outside)")
        let fields = try #require(outside.split(separator: " ").last { $0.contains("ns_per_op=") })
        let values = Dictionary(
            uniqueKeysWithValues: fields.split(separator: ",").map { field in
                let parts = field.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts[1]))
            })
        #expect(abs((Double(values["ns_per_op"] ?? "") ?? 0) - 200) < 1e-9, "\(values)")
        #expect(values["processes"] == "2i" && values["syscalls"] == "0.5", "\(values)")
        #expect(!outside.contains("cycles="), "an unavailable counter is absent, not 0")
        #expect(
            !text.contains("=inf") && !text.contains("=-inf") && !text.contains("=nan"),
            "no field is infinite or not a number")
        #expect(InfluxLineProtocolExport.escape("AMD EPYC, 2=x") == "AMD\\ EPYC\\,\\ 2\\=x")
    }

    @Test("results.csv keeps its columns, and a failed case's missing value is empty with the reason, not 0")
    func csv() throws {
        let csv = try #require(Self.outputs["results.csv"])
        #expect(
            csv.hasPrefix(
                "case_id,workload,backend,parameters,allocator,status,"
                    + "metric,unit,value,repeat95_low,repeat95_high,samples,repetitions,unavailable\r\n"))
        #expect(
            csv.contains(
                "spawn/swift-concurrency/pattern=outside/system,spawn,swift-concurrency,pattern=outside,system,failed: "
                    + "crashed: signal 11 (SIGSEGV),ns_per_op,ns,,,,0,0,failed: crashed: signal 11 (SIGSEGV)\r\n"))
        // The figure has the interval; the description of the pooled samples has none.
        let figure = try #require(
            csv.split(separator: "\r\n").first {
                $0.hasPrefix("spawn/libdispatch/pattern=outside/system,") && $0.contains(",ns_per_op,")
            })
        let fields = figure.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(
            abs(Double(fields[8])! - 200) < 1e-9 && Double(fields[9])! < 199 && Double(fields[10])! > 201, "\(fields)")
        #expect(csv.contains(",ns_per_op.median,ns,200.0,,,20,2,\r\n"))
        // A counter's unit is its source's: task-clock is CPU time in ns, syscalls are events.
        #expect(csv.contains(",task-clock.per_op,ns,"), "\(csv.prefix(2_000))")
        #expect(csv.contains(",syscalls.per_op,events,"))
    }
}
