#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Testing
import TestSupport

/// `bench report A.json B.json … --out DIR` as a team merging a CI matrix would call it.
@Suite("bench report across machines end to end")
struct ReportAcrossMachinesCLITests {
    func bench(_ arguments: [String]) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(120))
    }

    @Test("two machines (one run pinned to CPU 0): a column each with its ratio to the first, and machines.csv")
    func twoMachines() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        try GateCLITests.write(["fast": [10, 10, 10], "slow": [30, 30, 30]], to: directory + "/a.json")
        try GateCLITests.write(["fast": [40, 40, 40], "slow": [30, 30, 30]], cpus: [0], to: directory + "/b.json")
        let out = directory + "/across"
        let outcome = try await bench(["report", directory + "/a.json", directory + "/b.json", "--out", out])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("bench report: 2 machines"), "\(outcome.standardOutput)")
        let report = try #require(BenchCLITests.read(out + "/report.md"))
        #expect(report.contains("| case | M1 ns/op | M2 ns/op | M2 ÷ M1 |"), "\(report)")
        #expect(report.contains("| M2 | `\(directory)/b.json` |") && report.contains("| 1 / "), "\(report)")
        #expect(report.contains("| none/-/system | 10 (") && report.contains("**4.00×**"), "\(report)")
        #expect(!report.contains("have the same identity"), "\(report)")
        let csv = try #require(BenchCLITests.read(out + "/machines.csv"))
        #expect(csv.split(separator: "\r\n").count == 1 + 2 + 2)
    }

    @Test(
        """
        bad input: several files without --out exit 64; different suites, \
        another schema or a missing file exit 2; nothing written
        """)
    func badInput() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        try GateCLITests.write(["fast": [10, 10, 10]], to: directory + "/quick.json")
        try GateCLITests.write(["fast": [10, 10, 10]], suite: .smoke, cpus: [0], to: directory + "/smoke.json")
        try GateCLITests.write(["fast": [10, 10, 10]], schema: 99, to: directory + "/future.json")
        let noOut = try await bench(["report", directory + "/quick.json", directory + "/smoke.json"])
        #expect(noOut.ending == .exited(64) && noOut.standardError.contains("--out DIR"), "\(noOut.standardError)")
        let cases: [([String], String)] = [
            (
                [directory + "/quick.json", directory + "/smoke.json"],
                "ran the quick suite and \(directory)/smoke.json the smoke suite"
            ),
            (
                [directory + "/quick.json", directory + "/future.json"],
                "\(directory)/future.json is not a results file this bench can read: results schema 99"
            ),
            ([directory + "/quick.json", directory + "/missing.json"], "\(directory)/missing.json"),
        ]
        for (files, message) in cases {
            let out = directory + "/out-\(files[1].split(separator: "/").last!)"
            let outcome = try await bench(["report"] + files + ["--out", out])
            #expect(outcome.ending == .exited(2), "\(files): \(outcome.standardError)")
            #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
            #expect(access(out, F_OK) != 0, "nothing written for \(files)")
        }
    }
}
