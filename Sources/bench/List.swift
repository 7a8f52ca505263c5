import ArgumentParser
import Backends
import RuntimeKit

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the registered backends, their worker counts and unsupported behaviours."
    )

    @Flag(help: "Print only the backend ids, one per line (for scripts).")
    var idsOnly = false

    func run() {
        if idsOnly {
            Backends.ids.forEach { print($0) }
            return
        }
        for backend in Backends.all {
            print("\(backend.id)\n  \(backend.summary)\n  workers: \(workerCount(of: backend.runtime)) (with workers: 0)")
            for (behaviour, reason) in backend.unsupported.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("  not supported: \(behaviour): \(reason)")
            }
        }
    }

    private func workerCount<R: ConcurrencyRuntime>(of runtime: R.Type) -> Int {
        let instance = R(workers: 0)
        defer { instance.shutdown() }
        return instance.workers
    }
}
