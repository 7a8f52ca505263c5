import ArgumentParser
import Harness
import Results

/// Where a command that measures writes (`run`, `check`, `fidelity`, `ab`): a new or empty
/// directory, so two runs never mix, unless `--overwrite` replaces bench's files in it.
struct RunOutput: ParsableArguments {
    @Option(help: "Directory to write into (default: a new one under bench-results/, named by the time). It must be new or empty, so runs never mix.")
    var out: String?

    @Flag(help: "Write into an --out that already holds a run: bench's files in it (results, reports, charts, journal) are removed first.")
    var overwrite = false

    func validate() throws { try ExitStatus.refuseReuse(of: out, overwrite: overwrite) }

    /// `--out`, or bench-results/PREFIX<time> (`prefix` "" for `bench run`, "ab-" for `bench ab`, ...).
    func directory(prefix: String) -> String { out ?? "bench-results/\(prefix)\(MeasuredRun.timestamp())" }
}
