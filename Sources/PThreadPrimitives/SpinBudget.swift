import CSpinHint
#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit
import Synchronization

/// How long a waiter polls before it sleeps, learnt by one semaphore or group from its own waits.
///
/// Polling pays only when the wait ends while the waiter polls: then a hand-off costs a few
/// hundred nanoseconds instead of a sleep and a wake-up through the kernel. On a machine with more
/// busy threads than CPUs it mostly does not end in time (the thread that would end it is waiting
/// for a CPU), and the poll takes the CPU from it: with a fixed poll, fan-out from 2 × CPUs
/// threads spent most of its CPU polling in group waits (README.md, "SpinBudget"). So the budget
/// halves after every wait that had to sleep anyway, down to `minimum`, and grows back to twice
/// the rounds a successful poll needed.
///
/// Every `probeEvery`th poll under the maximum polls for the whole maximum. Without it, two
/// threads passing a token back and forth get stuck asleep: once one sleeps, its partner's reply
/// comes a wake-up later than the other's short poll, so that one sleeps too, and no poll ever
/// succeeds to grow the budget again (every hop then pays a sleep and a wake-up). One long poll in
/// 32 lets the pair catch each other awake, and costs a busy machine 124 rounds per wait on
/// average. It catches them only if it outlasts a wake-up through the kernel, hence `maximum`.
///
/// A poll for a lock (a contended `sync`) looks only every `pausesBetweenLooks` rounds: each
/// look pulls the lock's line from the holder's CPU, and with a look every round the waiter's look
/// caught the lock idle between two of the holder's sections about every other time, so the lock
/// changed CPUs every few sections and each section paid the line's round trip (README.md,
/// "SpinBudget"). A poll for a hand-off (a token, a group's count) looks every round: its wait
/// ends when another thread says so, and a longer interval only makes it end later.
///
/// The limit is a hint, not a protocol: relaxed loads and stores, written only when it changes
/// (waiters on one object would otherwise pass its line between them on every wait). A race
/// between two updates loses one of them, which the next wait corrects.
public struct SpinBudget: ~Copyable, @unchecked Sendable {
    /// Rounds of the longest poll, and of a probe: 54 µs on the Intel VM (a `pause` is 13.5 ns).
    /// It must outlast a wake-up through the kernel, which takes 20–25 µs there (POSIX semaphore
    /// ping-pong, 45 µs a round trip in most processes). With 1,000 rounds (13.5 µs) a probe ran
    /// out before the sleeping partner's reply came, so a pair that had fallen asleep stayed
    /// asleep: semaphore ping-pong and producer-consumer, and nio's `sync`, kept one process in
    /// that mode in three to ten (README.md, "SpinBudget").
    public static let maximum = 4_000
    public static let minimum = 32
    public static let probeEvery = 32
    /// A poll gives up its CPU once every this many rounds (`sched_yield`, nothing when no other
    /// thread waits for the CPU). A hand-off that ends within them, as an uncontended one does in a
    /// few dozen rounds, never yields; on a machine with more busy threads than CPUs, the thread
    /// that would end the wait may be queued behind the poll on this very CPU, and without the
    /// yield it waited for the poll's whole budget.
    public static let yieldEvery = 64
    /// Rounds a hand-off poll takes before its first yield when another thread signalled last
    /// from this CPU (`LastSignaller`, which gives the figures): that thread then most likely
    /// waits for this very CPU, so the rounds before are lost.
    public static let yieldSoonAfter = 4

    /// What a poll waits for, which decides how often it looks.
    public enum Wait: Sendable {
        /// Another thread's signal: a token, a group's count, a turn. Looks every round.
        case handOff
        /// A lock that its holder may take back at once, section after section: looks every
        /// `pausesBetweenLooks` rounds, and further apart while it finds the lock taken
        /// (`pollForLock`).
        case lock
    }

    /// Rounds between two looks of a `.lock` poll: on the Intel VM (2 threads taking turns at a
    /// compare-and-exchange lock in C, pause 13.5 ns) 1 read 87–96 ns a section, 8 read 56–69,
    /// 16 read 37–38, 64 read 25. 16 (about 0.2 µs) is the most a waiter loses when the lock
    /// falls idle just after it looked.
    public static let pausesBetweenLooks = 16

    private let limit = Atomic<Int>(SpinBudget.maximum)
    /// Polls that started under the maximum, to pick the probes.
    private let shortPolls = Atomic<Int>(0)
    /// `pausesBetweenLooks` for a `.lock` poll, 1 for a hand-off.
    @usableFromInline let roundsPerLook: Int

    public init(for wait: Wait = .handOff) {
        roundsPerLook = wait == .lock ? Self.pausesBetweenLooks : 1
    }

    /// Polls `condition` (with a `pause` a round, and a look every `roundsPerLook` rounds) for at
    /// most the current budget of rounds. Returns true as soon as it holds, false when the budget
    /// ran out: the caller then sleeps.
    @inlinable
    public func poll(until condition: () -> Bool) -> Bool {
        #if FaultInjection
        let budget = InjectedFaults.spinBudget(currentLimit)
        #else
        let budget = currentLimit
        #endif
        for round in 0..<budget {
            // `%`, not a mask: its division is part of a round's length, and the look interval was
            // tuned with it (a mask made 2-thread contended sync 5% and 17% slower, `bench ab`).
            if round % roundsPerLook == 0, condition() {
                grow(from: budget, neededRounds: round)
                return true
            }
            if round % Self.yieldEvery == Self.yieldEvery - 1 { RuntimeEvents.yieldCPU() } else { rb_spin_pause() }
        }
        shrink(from: budget)
        RuntimeEvents.count(.waitsSlept)
        return false
    }

    /// `poll` for a lock (a budget made `for: .lock`): a look that finds the lock taken is
    /// followed by `firstLookGap` looks' worth of rounds before the next, and each later one by
    /// `lookGapGrowth` times more, up to `maximumLookGap` looks (16 × 16 rounds, 3.3 µs on the
    /// Intel VM): looks at rounds 0, 64, 320, then every 256. Two threads taking turns at a queue
    /// with empty sections handed it over whenever the waiter's look fell between two of the
    /// holder's sections, and each hand-over moved the state's line and the section's data to the
    /// other CPU: fifo-dispatch's contended `sync` read 40 ns a section against 20 alone. The
    /// waiter that backs off lets the holder run on at the uncontended cost, and a lock that falls
    /// idle for long is still taken at the next look (README.md, "SpinBudget").
    @inlinable
    public func pollForLock(until condition: () -> Bool) -> Bool {
        var gap = 0
        return poll(skippingLooks: {
            if condition() { return nil }
            gap = min(max(Self.firstLookGap, Self.lookGapGrowth * gap), Self.maximumLookGap)
            return gap - 1
        })
    }

    /// `poll`, where a look that fails says how many of the following looks to skip (nil: the wait
    /// is over). The skipped rounds still pause and still count against the budget, so a poll
    /// lasts as long however far apart it looks (`pollForLock`, `GroupWord.poll`).
    @inlinable
    public func poll(skippingLooks look: () -> Int?) -> Bool {
        var looksToSkip = 0
        return poll {
            if looksToSkip > 0 {
                looksToSkip -= 1
                return false
            }
            guard let skip = look() else { return true }
            looksToSkip = skip
            return false
        }
    }

    /// The most looks a `pollForLock` skips between two.
    public static let maximumLookGap = 16
    /// The gap, in looks, after a `pollForLock`'s first look that finds the lock taken, and how
    /// much each later one grows. Doubling from 1 (looks at rounds 0, 16, 48, 112, …) gave every
    /// turn of a contended lock five looks in its first 500 rounds, each taking the lock's line
    /// from the holder for its next section: `bench run`, Intel VM, 2 threads, empty sections,
    /// two sittings of 3 processes a case, fifo-dispatch 28.7 and 28.3 ns a section against 22.6
    /// and 21.8 with 4 then ×4 (libdispatch-c 25.5), work-stealing 23.1 and 23.2 against 20.2
    /// and 19.8; the 100 ns sections 1 µs apart no slower (761 and 762 against 730 and 754).
    public static let firstLookGap = 4
    public static let lookGapGrowth = 4

    /// `poll` for a hand-off whose signaller may share this CPU: after `yieldSoonAfter` rounds,
    /// a yield if `signallerHere` says the thread that will end the wait last ran on this CPU
    /// (`LastSignaller.isOnThisCPU`), then the poll as usual. A wait those rounds end never asks.
    /// Apart from `poll`, which a lock's poll keeps unchanged: its rounds' length decides when it
    /// looks (README.md, "LastSignaller").
    @inlinable
    public func poll(until condition: () -> Bool, yieldingSoonIf signallerHere: () -> Bool) -> Bool {
        for _ in 0..<Self.yieldSoonAfter {
            if condition() { return true }
            rb_spin_pause()
        }
        if signallerHere() { RuntimeEvents.yieldCPU() }
        return poll(until: condition)
    }

    /// Polls `condition` for at most `yieldEvery - 1` rounds, a `pause` apart, looking every
    /// `roundsPerLook` rounds: short enough never to yield the CPU, so it ends within about a
    /// microsecond however busy the machine. For a look that must not last (a semaphore waiter out
    /// of the count, which a `signal` cannot see); learns nothing. Where `yieldingIf` holds after
    /// `yieldSoonAfter` rounds (the signaller runs on this CPU, `LastSignaller.isOnThisCPU`), it
    /// yields once and looks once instead of the rest. It always looks after its last round.
    @inlinable
    public static func pollBriefly(
        until condition: () -> Bool, roundsPerLook: Int = 1, yieldingIf signallerHere: () -> Bool = { false }
    ) -> Bool {
        for round in 0..<(yieldEvery - 1) {
            if round % roundsPerLook == 0, condition() { return true }
            if round == yieldSoonAfter - 1, signallerHere() {
                RuntimeEvents.yieldCPU()
                return condition()
            }
            rb_spin_pause()
        }
        return condition()
    }

    /// Makes this thread's next hand-off poll a probe: its signal just woke a thread asleep in the
    /// kernel, which will reply (if it replies) a wake-up from now, later than a short poll lasts.
    /// Without it a pair that had fallen asleep stayed asleep until a probe every 32 polls: when
    /// something holds a CPU for a while (another process, the hypervisor), every such spell costs
    /// a pair dozens of hand-offs at a wake-up each, not one (README.md, "A probe after waking a
    /// sleeper").
    @inlinable
    public static func noteWokeSleeper() { rb_note_woke_sleeper() }

    /// The rounds this poll may take: the limit, or the maximum for a probe.
    @usableFromInline
    var currentLimit: Int {
        let current = limit.load(ordering: .relaxed)
        let wokeSleeper = roundsPerLook == 1 && rb_take_woke_sleeper()
        if current >= Self.maximum || wokeSleeper { return Self.maximum }
        let polls = shortPolls.wrappingAdd(1, ordering: .relaxed).newValue
        return polls % Self.probeEvery == 0 ? Self.maximum : current
    }

    @usableFromInline
    func grow(from budget: Int, neededRounds rounds: Int) {
        let wanted = min(Self.maximum, 2 * rounds + Self.minimum)
        if wanted > budget { limit.store(wanted, ordering: .relaxed) }
    }

    @usableFromInline
    func shrink(from budget: Int) {
        let halved = max(Self.minimum, budget / 2)
        if halved != budget { limit.store(halved, ordering: .relaxed) }
    }
}
