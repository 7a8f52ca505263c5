import ArgumentParser
import Harness
import Results

/// One rule for every command's exit status (the top-level help and README.md say the same):
///   0    done, nothing found wrong
///   1    the command ran and found something wrong: a case failed, a regression, a row over
///        the fidelity bound, a soak that lost a task
///   2    a file or directory cannot be read, understood or written
///   3    nothing was comparable: `bench check` against another machine's baseline with no count
///        measured, or a baseline folder with no earlier run of this machine (a gate that
///        compared nothing must not pass)
///   64   a mistake on the command line: an unknown option or value, a missing required option,
///        a number out of range, options that contradict, an --out that already holds a run
///   130/143/129  interrupted by SIGINT/SIGTERM/SIGHUP (what finished is kept)
/// Command-line mistakes are thrown from `validate()` as `ValidationError`s, so ArgumentParser
/// prints the command's own usage under them and exits 64.
/// Every status leaves through here: no command throws a bare `ExitCode`.
enum ExitStatus {
    static let somethingWrong: Int32 = 1
    static let commandLineMistake: Int32 = 64
    static let fileProblem: Int32 = 2
    static let nothingComparable: Int32 = 3

    /// Exits 1; the command has already said what it found wrong.
    static var foundSomethingWrong: ExitCode { ExitCode(somethingWrong) }

    /// Exits 130, 143 or 129, as a shell expects of a process ended by `signal`.
    static func interrupted(by signal: Int32) -> ExitCode { ExitCode(Interruption.describe(signal).status) }

    /// Prints "LABEL: message" on standard error; the returned error exits 3.
    static func nothingComparable(_ label: String, _ message: String) -> ExitCode {
        writeToStandardError("\(label): \(message)\n")
        return ExitCode(nothingComparable)
    }

    /// Prints "LABEL: message" on standard error; the returned error exits 2.
    static func fileProblem(_ label: String, _ message: String) -> ExitCode {
        writeToStandardError("\(label): \(message)\n")
        return ExitCode(fileProblem)
    }

    /// An output directory that cannot take the run: 2 when it cannot be written, 64 when it
    /// holds another run (`validate()` normally refuses that first, with the usage).
    static func fail(_ label: String, _ refusal: OutputDirectory.Refusal) -> ExitCode {
        writeToStandardError("\(label): \(refusal)\n")
        switch refusal {
        case .unwritable: return ExitCode(fileProblem)
        case .notEmpty: return ExitCode(commandLineMistake)
        }
    }

    /// For `validate()`: refuses an --out that already holds files unless --overwrite was given.
    static func refuseReuse(of out: String?, overwrite: Bool) throws {
        guard let out, !overwrite else { return }
        let entries = OutputDirectory.entries(of: out)
        if !entries.isEmpty {
            throw ValidationError(OutputDirectory.Refusal.notEmpty(path: out, entries: entries.sorted()).description)
        }
    }
}
