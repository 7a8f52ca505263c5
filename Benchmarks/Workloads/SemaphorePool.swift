import CBodyCost
import Harness
import Results
import RuntimeKit
import Synchronization

/// `semaphore`, pattern `pool`: the guide's file-descriptor example. A semaphore of value
/// `resources` (2) regulates `users` (4) dedicated threads; each repeatedly waits, takes a
/// resource, works on it for `holdTime`, releases it and signals. One operation is one acquire +
/// release; a round's operations are shared evenly among the users, so ns/op is the pool's
/// throughput. With twice as many users as resources (and, on two cores, as CPUs) most waits
/// block: this is the semaphore under contention.
///
/// Taking a resource is raising `holders` (an atomic count of threads between a successful wait
/// and their signal); each user keeps the most it ever saw. `max_holders` (over the samples) is
/// the workload's own figure, and the case fails if it ever exceeded `resources`, if the
/// acquisitions are not the operations run, or if the semaphore does not hold exactly
/// `resources` permits at the end. Waits have a deadline: a lost permit fails the case.
///
/// `@unchecked Sendable`: everything a user writes is an atomic; the rest is immutable.
final class SemaphorePool<S: CountingSemaphore>: MeasuredOperation, @unchecked Sendable {
    static var resources: Int { PoolShape.resources }
    static var users: Int { PoolShape.users }

    /// One user's own records. Only the user writes them, with relaxed stores (counts read by the
    /// measuring thread for progress and after the rounds; nothing is published through them),
    /// except that `beginSamples` clears `mostSinceSamples` between rounds.
    private final class User: Sendable {
        let acquisitions = Atomic<Int>(0)
        let mostEver = Atomic<Int>(0)
        let mostSinceSamples = Atomic<Int>(0)
    }

    private let supply: SemaphoreSupply<S>
    private let semaphore: S
    /// Threads holding a resource now.
    private let holders = Atomic<Int>(0)
    private let userRecords = (0..<PoolShape.users).map { _ in User() }
    private let holdRounds: UInt64
    private let timeout: Duration
    private var crew: ThreadCrew?

    init(supply: SemaphoreSupply<S>, timeout: Duration, holdRounds: UInt64) {
        self.supply = supply
        self.timeout = timeout
        self.holdRounds = holdRounds
        semaphore = supply.make(Self.resources)
        crew = ThreadCrew(members: Self.users, timeout: timeout) { [self] user, round in use(as: user, round) }
    }

    private func use(as user: Int, _ round: ThreadCrew.Round) -> WorkloadError? {
        let me = userRecords[user], rounds = holdRounds
        var acquisitions = me.acquisitions.load(ordering: .relaxed)
        var most = 0
        defer {
            if most > me.mostEver.load(ordering: .relaxed) { me.mostEver.store(most, ordering: .relaxed) }
            if most > me.mostSinceSamples.load(ordering: .relaxed) {
                me.mostSinceSamples.store(most, ordering: .relaxed)
            }
        }
        for _ in 0..<round.share(of: user, among: Self.users) {
            guard semaphore.wait(timeout: timeout) == .success else {
                return .verificationFailed(
                    "user \(user) waited \(timeout) for one of \(Self.resources) resources: a permit was lost")
            }
            // relaxed: the semaphore orders a release before the acquisition it enables (its
            // signal happens before the wait it ends, as it must for the resource's own data),
            // so this increment comes after the releaser's decrement in `holders`'s order and a
            // correct semaphore can never show more than k. Only a wrong one can.
            let now = holders.wrappingAdd(1, ordering: .relaxed).newValue
            if now > most { most = now }
            rb_spin(rounds)
            holders.wrappingSubtract(1, ordering: .relaxed)
            semaphore.signal()
            acquisitions += 1
            me.acquisitions.store(acquisitions, ordering: .relaxed)
        }
        return nil
    }

    func run(_ count: Int) throws {
        try crew?.run(count) { userRecords.reduce(0) { $0 + $1.acquisitions.load(ordering: .relaxed) } }
    }

    func beginSamples() {
        for user in userRecords { user.mostSinceSamples.store(0, ordering: .relaxed) }
    }

    var workloadMetrics: [String: WorkloadMetric] {
        let most = userRecords.map { $0.mostSinceSamples.load(ordering: .relaxed) }.max() ?? 0
        return ["max_holders": WorkloadMetric(Double(most), unit: .count)]
    }

    func finish() throws {
        guard let crew else { return }
        crew.stop()
        self.crew = nil  // the users held `self`
        let permits = semaphore.permitsRestoring(initialValue: Self.resources)
        supply.close()
        if let spent = crew.spent { throw spent }
        let k = Self.resources
        var problems: [String] = []
        let most = userRecords.map { $0.mostEver.load(ordering: .relaxed) }.max() ?? 0
        if most > k {
            problems.append(
                "max holders \(most) > \(k) resources: the semaphore let more threads in than it had permits")
        }
        let acquisitions = userRecords.reduce(0) { $0 + $1.acquisitions.load(ordering: .relaxed) }
        if acquisitions != crew.completed {
            problems.append("\(acquisitions) acquisitions for \(crew.completed) operations")
        }
        let stillHeld = holders.load(ordering: .relaxed)
        if stillHeld != 0 { problems.append("\(stillHeld) resources still held") }
        if permits != k {
            problems.append("\(permits > k ? "more than \(k)" : "\(permits)") permits left at the end, not \(k)")
        }
        guard problems.isEmpty else {
            throw WorkloadError.verificationFailed("pool: " + problems.joined(separator: "; "))
        }
    }
}

/// The `pool` pattern's constants (outside the generic class, which cannot store them).
enum PoolShape {
    /// k: the finite resource the semaphore counts.
    static let resources = 2
    /// N: threads competing for the resources; twice k, so half of them wait at any time.
    static let users = 4
    /// Work done while holding a resource: short, like a file read from cache, so the semaphore
    /// stays most of what is measured, but long enough that holders really overlap.
    static let holdTime = BodyCost(nanoseconds: 100)
}
