import Harness
import Results

extension BuildStamp {
    /// `bench --version`: "bench 0.9.0, commit <40 hex digits>", with ", with uncommitted changes"
    /// when the tree was modified at build time. The whole commit, so a CI log can be pasted into
    /// `git show`, and `bench ab` can read another build's identity from it (`Identity`).
    static var description: String {
        "bench \(version), "
            + (commit.hasPrefix("unavailable: ")
                ? commit.replacing("unavailable: ", with: "commit unknown: ")
                : "commit \(commit)" + (modified ? ", with uncommitted changes" : ""))
    }

    /// The machine, and this binary's version and commit: what a run records.
    static func environment() -> RunEnvironment {
        RunEnvironment.capture(
            gitCommit: commit, benchVersion: version,
            uncommittedChanges: commit.hasPrefix("unavailable: ") ? nil : modified)
    }

    /// A build's identity as its `--version` line gives it.
    struct Identity: Equatable {
        let version: String
        /// 40 hex digits, or "unavailable: <why>".
        let commit: String
        let uncommittedChanges: Bool?

        /// Reads a `--version` line; nil when it is not one (a build from before `--version`).
        init?(versionLine line: String) {
            let line = line.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard line.hasPrefix("bench "), let comma = line.firstIndex(of: ",") else { return nil }
            version = String(line[line.index(line.startIndex, offsetBy: 6)..<comma])
            let rest = line[line.index(after: comma)...].drop { $0 == " " }
            if rest.hasPrefix("commit unknown: ") {
                commit = "unavailable: " + rest.dropFirst("commit unknown: ".count)
                uncommittedChanges = nil
            } else if rest.hasPrefix("commit ") {
                let hash = rest.dropFirst("commit ".count).prefix { $0.isHexDigit }
                guard hash.count == 40 else { return nil }
                commit = String(hash)
                uncommittedChanges = rest.hasSuffix("with uncommitted changes")
            } else {
                return nil
            }
        }

        init(version: String, commit: String, uncommittedChanges: Bool?) {
            self.version = version
            self.commit = commit
            self.uncommittedChanges = uncommittedChanges
        }

        /// What `bench ab` records for a build that says nothing of itself.
        static func unknown(_ path: String) -> Identity {
            Identity(
                version: "unknown",
                commit: "unavailable: \(path) does not say its commit (a build from before `bench --version`)",
                uncommittedChanges: nil)
        }
    }
}
