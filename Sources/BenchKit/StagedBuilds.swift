import Harness
import Results
#if canImport(Glibc)
import Glibc
#endif

/// The two builds of a `bench ab`, copied to paths of one length (`/tmp/bench-ab-XXXXXX/a/bench`
/// and `…/b/bench`, each with its interposer beside it) and run from there.
///
/// The executable's path reaches every child's initial stack (its argv[0], the kernel's
/// AT_EXECFN), so paths of different lengths start each build's stack at a different offset, and
/// scheduling-bound cases move with it, by more than the changes a gate looks for
/// (Sources/Gate/README.md, "Commands and exit statuses"). A gate must compare the change, not
/// where each build happened to be built.
struct StagedBuilds {
    let directory: String
    let a: String
    let b: String

    /// Copies `a` and `b` (and the interposer beside each, if any) into a new directory.
    static func stage(a: String, b: String) throws(FileError) -> StagedBuilds {
        var template = Array("/tmp/bench-ab-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw FileError(path: "/tmp/bench-ab-XXXXXX", operation: "create directory", errno: errno)
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var staged: [String] = []
        for (side, executable) in [("a", a), ("b", b)] {
            let folder = directory + "/" + side
            guard mkdir(folder, 0o755) == 0 else {
                throw FileError(path: folder, operation: "create directory", errno: errno)
            }
            let copy = folder + "/bench"
            try copyFile(executable, to: copy, mode: 0o755)
            if case .success(let interposer) = InterposerLibrary.locate(besides: executable) {
                try copyFile(interposer, to: folder + "/" + InterposerLibrary.fileName, mode: 0o755)
            }
            staged.append(copy)
        }
        return StagedBuilds(directory: directory, a: staged[0], b: staged[1])
    }

    /// Removes the copies.
    func remove() {
        for side in ["a", "b"] {
            unlink(directory + "/" + side + "/bench")
            unlink(directory + "/" + side + "/" + InterposerLibrary.fileName)
            rmdir(directory + "/" + side)
        }
        rmdir(directory)
    }

    private static func copyFile(_ source: String, to destination: String, mode: mode_t) throws(FileError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileError(path: source, operation: "open", errno: errno) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard output >= 0 else { throw FileError(path: destination, operation: "create", errno: errno) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw FileError(path: source, operation: "read", errno: errno)
            }
            var written = 0
            while written < count {
                let n = buffer[written..<count].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
                guard n > 0 else { throw FileError(path: destination, operation: "write", errno: errno) }
                written += n
            }
        }
    }
}
