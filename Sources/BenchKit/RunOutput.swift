import ArgumentParser
import Harness
import Results
#if canImport(Glibc)
import Glibc
#endif

/// Where a command that measures writes (`run`, `check`, `fidelity`, `ab`): a new or empty
/// directory, so two runs never mix, unless `--overwrite` replaces bench's files in it.
struct RunOutput: ParsableArguments {
    @Option(
        help:
            """
            Directory to write into (default: a new one under bench-results/, named by the time). \
            It must be new or empty, so runs never mix.
            """)
    var out: String?

    @Flag(
        help:
            """
            Write into an --out that already holds a run: bench's files in it (results, reports, charts, \
            journal) are removed first.
            """)
    var overwrite = false

    func validate() throws { try ExitStatus.refuseReuse(of: out, overwrite: overwrite) }

    /// `--out`, or bench-results/PREFIX<time> (`prefix` "" for `bench run`, "ab-" for `bench ab`, ...).
    func directory(prefix: String) -> String { out ?? "bench-results/\(prefix)\(Self.timestamp())" }

    /// `directory` prepared for a run (`OutputDirectory.prepareForRun`) and its journal opened;
    /// exit 2 or 64 (`ExitStatus.fail`) before anything runs when it cannot take the run.
    func openJournal(in directory: String, label: String) throws -> ResultsJournal {
        do { try OutputDirectory.prepareForRun(directory, overwrite: overwrite) } catch {
            throw ExitStatus.fail(label, error)
        }
        do { return try ResultsJournal(path: directory + "/journal.jsonl") } catch {
            throw ExitStatus.fail(label, .unwritable(error))
        }
    }

    /// The time in UTC as a directory name sorts: 20261124-214835.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }
}
