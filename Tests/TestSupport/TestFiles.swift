#if canImport(Glibc)
import Glibc
#endif
import Results

/// Where the tests write files: one directory per test process, holding a fresh directory
/// per use, removed with everything in it when the process exits. RUNTIMEBENCH_KEEP_TEST_FILES=1
/// keeps it (its path is printed then) to look at what a failing test left.
public enum TestFiles {
    public static let root: String = {
        var template = Array("/tmp/runtimebench-tests-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        if getenv("RUNTIMEBENCH_KEEP_TEST_FILES") != nil {
            print("test files kept in \(path)")
        } else {
            atexit { TestFiles.removeRoot() }
        }
        return path
    }()

    /// A new, empty directory under `root`.
    public static func directory() -> String {
        var template = Array((root + "/XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    static func removeRoot() { removeTree(root) }

    /// `rm -rf path`: children before their directory, symbolic links removed, not followed.
    static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            for name in OutputDirectory.entries(of: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
