import Results

/// The cases of a run arranged for comparison: per workload family, per parameter set, the
/// contenders side by side.
///
/// A contender is usually a backend. Some families also compare things that need no backend
/// with a backend's own primitive (queue-vs-lock's pthread mutex against each backend's serial
/// queue; a POSIX semaphore against each backend's): the parameters that say which thing is
/// measured (`guard`, `semaphore`) are then part of the contender, not of the parameter set.
/// They are found in the data, not listed: a parameter is a contender parameter when some of its
/// values run only without a backend and others only with one.
struct Family {
    let workload: String
    let contenderParameters: [String]
    let parameterSets: [ParameterSet]

    /// What the family's contenders are ranked by (each of its cases knows).
    var ranking: Ranking { parameterSets.first?.cases.first?.ranking ?? .time }

    struct ParameterSet {
        /// The set's parameters without the contender parameters, in the workload's order.
        let parameters: [Parameter]
        /// Every case of the set, every allocator, in the run's order.
        let cases: [MeasuredCase]

        var title: String {
            parameters.isEmpty ? "(no parameters)" : parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        }
    }

    /// The families of `cases`, in the order their workloads first appear.
    static func arrange(_ cases: [MeasuredCase]) -> [Family] {
        var order: [String] = []
        var byWorkload: [String: [MeasuredCase]] = [:]
        for measured in cases {
            let workload = measured.benchmarkCase.workload
            if byWorkload[workload] == nil { order.append(workload) }
            byWorkload[workload, default: []].append(measured)
        }
        return order.map { workload in
            let members = byWorkload[workload]!
            let contenders = contenderParameters(of: members.map(\.benchmarkCase))
            var setOrder: [[Parameter]] = []
            var bySet: [[Parameter]: [MeasuredCase]] = [:]
            for measured in members {
                let key = measured.benchmarkCase.parameters.filter { !contenders.contains($0.name) }
                if bySet[key] == nil { setOrder.append(key) }
                bySet[key, default: []].append(measured)
            }
            return Family(
                workload: workload, contenderParameters: contenders,
                parameterSets: setOrder.map { ParameterSet(parameters: $0, cases: bySet[$0]!) })
        }
    }

    /// Parameters with a value seen only without a backend and another seen only with one.
    static func contenderParameters(of cases: [BenchmarkCase]) -> [String] {
        guard let first = cases.first else { return [] }
        return first.parameters.map(\.name).filter { name in
            var backendless = Set<String>(), backed = Set<String>()
            for benchmarkCase in cases {
                guard let value = benchmarkCase.parameter(name) else { continue }
                if benchmarkCase.backend == BenchmarkCase.noBackend {
                    backendless.insert(value)
                } else {
                    backed.insert(value)
                }
            }
            return !backendless.subtracting(backed).isEmpty && !backed.subtracting(backendless).isEmpty
        }
    }

    /// How a case is named among its parameter set: its backend, and its contender parameters'
    /// values ("pthread-mutex", "libdispatch · queue-sync"). A value "backend" means the
    /// backend's own primitive, so the backend's name alone says it.
    func contender(_ benchmarkCase: BenchmarkCase) -> String {
        let values = contenderParameters.compactMap { benchmarkCase.parameter($0) }.filter { $0 != "backend" }
        if benchmarkCase.backend == BenchmarkCase.noBackend {
            return values.isEmpty ? benchmarkCase.backend : values.joined(separator: " · ")
        }
        return ([benchmarkCase.backend] + values).joined(separator: " · ")
    }
}
