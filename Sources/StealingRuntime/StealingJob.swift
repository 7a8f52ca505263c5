/// One submitted block, as the deques and the injector carry it: a class, so a deque slot can
/// hold it as a single pointer.
public final class StealingJob: @unchecked Sendable {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
}
