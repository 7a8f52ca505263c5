import Harness
import Reports
#if canImport(Glibc)
import Glibc
#endif

/// Apache Otava (`pip install apache-otava`), the change-point detector `bench history` hands each
/// series to: the executable named by RUNTIMEBENCH_OTAVA, else `otava` on PATH, else the one in the
/// virtual environment tools/install-deps.sh makes.
struct Otava {
    let executable: String

    /// Where tools/install-deps.sh installs it.
    static let installed = "/opt/runtimebench/venv/bin/otava"
    static let variable = "RUNTIMEBENCH_OTAVA"

    /// Otava, or why there is none: a sentence that says how to get it.
    static func locate() -> Result<Otava, Unavailable> {
        if let named = getenv(variable).map({ String(cString: $0) }), !named.isEmpty {
            return access(named, X_OK) == 0
                ? .success(Otava(executable: named))
                : .failure(Unavailable(description: "\(variable)=\(named) is not an executable"))
        }
        if let found = ExecutableSearch.find("otava") { return .success(Otava(executable: found)) }
        if access(installed, X_OK) == 0 { return .success(Otava(executable: installed)) }
        return .failure(
            Unavailable(
                description: "otava not found on PATH nor at \(installed): tools/install-deps.sh installs it "
                    + "(pip install apache-otava in a virtual environment)"))
    }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Otava with `arguments` (`OtavaInput.arguments`) and JSON output, reading the configuration
    /// at `configuration`: its JSON (standard output), or why it failed (its last line of
    /// standard error).
    func run(_ arguments: [String], configuration: String) async -> Result<String, Unavailable> {
        let outcome: ChildOutcome
        do {
            outcome = try await ChildProcess.run(
                executable: executable, arguments: arguments + ["--output", "json"],
                environment: ["OTAVA_CONFIG": configuration], deadline: .seconds(600))
        } catch {
            return .failure(Unavailable(description: "otava (\(executable)) could not be started: \(error)"))
        }
        guard outcome.ending == .exited(0) else {
            let said = outcome.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
            return .failure(Unavailable(description: "otava (\(executable)) ended with \(outcome.ending): \(said)"))
        }
        return .success(outcome.standardOutput)
    }
}
