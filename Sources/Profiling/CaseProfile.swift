import Charts
import Results

/// One case's profile, named and ready to write: its stacks with Swift names demangled, its top
/// frames, and its flame graph.
public struct CaseProfile: Sendable {
    public let caseID: String
    public let stacks: CollapsedStacks
    public let top: TopFrames
    /// How it was recorded, for the flame graph's subtitle and the index ("cpu-clock at 999 Hz,
    /// frame-pointer stacks, 20 samples of 50 ms").
    public let how: String

    public init(caseID: String, stacks: CollapsedStacks, how: String) {
        self.caseID = caseID
        self.stacks = stacks
        self.how = how
        top = TopFrames(stacks)
    }

    /// The folder name of the case under the output directory: its id with every character a
    /// file name should not hold replaced.
    public var folder: String { Self.folder(of: caseID) }

    public static func folder(of caseID: String) -> String {
        String(caseID.map { $0.isLetter || $0.isNumber || "-_.=,".contains($0) ? $0 : "_" })
    }

    public var flameGraph: String {
        FlameGraph(
            title: caseID, subtitle: "\(stacks.samples) samples: \(how)",
            stacks: stacks.counts.map { ($0.key, $0.value) }
        ).svg()
    }

    /// What results.json keeps of it: its folder under `prefix` and its first frames.
    public func summary(prefix: String, frames: Int = 10) -> ProfileSummary {
        ProfileSummary(
            caseID: caseID, folder: prefix + folder, samples: stacks.samples, how: how,
            top: Array(top.rows.prefix(frames)))
    }

    /// The case's section of the index: where its files are and its first frames. `subfolder`
    /// is where the case's folder is below the index's directory, when not beside it (a build's
    /// "a" or "b").
    public func summary(frames: Int = 12, linkedFrom subfolder: String? = nil) -> [String] {
        let path = subfolder.map { "\($0)/\(folder)" } ?? folder
        return [
            "## \(caseID)", "",
            "\(stacks.samples) samples (\(how)). [Flame graph](\(path)/flamegraph.svg) · "
                + "[folded stacks](\(path)/stacks.folded) · `perf report -i \(path)/perf.data`", "",
        ]
            + top.markdown(first: frames) + [""]
    }
}
