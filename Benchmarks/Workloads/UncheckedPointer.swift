/// A pointer a `@Sendable` block may capture. The code that captures it says what orders the
/// accesses through it (a serial queue running the blocks that write, a `sync` behind them
/// before a read; a cell written before any block can run).
struct UncheckedPointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
