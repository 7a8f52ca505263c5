#if canImport(Glibc)
import Glibc
#endif

/// Finding a tool the way a shell would: the first executable of that name in PATH.
public enum ExecutableSearch {
    public static func find(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
