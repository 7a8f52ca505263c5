#if canImport(Glibc)
import Glibc
#endif

/// Polls `condition` every 200 µs until it holds (true) or `timeout` passes (false): for tests
/// that wait for something another thread does eventually, with a generous bound so a busy
/// machine makes a test slow, never wrong.
public func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        if clock.now >= deadline { return false }
        usleep(200)
    }
    return true
}
