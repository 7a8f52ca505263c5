#if canImport(Glibc)
import Glibc
#endif

/// The whole of a file as text (UTF-8, invalid bytes replaced), with the system's reason when it
/// cannot be read ("No such file or directory", "Is a directory"): results files, thresholds,
/// perf script's output.
public func readWholeFile(_ path: String) throws(FileError) -> String {
    guard let file = fopen(path, "r") else { throw FileError(path: path, operation: "read", errno: errno) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        bytes.append(contentsOf: chunk[0..<count])
        if count < chunk.count {
            if ferror(file) != 0 { throw FileError(path: path, operation: "read", errno: errno) }
            break
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
