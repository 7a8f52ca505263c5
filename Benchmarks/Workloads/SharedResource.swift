import CBodyCost

/// What queue-vs-lock's guards protect: a counter, or a small dictionary whose entries are
/// updated in turn (hashing, a probe, a write: a critical section that touches more than one
/// cache line). Each update also spins for the case's critical-section length.
///
/// Both kinds count their updates, so a guard that lets two sections overlap, loses one or runs
/// one twice shows up as a total that is not the number of sections performed.
struct SharedResource {
    enum Kind: String, CaseIterable, Sendable {
        case counter
        case dictionary
    }

    /// Keys of the dictionary: enough to make it a real table, few enough to stay in cache.
    static let dictionaryKeys = 64

    let kind: Kind
    /// Spin rounds inside the critical section.
    let criticalRounds: UInt64
    private(set) var updates = 0
    private var table: [Int: Int] = [:]

    init(kind: Kind, criticalRounds: UInt64) {
        self.kind = kind
        self.criticalRounds = criticalRounds
        if kind == .dictionary { table.reserveCapacity(Self.dictionaryKeys) }
    }

    /// One critical section's work. Always inlined, with the dictionary's part out of line: as one
    /// function it is too large to inline, and the call is a large share of an uncontended pthread
    /// mutex section's cost (Benchmarks/README.md, "What the references found").
    @inline(__always)
    mutating func update() {
        if kind == .dictionary { updateTable() }
        updates += 1
        rb_spin(criticalRounds)
    }

    @inline(never)
    private mutating func updateTable() { table[updates % Self.dictionaryKeys, default: 0] += 1 }

    /// A description of what is wrong after `expected` updates, or nil when nothing is.
    func inconsistency(expected: Int) -> String? {
        if updates != expected { return "\(updates) updates were applied, \(expected) critical sections ran" }
        if kind == .dictionary {
            let entries = table.values.reduce(0, +)
            if entries != expected {
                return "the dictionary's entries add up to \(entries), \(expected) updates were applied"
            }
        }
        return nil
    }
}
