import Backends
import CaseCatalogue
import Harness
import Results
import RuntimeKit

/// `swift-async`: what Swift concurrency costs on each backend's executors. One operation, by
/// `pattern`:
///
/// - `actor-call`: one call to an actor from a task, uncontended, in a loop of calls as plain
///   Swift writes it. The actor runs on the backend's serial executor and the calling task prefers
///   its task executor; between two calls to the same actor with nothing else between them the
///   compiler leaves out the hop back to the task's executor, so what a call costs is mostly the
///   call, not two switches (`actor-hop` measures those). `actor-contended`: the same with `tasks`
///   tasks calling at once (2, or `2xcpus`: twice the CPUs).
/// - `actor-hop`: one hop between two actors on two serial executors calling each other in turn;
///   `hop_ns.p50`/`.p99` is a hop's latency, from the caller's clock before the call to the
///   callee's on arrival, and from the callee's before returning to the caller's after, one round
///   trip in 8 timed (a hop on default actors costs about as much as a clock read).
///   `actor-hop-shared`: the same with both actors on one serial executor (SE-0392's claim that
///   sharing "may decrease the runtime costs of switching"); default actors cannot share one.
/// - `nonisolated-call`: one call from an actor on the serial executor to a nonisolated async
///   function and back, the function on the task executor the task prefers;
///   `nonisolated-call-unpreferred`: the same from a task with no preference, so the function runs
///   on Swift's cooperative pool (SE-0417's case for a preference: "avoid potentially un-necessary
///   context switching"). The same on swift-concurrency, which has no task executor of its own.
/// - `task-group-child`: one child of a task group spinning for `body` (0 or 1 µs), added and its
///   result awaited, every child added before the first is awaited (fan-out, fan-in); `async-let`:
///   one empty `async let` child; `task`: one empty unstructured task created with the backend's
///   executor preference and its value awaited.
/// - `yield`: one `Task.yield()`; `continuation`: one continuation resumed by a block on the
///   backend's pool, `resume_ns.p50`/`.p99` from the clock read before `resume` to the task running
///   again; `stream`: one element through an AsyncStream from a child task.
///
/// On swift-concurrency the executors are Swift's own: the cooperative pool and default actors.
/// Each run is one task started from the measuring thread that does `count` operations; the
/// measuring thread waits for it with a deadline (`SpawnCompletion`), so a runtime that loses a job
/// fails the case with "only k of n", never hangs the child. Each run counts what it did (the
/// actors' own counts of calls; the children's, tasks', resumes' and elements' sums), and
/// `finish()` compares that with what was asked for.
public struct SwiftAsync: Workload {
    public let timeout: Duration

    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.swiftAsync.rawValue
    public let summary =
        "Swift concurrency on each backend's executors: actor calls and hops, task group children, async let, "
        + "tasks, yields, continuations, stream elements"
    public let operation = "one actor call or hop, child, task, yield, resume or element (see the pattern)"
    public let usesBackend = true

    public typealias Pattern = AsyncPattern

    static let tasksName = ParameterName.tasks.rawValue

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        let twiceTheCPUs = ThreadCount.perCPU(2).description
        // 2 tasks, and twice the CPUs; on one CPU they are the same.
        let callers = activeProcessorCount == 1 ? [twiceTheCPUs] : ["2", twiceTheCPUs]
        let bodies = [BodyCost(nanoseconds: 0), BodyCost(nanoseconds: 1_000)]
        func sets(_ patterns: [Pattern]) -> [[Parameter]] {
            patterns.flatMap { pattern -> [[Parameter]] in
                let named = [Parameter(ParameterName.pattern.rawValue, pattern.rawValue)]
                if pattern.hasCallers { return callers.map { named + [Parameter(Self.tasksName, $0)] } }
                if pattern.hasBody { return bodies.map { named + [$0.parameter] } }
                return [named]
            }
        }
        switch suite {
        // Smoke: the actor call, which goes through both of a backend's executors.
        case .smoke: return sets([.actorCall])
        // Quick: an actor at 1, 2 and 2 × CPUs tasks, a hop's latency (two executors, and one
        // shared), a nonisolated call with and without a preference, a child and a task.
        case .quick:
            return sets([
                .actorCall, .actorContended, .actorHop, .actorHopShared, .nonisolatedCall, .nonisolatedCallUnpreferred,
                .taskGroupChild, .task,
            ])
        case .full: return sets(Pattern.allCases)
        }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let pattern: Pattern = try benchmarkCase.choice(ParameterName.pattern.rawValue)
        var asyncCase = AsyncCase(pattern: pattern)
        if pattern.hasCallers {
            let text = benchmarkCase.parameter(Self.tasksName)
            guard let text, let tasks = ThreadCount(text) else {
                throw benchmarkCase.badParameter(Self.tasksName, valid: "2|4|…|2xcpus", got: text)
            }
            asyncCase.callers = tasks.resolved(cpus: activeProcessorCount)
        }
        if pattern.hasBody { asyncCase.body = try BodyCost(parameterOf: benchmarkCase) }
        return try benchmarkCase.requireBackend(backend).specialized(Make(asyncCase: asyncCase, timeout: timeout))
    }

    private struct Make: RuntimeTypeConsumer {
        let asyncCase: AsyncCase
        let timeout: Duration

        func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> any MeasuredOperation {
            SwiftAsync.operation(asyncCase, on: R(workers: 0), timeout: timeout)
        }
    }

    /// The operation of `pattern` with its smallest parameters (2 tasks, an empty body) on
    /// `runtime`, which it owns from now on.
    public static func operation<R: ConcurrencyRuntime>(
        _ pattern: Pattern, on runtime: R, timeout: Duration = Spawn.defaultTimeout
    ) -> any MeasuredOperation {
        operation(AsyncCase(pattern: pattern, callers: pattern.hasCallers ? 2 : 1), on: runtime, timeout: timeout)
    }

    static func operation<R: ConcurrencyRuntime>(_ asyncCase: AsyncCase, on runtime: R, timeout: Duration)
        -> any MeasuredOperation
    {
        let latencies = asyncCase.latencyPrefix.map(AsyncLatencies.init(prefix:))
        return AsyncOperation(
            runtime: runtime,
            driver: AsyncDriver(
                units: asyncCase.pattern.units, executor: runtime.makeTaskExecutor(), timeout: timeout,
                body: AsyncRunBody.body(asyncCase, on: runtime, latencies: latencies)),
            latencies: latencies)
    }
}
