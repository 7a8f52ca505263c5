#if canImport(Glibc)
import Glibc
#endif

/// The file a run appends each finished case to the moment it finishes (one JSON object per
/// line), flushed to disk, so an interrupted or crashed run keeps every case it completed.
public final class ResultsJournal: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Opens (creating if needed) `path` for appending.
    /// - Throws: `FileError` naming the path and the system's reason.
    public init(path: String) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, operation: "open for appending", errno: errno) }
        self.path = path
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Appends `line` (a newline is added) and flushes it to disk before returning.
    /// O_APPEND makes each write land whole at the end, even with another writer.
    /// When the line cannot be written whole (a full disk writes part of it, then fails), the part
    /// is cut off again, so the journal still ends with the last complete line.
    public func append(_ line: String) throws(FileError) {
        precondition(!line.contains("\n"), "a journal entry is one line")
        let bytes = Array((line + "\n").utf8)
        let end = lseek(descriptor, 0, SEEK_END)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                if written > 0 && end >= 0 { _ = ftruncate(descriptor, end) }
                throw FileError(path: path, operation: "append", errno: code)
            }
            written += n
        }
        guard fsync(descriptor) == 0 else { throw FileError(path: path, operation: "flush", errno: errno) }
    }
}

/// Writes `contents` to `path` through a temporary file in the same directory and a rename, so a
/// reader (or a crash halfway) never sees a half-written results file, and a file already at
/// `path` is replaced only by a complete one.
public func writeAtomically(_ contents: String, to path: String) throws(FileError) {
    let temporary = path + ".partial-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError(path: temporary, operation: "create", errno: errno) }
    let bytes = Array(contents.utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else {
            let code = errno
            close(fd); unlink(temporary)
            throw FileError(path: temporary, operation: "write", errno: code)
        }
        written += n
    }
    let synced = fsync(fd) == 0
    let code = errno
    close(fd)
    guard synced else { unlink(temporary); throw FileError(path: temporary, operation: "flush", errno: code) }
    guard rename(temporary, path) == 0 else {
        let code = errno
        unlink(temporary)
        throw FileError(path: path, operation: "rename into place", errno: code)
    }
}

/// A file operation that failed, with the path and the system's reason.
public struct FileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let operation: String
    public let reason: String

    public init(path: String, operation: String, errno code: Int32) {
        self.path = path
        self.operation = operation
        reason = String(cString: strerror(code))
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}
