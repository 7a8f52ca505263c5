import Synchronization

/// The one word both of our atomic groups (fifo-dispatch's `FIFOGroup`, work-stealing's
/// `StealingGroup`) keep their state in: unfinished members in the low 31 bits, `held` at bit
/// 31, and above them the generation, which advances exactly when the count reaches zero, in the
/// same atomic step (so a waiter that saw generation 7 and later sees 8 knows a zero happened
/// after it started waiting).
///
/// `held`: a group with blocks among its members keeps itself alive until it empties. The first
/// block's `enterForBlock` of a round sets the bit and its caller retains the group; the `leave`
/// that brings the count to zero clears the bit and its caller releases the group, last of all it
/// does. So a block needs no reference of its own: one retain and release per round instead of
/// one per block on the group's reference count, a line that the submitter and the workers would
/// otherwise pass back and forth. A plain `enter` and `leave`, whose caller holds the group
/// anyway, never touch the count.
public enum GroupWord {
    // Computed, not `static let`: a debug build reaches a stored static through swift_once on
    // every access, and under ThreadSanitizer every such access takes the once's lock
    // (tools/check-lazy-statics.sh).
    @inlinable public static var countMask: UInt64 { 0x7FFF_FFFF }
    @inlinable public static var held: UInt64 { 0x8000_0000 }
    @inlinable public static var generationUnit: UInt64 { 1 << 32 }
    @inlinable static var generationMask: UInt64 { ~0xFFFF_FFFF }

    /// `enter` for a block submitted with the group. Returns true when the caller must retain the
    /// group for the round. The member this adds keeps the count above zero until the block has
    /// run, so no `leave` can clear `held` between the add and the set, and the release (after
    /// the zero) comes after the retain (made before the block is submitted). Relaxed: a
    /// member's writes reach a waiter through its leave, not through the enter.
    @inlinable
    public static func enterForBlock(_ word: borrowing Atomic<UInt64>) -> Bool {
        let after = word.wrappingAdd(1, ordering: .relaxed).newValue
        precondition(after & countMask != 0, "a group past 2^31 - 1 members")
        guard after & held == 0 else { return false }
        return word.bitwiseOr(held, ordering: .relaxed).oldValue & held == 0
    }

    /// Rounds of a waiter's poll between two looks for each member left beyond the last: 4, 52 ns
    /// on the Intel VM (a `pause` 13 ns), about 110 on the AMD one. `bench ab` of fan-out, a round
    /// of 4 tasks: 4 and 8 read the same; 16 (48 rounds while 4 are left) +29%, looking too late.
    @inlinable public static var roundsPerMemberLeft: Int { 4 }
    /// Members left beyond which the gap stops growing (32 rounds): a round of more tasks than
    /// that still gets a look every 0.4–0.9 µs.
    @inlinable public static var widestGapMembers: Int { 9 }

    /// Polls with `spin` until the generation in `load()` differs from `generation` (the one a
    /// waiter saw with members left), looking less often the more members remain: each look pulls
    /// the word's line from the thread whose `leave` must then take it back, so a look every round
    /// made every leave of a fan-out round pay that transfer (README.md, "GroupWord"). The last
    /// member is looked for every round, as any hand-off is. Returns `spin.poll`'s answer.
    @inlinable
    public static func poll(
        _ spin: borrowing SpinBudget, untilGenerationLeaves generation: UInt64, _ load: () -> UInt64
    ) -> Bool {
        // A hand-off budget looks every round, so the looks skipped are rounds.
        spin.poll(skippingLooks: {
            let now = load()
            if now >> 32 != generation { return nil }
            return max(0, min(Int(now & countMask), widestGapMembers) - 1) * roundsPerMemberLeft
        })
    }

    /// The word after one `leave` of `word`: one member fewer, or, for the last, a count of
    /// zero, `held` cleared and the next generation.
    @inlinable
    public static func afterLeave(_ word: UInt64) -> UInt64 {
        word & countMask == 1 ? (word & generationMask) &+ generationUnit : word - 1
    }
}
