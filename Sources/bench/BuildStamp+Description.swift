import Harness

extension BuildStamp {
    /// `bench --version`: "bench 0.9.0, commit 0123456789ab", with ", with uncommitted changes"
    /// when the tree was modified at build time.
    static var description: String {
        "bench \(version), " + (commit.hasPrefix("unavailable: ") ? commit.replacing("unavailable: ", with: "commit unknown: ")
            : "commit \(commit.prefix(12))" + (modified ? " with uncommitted changes" : ""))
    }

    /// The machine, and this binary's version and commit: what a run records.
    static func environment() -> RunEnvironment {
        RunEnvironment.capture(gitCommit: commit, benchVersion: version, uncommittedChanges: commit.hasPrefix("unavailable: ") ? nil : modified)
    }
}
