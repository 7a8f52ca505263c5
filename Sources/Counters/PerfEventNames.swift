import CPerfEvent

/// The generic events `perf list` names (its spellings, and perf stat's short aliases), as
/// perf_event_open's type and config: what `--events` counts through the kernel directly when
/// PAPI cannot count a name.
enum PerfEventNames {
    struct Event {
        let type: UInt32
        let config: UInt64
        /// Counted only in the kernel: reported unavailable when kernel events are excluded.
        let kernelOnly: Bool
    }

    static let hardware = UInt32(RB_PERF_TYPE_HARDWARE), software = UInt32(RB_PERF_TYPE_SOFTWARE)

    /// <linux/perf_event.h>'s PERF_COUNT_HW_* and PERF_COUNT_SW_* values.
    static let events: [String: Event] = [
        "cycles": Event(type: hardware, config: 0, kernelOnly: false),
        "cpu-cycles": Event(type: hardware, config: 0, kernelOnly: false),
        "instructions": Event(type: hardware, config: 1, kernelOnly: false),
        "cache-references": Event(type: hardware, config: 2, kernelOnly: false),
        "cache-misses": Event(type: hardware, config: 3, kernelOnly: false),
        "branch-instructions": Event(type: hardware, config: 4, kernelOnly: false),
        "branches": Event(type: hardware, config: 4, kernelOnly: false),
        "branch-misses": Event(type: hardware, config: 5, kernelOnly: false),
        "bus-cycles": Event(type: hardware, config: 6, kernelOnly: false),
        "stalled-cycles-frontend": Event(type: hardware, config: 7, kernelOnly: false),
        "stalled-cycles-backend": Event(type: hardware, config: 8, kernelOnly: false),
        "ref-cycles": Event(type: hardware, config: 9, kernelOnly: false),
        "cpu-clock": Event(type: software, config: 0, kernelOnly: false),
        "task-clock": Event(type: software, config: 1, kernelOnly: false),
        "page-faults": Event(type: software, config: 2, kernelOnly: false),
        "faults": Event(type: software, config: 2, kernelOnly: false),
        "context-switches": Event(type: software, config: 3, kernelOnly: true),
        "cs": Event(type: software, config: 3, kernelOnly: true),
        "cpu-migrations": Event(type: software, config: 4, kernelOnly: true),
        "migrations": Event(type: software, config: 4, kernelOnly: true),
        "minor-faults": Event(type: software, config: 5, kernelOnly: false),
        "major-faults": Event(type: software, config: 6, kernelOnly: false),
        "alignment-faults": Event(type: software, config: 7, kernelOnly: false),
        "emulation-faults": Event(type: software, config: 8, kernelOnly: false),
    ]
}
