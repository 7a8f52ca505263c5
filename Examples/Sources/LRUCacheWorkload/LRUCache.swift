import Backends
import Harness
import Results
import RuntimeKit
import Synchronization

/// User code measured on every runtime: a least-recently-used cache that tasks on the runtime's
/// pool read and fill, guarded either by a lock or by one of the runtime's serial queues (its
/// `sync`). One operation is one lookup, which on a miss also inserts and may evict.
public struct LRUCache: Workload {
    public init() {}

    public let name = "lru-cache"
    public let summary =
        "an LRU cache of 100 entries over 1,000 keys, read by two pool tasks at once, behind a lock or a serial queue"
    public let operation = "one lookup (an insert on a miss)"
    public let usesBackend = true

    public enum Guard: String, Sendable, CaseIterable {
        case lock
        case queue
    }

    /// Tasks reading at once; keys drawn from; entries kept.
    static let (tasks, keys, capacity) = (2, 1_000, 100)

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        Guard.allCases.map { [Parameter("guard", $0.rawValue)] }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let guarding: Guard = try benchmarkCase.choice("guard")
        guard let backend else { throw WorkloadError.badParameter("lru-cache runs on a backend; none was given") }
        // The queue guard syncs from the runtime's own blocks onto its queue.
        if guarding == .queue, let why = backend.unsupported[.syncInsideWork] {
            throw WorkloadError.notApplicable(
                "guard=queue syncs from inside blocks, which \(backend.id) cannot: \(why)")
        }
        struct Make: RuntimeTypeConsumer {
            let guarding: Guard
            func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) throws -> any MeasuredOperation {
                LRUCacheOperation(runtime: R(workers: 0), guarding: guarding)
            }
        }
        return try backend.specialized(Make(guarding: guarding))
    }
}

/// The cache itself: a dictionary from key to slot, and the slots in a doubly linked list by
/// recency, in arrays (no allocation per lookup once full).
struct Entries {
    private var slotOfKey: [Int: Int] = [:]
    private var keyOfSlot: [Int] = []
    private var newer: [Int] = [], older: [Int] = []
    private var newest = -1, oldest = -1
    private(set) var hits = 0, misses = 0

    var count: Int { slotOfKey.count }

    mutating func lookUp(_ key: Int, capacity: Int) {
        if let slot = slotOfKey[key] {
            hits += 1
            unlink(slot)
            pushNewest(slot)
            return
        }
        misses += 1
        let slot: Int
        if keyOfSlot.count < capacity {
            slot = keyOfSlot.count
            keyOfSlot.append(key); newer.append(-1); older.append(-1)
        } else {
            slot = oldest
            unlink(slot)
            slotOfKey[keyOfSlot[slot]] = nil
            keyOfSlot[slot] = key
        }
        slotOfKey[key] = slot
        pushNewest(slot)
    }

    private mutating func unlink(_ slot: Int) {
        if newer[slot] >= 0 { older[newer[slot]] = older[slot] } else { newest = older[slot] }
        if older[slot] >= 0 { newer[older[slot]] = newer[slot] } else { oldest = newer[slot] }
    }

    private mutating func pushNewest(_ slot: Int) {
        newer[slot] = -1
        older[slot] = newest
        if newest >= 0 { newer[newest] = slot } else { oldest = slot }
        newest = slot
    }
}

final class LRUCacheOperation<R: ConcurrencyRuntime>: MeasuredOperation, @unchecked Sendable {
    let runtime: R
    let guarding: LRUCache.Guard
    let queue: R.Queue
    let lock = Mutex(())
    // Behind `lock` or `queue`, whichever the case guards with.
    var entries = Entries()
    private var performed = 0

    init(runtime: R, guarding: LRUCache.Guard) {
        (self.runtime, self.guarding) = (runtime, guarding)
        queue = runtime.makeSerialQueue(label: "lru-cache")
    }

    func run(_ count: Int) throws {
        let group = runtime.makeGroup()
        for task in 0..<LRUCache.tasks {
            let share = count / LRUCache.tasks + (task < count % LRUCache.tasks ? 1 : 0)
            runtime.async(group: group) { [self] in
                var key = task &* 7_919
                for _ in 0..<share {
                    key = (key &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
                    access(key % LRUCache.keys)
                }
            }
        }
        guard group.wait(timeout: .seconds(60)) == .success else {
            throw WorkloadError.verificationFailed("the lookups did not finish within 60 s on \(R.id)")
        }
        performed += count
    }

    private func access(_ key: Int) {
        switch guarding {
        case .lock: lock.withLock { _ in entries.lookUp(key, capacity: LRUCache.capacity) }
        case .queue: queue.sync { entries.lookUp(key, capacity: LRUCache.capacity) }
        }
    }

    func finish() throws {
        defer { runtime.shutdown() }
        let (hits, misses, count) =
            guarding == .lock
            ? lock.withLock { _ in (entries.hits, entries.misses, entries.count) }
            : queue.sync { (entries.hits, entries.misses, entries.count) }
        guard hits + misses == performed, count <= LRUCache.capacity else {
            throw WorkloadError.verificationFailed(
                "\(hits) hits + \(misses) misses for \(performed) lookups, \(count) entries kept")
        }
    }
}
