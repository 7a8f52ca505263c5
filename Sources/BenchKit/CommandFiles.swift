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
            return try ResultsJSON.decode(text, olderFilesMetrics: MeasurementOptions.described)
        } catch {
            throw failure("\(role) \(path) is not a results file this bench can read: \(CommandFiles.describe(error))")
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
        do { return try CommandFiles.readText(path) } catch let error as ValidationError {
            throw failure("\(role) \(error.message)")
        }
    }

    /// Refuses, before any work, an output file (given with `option`) that cannot be created:
    /// a probe file beside it is created and removed, so a missing or read-only directory, or a
    /// full disk, is found now rather than after the measuring.
    func checkWritable(_ path: String?, option: String = "--markdown") throws {
        guard let path else { return }
        let probe = path + ".probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot write \(option) \(path): \(String(cString: strerror(errno)))") }
        close(fd)
        unlink(probe)
    }

    /// Prints the comparison, writes its Markdown when asked, and exits 1 on a regression.
    func finish(_ comparison: Comparison, detail: ComparisonReport.Detail, markdown: String?, failOnRegression: Bool)
        throws
    {
        print(ComparisonReport.text(comparison, detail: detail), terminator: "")
        if let markdown {
            do { try writeAtomically(ComparisonReport.markdown(comparison), to: markdown) } catch {
                throw failure("\(error)")
            }
            print("bench \(command): wrote \(markdown)")
        }
        if failOnRegression, !comparison.failing.isEmpty { throw ExitStatus.foundSomethingWrong }
    }

    // MARK: - Reading and naming files, for every command

    /// The largest file `readText` reads: far above any results file (the full suite's is about
    /// 15 MB), far below what would exhaust memory once decoded.
    static let maximumFileSize: Int64 = 512 * 1_048_576

    /// The whole file as text, or an error with the reason in the system's words ("No such file
    /// or directory", "Is a directory"), not Foundation's error dump.
    static func readText(_ path: String) throws -> String {
        var facts = stat()
        if stat(path, &facts) == 0, Int64(facts.st_size) > maximumFileSize {
            let megabytes = Int64(facts.st_size) / 1_048_576
            throw ValidationError(
                "\(path) is \(megabytes) MB; a results or thresholds file is at most \(maximumFileSize / 1_048_576) "
                    + "MB (the full suite's results.json is about 15 MB)")
        }
        do { return try readWholeFile(path) } catch { throw ValidationError(error.description) }
    }

    /// The directory part of `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` made absolute, so a child (or a tool's configuration) finds it whatever its working
    /// directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
    }

    /// True when both paths name the same existing file.
    static func sameFile(_ one: String, _ other: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(one, &first) == 0, stat(other, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// A decoding error in one line: what is wrong and where, without Swift's error dump.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty
                ? ""
                : " at " + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch decoding {
        case .dataCorrupted(let context):
            return "not valid JSON (truncated or malformed)\(path(context))"
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)'\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription.prefix(120))\(path(context))"
        @unknown default:
            return "\(error)"
        }
    }
}
