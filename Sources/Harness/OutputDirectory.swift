#if canImport(Glibc)
import Glibc
#endif

/// Prepares where a run writes, before any case runs: a run that cannot save its results must
/// fail at once, not after an hour of measuring.
public enum OutputDirectory {
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
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw FileError(path: path, operation: "use as a directory", errno: ENOTDIR) }
        guard access(path, W_OK) == 0 else { throw FileError(path: path, operation: "write into", errno: errno) }
    }
}
