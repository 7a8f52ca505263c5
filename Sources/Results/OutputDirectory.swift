#if canImport(Glibc)
import Glibc
#endif

/// Prepares where a run writes, before any case runs: a run that cannot save its results must
/// fail at once, not after an hour of measuring; and a run must not land among another run's
/// files (an appended journal, stale charts, results replaced without a word).
public enum OutputDirectory {
    /// What `bench`'s commands write into an output directory: results and reports (run, check,
    /// fidelity, report), a.json/b.json/comparison.md (ab), the journal, and the charts folder.
    public static let benchFiles: Set<String> = [
        "results.json", "results.csv", "report.md", "jmh-result.json", "smaller-is-better.json",
        "google-benchmark.json",
        "results.influx", "journal.jsonl",
        "a.json", "b.json", "comparison.md", "machines.csv", "otava.yaml",
    ]

    /// Whether `name` is one of bench's files: `benchFiles`, or a series' Otava input
    /// (`otava-M1.csv`, one per machine of a history).
    public static func isBenchFile(_ name: String) -> Bool {
        guard !benchFiles.contains(name) else { return true }
        guard name.hasPrefix("otava-M"), name.hasSuffix(".csv") else { return false }
        let number = name.dropFirst("otava-M".count).dropLast(".csv".count)
        return !number.isEmpty && number.allSatisfy(\.isNumber)
    }
    /// The folder of SVG charts inside an output directory.
    public static let chartsFolder = "charts"

    /// Why a directory cannot take a new run.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        /// It cannot be created or written.
        case unwritable(FileError)
        /// It already holds files (up to a few of their names) and replacing them was not asked for.
        case notEmpty(path: String, entries: [String])

        public var description: String {
            switch self {
            case .unwritable(let error): "\(error)"
            case .notEmpty(let path, let entries):
                "\(path) already holds \(entries.prefix(3).joined(separator: ", "))"
                    + "\(entries.count > 3 ? " and \(entries.count - 3) more" : ""): "
                    + "a new run there would mix with them; choose another --out, "
                    + "or add --overwrite to replace bench's files in it"
                    + (entries.contains("journal.jsonl")
                        ? " (a run killed there continues with `bench run --resume \(path)`)" : "")
            }
        }
    }

    /// For a command that measures: `path` created if missing, and empty. With `overwrite`, an
    /// existing directory is accepted and bench's own files in it (`isBenchFile`, the charts) are
    /// removed first, so nothing of the previous run survives beside the new one; other files
    /// are left alone.
    public static func prepareForRun(_ path: String, overwrite: Bool) throws(Refusal) {
        do { try create(path) } catch { throw .unwritable(error) }
        let entries = self.entries(of: path).sorted()
        guard !entries.isEmpty else { return }
        guard overwrite else { throw .notEmpty(path: path, entries: entries) }
        // Files only: a directory by one of these names is not bench's (writing there fails later, by name).
        for entry in entries where isBenchFile(entry) && !isDirectory(path + "/" + entry) {
            guard unlink(path + "/" + entry) == 0 else {
                throw .unwritable(FileError(path: path + "/" + entry, operation: "remove", errno: errno))
            }
        }
        do { try removeCharts(in: path, keeping: []) } catch { throw .unwritable(error) }
    }

    /// Removes the SVG files in `path`/charts that are not in `keeping` (names relative to the
    /// charts folder), and the folder itself when that empties it: a report written again must not
    /// leave the charts of a case that is no longer in it.
    public static func removeCharts(in path: String, keeping: Set<String>) throws(FileError) {
        let folder = path + "/" + chartsFolder
        let charts = entries(of: folder).filter { $0.hasSuffix(".svg") && !keeping.contains($0) }
        for chart in charts where unlink(folder + "/" + chart) != 0 {
            throw FileError(path: folder + "/" + chart, operation: "remove", errno: errno)
        }
        if entries(of: folder).isEmpty { rmdir(folder) }
    }

    /// Creates `path` and its parents as needed (like `mkdir -p`) and checks it is writable.
    public static func create(_ path: String) throws(FileError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw FileError(path: built, operation: "create directory", errno: errno)
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileError(path: path, operation: "inspect", errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw FileError(path: path, operation: "use as a directory", errno: ENOTDIR)
        }
        guard access(path, W_OK) == 0 else { throw FileError(path: path, operation: "write into", errno: errno) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a directory, without "." and ".."; empty when it cannot be read or is missing.
    public static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
