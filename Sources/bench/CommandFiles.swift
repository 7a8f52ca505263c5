import ArgumentParser
import Gate
import Harness
import Results
import Reports
#if canImport(Glibc)
import Glibc
#endif

/// Inputs and outputs of the commands that read files (`compare`, `check`, `ab`, `claims`): every problem with a
/// file is one line on standard error naming the file and what is wrong, and exit status 2,
/// before anything is written.
struct CommandFiles {
    /// "compare", "check", "ab", "claims": how messages start.
    let command: String

    /// Prints "bench COMMAND: message" on standard error; the returned error exits with status 2.
    func failure(_ message: String) -> ExitCode { ExitStatus.fileProblem("bench \(command)", message) }

    /// A results file (`role`: "baseline", "base", "new"), or exit 2 naming it.
    func results(_ path: String, role: String) throws -> RunResults {
        let text = try self.text(path, role: role)
        do {
            return try ResultsJSON.decode(text)
        } catch {
            throw failure("\(role) \(path) is not a results file this bench can read: \(ReportCommand.describe(error))")
        }
    }

    /// The thresholds file, or the built-in defaults when `path` is nil; exit 2 naming the file.
    func thresholds(_ path: String?) throws -> Thresholds {
        guard let path else { return Thresholds() }
        let text = try self.text(path, role: "thresholds")
        do {
            return try Thresholds.parse(text)
        } catch {
            throw failure("thresholds \(path): \(error.description)")
        }
    }

    /// The whole file, or exit 2 with the system's reason ("No such file or directory", too large).
    private func text(_ path: String, role: String) throws -> String {
        do { return try ClaimsCommand.readText(path) } catch let error as ValidationError {
            throw failure("\(role) \(error.message)")
        }
    }

    /// Refuses, before any work, an output path (given with `option`) whose directory cannot be written.
    func checkWritable(_ path: String?, option: String = "--markdown") throws {
        guard let path else { return }
        let directory = ReportCommand.directory(of: path)
        guard access(directory, W_OK) == 0 else {
            throw failure("cannot write \(option) \(path): \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// Prints the comparison, writes its Markdown when asked, and exits 1 on a regression.
    func finish(_ comparison: Comparison, detail: ComparisonReport.Detail, markdown: String?, failOnRegression: Bool) throws {
        print(ComparisonReport.text(comparison, detail: detail), terminator: "")
        if let markdown {
            do { try writeAtomically(ComparisonReport.markdown(comparison), to: markdown) } catch {
                throw failure("\(error)")
            }
            print("bench \(command): wrote \(markdown)")
        }
        if failOnRegression, !comparison.failing.isEmpty { throw ExitCode(1) }
    }
}
