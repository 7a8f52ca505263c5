#if canImport(Glibc)
import Glibc
#endif
import Results

/// Where a profiler listens for "enable" and "disable" (`perf record --control
/// fifo:CONTROL,ACK -D -1`): the child opens both FIFOs and brackets its timed samples with them,
/// so a profile holds the samples and not the warm-up, the batch calibration or the runtime's
/// start and shutdown.
public struct ProfileControl: Sendable, Codable, Equatable {
    /// The FIFO the profiler reads commands from.
    public let control: String
    /// The FIFO it answers each command on, once the command took effect.
    public let acknowledgement: String

    public init(control: String, acknowledgement: String) {
        self.control = control
        self.acknowledgement = acknowledgement
    }
}

/// The child's side of `ProfileControl`: `begin` and `end` around the samples, each waiting for
/// the profiler's acknowledgement, so nothing timed runs before recording starts.
public final class ProfileWindow {
    private let control: Int32
    private let acknowledgement: Int32

    /// Opens both FIFOs; the profiler holds their other ends, so neither open blocks for long.
    public init(_ paths: ProfileControl) throws(FileError) {
        control = open(paths.control, O_WRONLY | O_CLOEXEC)
        guard control >= 0 else { throw FileError(path: paths.control, operation: "open", errno: errno) }
        acknowledgement = open(paths.acknowledgement, O_RDONLY | O_CLOEXEC)
        guard acknowledgement >= 0 else {
            let error = FileError(path: paths.acknowledgement, operation: "open", errno: errno)
            close(control)
            throw error
        }
    }

    deinit {
        close(control)
        close(acknowledgement)
    }

    public func begin() { command("enable") }
    public func end() { command("disable") }

    /// Writes `text` and a newline, then reads the acknowledgement ("ack\n"). A profiler that went
    /// away is not the case's failure: the samples are measured all the same.
    private func command(_ text: String) {
        let line = Array((text + "\n").utf8)
        guard line.withUnsafeBytes({ write(control, $0.baseAddress, $0.count) }) == line.count else { return }
        var reply = [UInt8](repeating: 0, count: 16)
        _ = reply.withUnsafeMutableBytes { read(acknowledgement, $0.baseAddress, $0.count) }
    }
}
