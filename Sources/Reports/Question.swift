import CaseCatalogue
import Claims
import Results

/// A question people bring to the report, and the cases of the quick suite that answer it: each
/// part a condition ("2 threads") and the contenders compared under it. The answer is computed
/// from the run (`QuestionAnswer`); a contender the run did not measure is named as missing, and
/// a question with nothing measured says which command measures it.
struct Question: Sendable {
    let text: String
    let parts: [Part]
    /// The command that measures every part, for a run that did not.
    let measuredBy: String

    struct Part: Sendable {
        /// Under what the contenders are compared: "1 thread", "1 µs pieces".
        let condition: String
        let contenders: [Contender]
        /// What the contenders are ranked by: time (with a verdict) or a latency percentile.
        var figure: Figure = .time
        /// Threads per CPU when the condition counts them so ("2 threads per CPU"): the line
        /// says how many that made on the measured machine, which a reader otherwise works out.
        var threadsPerCPU: Int?

        /// `condition` as the report shows it, with the threads a per-CPU count made on a
        /// machine of `cpus` CPUs. `condition` alone names the part (`Agreement` matches runs
        /// of different machines by it).
        func shownCondition(cpus: Int?) -> String {
            guard let threadsPerCPU, let cpus else { return condition }
            return condition + " (\(threadsPerCPU * cpus) threads here)"
        }
    }

    struct Contender: Sendable {
        let label: String
        let spec: CaseSpec
        /// Each operation's share of the case's: 1, or 1 / iterations for a whole loop.
        var perUnit: PerUnit = .operation
    }

    enum PerUnit: Sendable {
        case operation
        /// The case's operation is a loop of its `iterations` parameter; the answer is per iteration.
        case iteration
    }

    enum Figure: Sendable {
        /// ns per operation, compared by `Faster`: a verdict only where a repeat run would agree.
        case time
        /// A latency the workload keeps, as `<prefix>.p50` (ranked by) and `.p99` (shown beside).
        case latency(prefix: String)
    }
}

extension Question {
    /// The questions of report.md's first screen, in the order people ask them.
    static let firstScreen: [Question] = [
        sharedState, taskCost, smallBodyStride, taskGroupOrConcurrentPerform, hopCost, asyncLetOrJoin,
        nioAsGlobalExecutor,
    ]

    /// Every backend that runs tasks (all but `none`), in the registry's order.
    static let runtimes = BackendName.builtIn.filter { $0 != .none }

    static let taskCost = Question(
        text: "What does an empty task cost on each runtime?",
        parts: [
            Part(
                condition: "submitted from outside the pool, run and counted",
                contenders: runtimes.map { Contender(label: $0.rawValue, spec: .spawn(.outside, on: $0)) }),
            Part(
                condition: "`Task { }` created and awaited, on the runtime's executors",
                contenders: runtimes.map { Contender(label: $0.rawValue, spec: .swiftAsync(.task, on: $0)) }),
        ],
        measuredBy: "bench run --suite quick --workload spawn --workload swift-async")

    /// The stride for a small body, on libdispatch (`concurrentPerform`) and on work-stealing,
    /// the fastest pool in the full suite's stride curves: each stride the quick suite sweeps,
    /// per iteration, beside the plain loop the parallel one must beat.
    static let smallBodyStride: Question = {
        func part(body: String, _ backend: BackendName, _ name: String) -> Part {
            let strides = ["1", "8", "64", "512"].map { stride in
                Contender(
                    label: "stride \(stride)", spec: .applyStride(body: body, stride: stride, on: backend),
                    perUnit: .iteration)
            }
            let automatic = Contender(
                label: "the automatic stride", spec: .applyStride(body: body, stride: "auto", on: backend),
                perUnit: .iteration)
            let serial = Contender(label: "a plain loop", spec: .applySerial(body: body), perUnit: .iteration)
            return Part(condition: "\(name), \(body) body, per iteration", contenders: strides + [automatic, serial])
        }
        return Question(
            text: "What stride for a small loop body?",
            parts: [
                part(body: "100ns", .libdispatch, "concurrentPerform"),
                part(body: "100ns", .workStealing, "work-stealing apply"),
                part(body: "10ns", .libdispatch, "concurrentPerform"),
                part(body: "10ns", .workStealing, "work-stealing apply"),
            ],
            measuredBy: "bench run --suite quick --workload apply-stride --workload apply-serial")
    }()

    static let sharedState: Question = {
        func contenders(_ setting: QueueVsLockSetting) -> [Contender] {
            [
                Contender(label: "Mutex", spec: .queueVsLock(.swiftMutex, on: .none, setting)),
                Contender(label: "actor", spec: .queueVsLock(.actor, on: .none, setting)),
                Contender(label: "DispatchQueue.sync", spec: .queueVsLock(.queueSync, on: .libdispatch, setting)),
            ]
        }
        return Question(
            text: "State shared by several threads: Mutex, actor or serial queue?",
            parts: [
                Part(condition: "1 thread, empty sections", contenders: contenders(.uncontended)),
                Part(condition: "2 threads, empty sections", contenders: contenders(.pair)),
                Part(
                    condition: "2 threads per CPU, 100 ns sections 1 µs apart", contenders: contenders(.contended),
                    threadsPerCPU: 2),
            ],
            measuredBy: "bench run --suite quick --workload queue-vs-lock")
    }()

    static let taskGroupOrConcurrentPerform: Question = {
        func contenders(body: String) -> [Contender] {
            let body = [(ParameterName.body, body)]
            return [
                Contender(label: "task group", spec: .swiftAsync(.taskGroupChild, on: .swiftConcurrency, body)),
                Contender(
                    label: "concurrentPerform", spec: .applyStride(body: body[0].1, stride: "auto", on: .libdispatch),
                    perUnit: .iteration),
                Contender(
                    label: "task group on work-stealing", spec: .swiftAsync(.taskGroupChild, on: .workStealing, body)),
                Contender(
                    label: "work-stealing apply",
                    spec: .applyStride(body: body[0].1, stride: "auto", on: .workStealing),
                    perUnit: .iteration),
            ]
        }
        return Question(
            text: "Task group or concurrentPerform, per piece of parallel work?",
            parts: [
                Part(condition: "1 µs pieces", contenders: contenders(body: "1us")),
                Part(condition: "empty pieces", contenders: contenders(body: "0ns")),
            ],
            measuredBy: "bench run --suite quick --workload swift-async --workload apply-stride")
    }()

    static let hopCost = Question(
        text: "What does an actor hop cost on each executor?",
        parts: [
            Part(
                condition: "a hop between two actors, its median latency",
                contenders: runtimes.map { backend in
                    Contender(
                        label: backend == .swiftConcurrency ? "default actors" : "\(backend)'s serial executors",
                        spec: .swiftAsync(.actorHop, on: backend))
                }, figure: .latency(prefix: "hop_ns"))
        ],
        measuredBy: "bench run --suite quick --workload swift-async --filter actor-hop")

    static let asyncLetOrJoin: Question = {
        let fib: [(ParameterName, String)] = [(.fib, "20")]
        func asyncLet(on backend: BackendName) -> CaseSpec {
            CaseSpec(.forkJoin, on: backend, fib + [(.form, "async-let"), (.cutoff, "1")])
        }
        return Question(
            text: "Divide and conquer: async let or a work-stealing join?",
            parts: [
                Part(
                    condition: "fib(20), split at every call",
                    contenders: [
                        Contender(label: "async let", spec: asyncLet(on: .swiftConcurrency)),
                        Contender(label: "async let on work-stealing", spec: asyncLet(on: .workStealing)),
                        Contender(
                            label: "work-stealing join",
                            spec: CaseSpec(.forkJoin, on: .workStealing, fib + [(.form, "task"), (.split, "eager")])),
                    ])
            ],
            measuredBy: "bench run --suite quick --workload fork-join")
    }()
}

extension Question {
    /// The choice NIO offers servers: its event loops as Swift's global executor, against Swift's own.
    static let nioAsGlobalExecutor: Question = {
        func part(_ condition: String, _ pattern: AsyncPattern, _ parameters: [(ParameterName, String)] = [])
            -> Part
        {
            Part(
                condition: condition,
                contenders: [
                    Contender(label: "NIO's loops", spec: .swiftAsync(pattern, on: .nioGlobal, parameters)),
                    Contender(label: "Swift's pool", spec: .swiftAsync(pattern, on: .swiftConcurrency, parameters)),
                ])
        }
        return Question(
            text: "Does NIO as Swift's global executor pay off?",
            parts: [
                part("an unstructured task, created and awaited", .task),
                part("a task group child", .taskGroupChild, [(.body, "0ns")]),
                part("an actor call", .actorCall),
            ],
            measuredBy:
                "bench run --suite quick --workload swift-async --backend nio-global --backend swift-concurrency")
    }()
}
