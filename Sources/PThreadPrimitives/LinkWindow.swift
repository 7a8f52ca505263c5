import CSpinHint
import RuntimeKit

/// The window of a lock-free push between the step that publishes a node and the store of its
/// link: fifo-dispatch's `TaskList` (exchange the tail, then link the previous node) and
/// work-stealing's `Injector` (exchange the stack's top, then link the node below). A consumer
/// that reaches the node inside that window waits here for the link; both pools share it.
public enum LinkWindow {
    /// Returns `load()` once it is no longer `unwritten`: a few instructions' wait, spinning with
    /// a `pause`, then yielding after 64 looks in case the pusher was preempted inside its window.
    @inlinable
    public static func awaitLink(unwritten: UInt, _ load: () -> UInt) -> UInt {
        var looks = 0
        while true {
            let value = load()
            if value != unwritten { return value }
            looks += 1
            if looks < 64 { rb_spin_pause() } else { RuntimeEvents.yieldCPU() }
        }
    }
}
