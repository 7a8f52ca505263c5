#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Gate
import Harness
import Results
import Reports
import Testing

/// Hundreds of damaged results and thresholds files, made by seeded mutations of real ones: each
/// is read or refused with an error, never a crash or a hang; through the CLI, each refusal is
/// exit 2 with the file named, and an enormous file is refused before it is read.
@Suite("malformed files")
struct MalformedFilesTests {
    /// The committed smoke baseline: a real results file of 74 cases.
    static let baseline: String = {
        let here = "\(#filePath)"
        let root = here.split(separator: "/Tests/", maxSplits: 1).first.map(String.init) ?? "."
        return root + "/Benchmarks/Baselines/smoke.json"
    }()

    static let thresholds = """
        {"schema": 1, "description": "test", "defaults": {"time": {"minimumEffect": 0.05, "compare": true}, "count": \
        {"maximumAbsoluteRegression": 0.5}},
         "overrides": [{"workload": "spawn", "compare": false}, {"case": "threads=4", "metric": "ns-per-op", \
        "significanceLevel": 0.001}]}
        """

    /// `count` damaged copies of `text`: truncated, spans deleted or repeated, bytes replaced,
    /// numbers made into strings, huge values or nulls, deep nesting, another schema, nothing.
    static func mutations(of text: String, count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        let original = Array(text.utf8)
        func position(_ bytes: [UInt8]) -> Int { Int.random(in: 0...bytes.count, using: &generator) }
        return (0..<count).map { index in
            var bytes = original
            switch index % 9 {
            case 0: bytes = Array(bytes.prefix(position(bytes)))
            case 1:
                let start = position(bytes), length = Int.random(in: 1...200, using: &generator)
                bytes.removeSubrange(start..<min(bytes.count, start + length))
            case 2:
                for _ in 0..<Int.random(in: 1...8, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
            case 3:
                let start = position(bytes), end = min(bytes.count, start + Int.random(in: 1...500, using: &generator))
                bytes.insert(contentsOf: bytes[start..<end], at: position(bytes))
            case 4:
                let digits = bytes.indices.filter { (48...57).contains(bytes[$0]) }
                if let at = digits.randomElement(using: &generator) {
                    let replacement = ["\"x\"", "1e999", "-1", "null", "true", "[]", "{}", "18446744073709551616"]
                        .randomElement(using: &generator)!
                    bytes.replaceSubrange(at...at, with: Array(replacement.utf8))
                }
            case 5: bytes.insert(contentsOf: Array(String(repeating: "[", count: 100_000).utf8), at: position(bytes))
            case 6:
                bytes = Array(
                    String(decoding: bytes, as: UTF8.self).replacing(#""schema" : 1"#, with: #""schema" : 7"#)
                        .replacing(#""schema": 1"#, with: #""schema": 7"#).utf8)
            case 7: bytes = index % 2 == 0 ? [] : [0xFF, 0xFE, 0x7B, 0x00]
            default:
                let start = position(bytes)
                bytes.insert(contentsOf: Array(#"{"a":"#.utf8), at: start)
            }
            return bytes
        }
    }

    @Test("300 damaged results files and 300 damaged thresholds files: each read or refused, none crashes")
    func decodersSurviveDamage() throws {
        let results = try #require(BenchCLITests.read(Self.baseline))
        // The first run of this test crashed (SIGSEGV) on thresholds mutation 266: a `case` pattern
        // of 100,000 nested '[', on which Swift's regex parser recursed off the stack. Patterns are
        // now checked first (`RegexPattern`).
        var counts = (results: 0, thresholds: 0)
        for bytes in Self.mutations(of: results, count: 300, seed: 0x2E5) {
            do { _ = try ResultsJSON.decode(String(decoding: bytes, as: UTF8.self)) } catch { counts.results += 1 }
        }
        for bytes in Self.mutations(of: Self.thresholds, count: 300, seed: 0x7E5) {
            do { _ = try Thresholds.parse(String(decoding: bytes, as: UTF8.self)) } catch { counts.thresholds += 1 }
        }
        #expect(counts.results >= 200, "most damage is caught: \(counts.results) of 300 results files refused")
        #expect(counts.thresholds >= 200, "most damage is caught: \(counts.thresholds) of 300 thresholds files refused")
    }

    @Test(
        """
        through the CLI: every damaged baseline or thresholds file is exit 2 naming it, \
        or a normal verdict; never a crash
        """)
    func cliSurvivesDamage() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let results = try #require(BenchCLITests.read(Self.baseline))
        let damagedResults = Self.mutations(of: results, count: 27, seed: 0xC11)
        let damagedThresholds = Self.mutations(of: Self.thresholds, count: 27, seed: 0xC12)
        for index in 0..<27 {
            for (kind, bytes) in [("baseline", damagedResults[index]), ("thresholds", damagedThresholds[index])] {
                let path = "\(directory)/\(kind)-\(index).json"
                let file = try #require(fopen(path, "w"))
                _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                fclose(file)
                let arguments =
                    kind == "baseline"
                    ? ["check", "--baseline", path, "--results", Self.baseline]
                    : ["check", "--baseline", Self.baseline, "--results", Self.baseline, "--thresholds", path]
                let outcome = try await ChildProcess.run(
                    executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(120))
                guard case .exited(let status) = outcome.ending, [0, 1, 2].contains(status) else {
                    Issue.record("\(path): \(outcome.ending) \(outcome.standardError.prefix(300))")
                    continue
                }
                if status == 2 {
                    #expect(
                        outcome.standardError.hasPrefix("bench check: \(kind) \(path)")
                            || outcome.standardError.hasPrefix("bench check: \(Self.baseline) and"),
                        "\(path): \(outcome.standardError.prefix(300))")
                }
            }
        }
    }

    @Test("an enormous file is refused before it is read, naming it and its size")
    func enormousFile() async throws {
        let path = BenchCLITests.temporaryDirectory() + "/enormous.json"
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
        #expect(ftruncate(descriptor, 4 << 30) == 0)  // 4 GB, sparse: costs no disk
        close(descriptor)
        for arguments in [
            ["check", "--baseline", path], ["compare", path, path], ["report", path],
            ["check", "--baseline", Self.baseline, "--thresholds", path],
        ] {
            let outcome = try await ChildProcess.run(
                executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(60))
            #expect(outcome.ending == .exited(2), "\(arguments): \(outcome.ending)")
            #expect(
                outcome.standardError.contains("\(path) is 4096 MB; a results or thresholds file is at most 512 MB"),
                "\(arguments): \(outcome.standardError)")
        }
    }
}
