/// What results.json keeps of a case's profile (`bench run --profile`): where its files are and
/// its top frames, so report.md shows them and `bench report` writes them again.
public struct ProfileSummary: Sendable, Codable, Equatable {
    /// One frame's samples: running in it (self), and with it anywhere on the stack (total).
    public struct Frame: Sendable, Codable, Equatable {
        public let frame: String
        public let selfSamples: Int
        public let totalSamples: Int

        public init(frame: String, selfSamples: Int, totalSamples: Int) {
            self.frame = frame
            self.selfSamples = selfSamples
            self.totalSamples = totalSamples
        }
    }

    public let caseID: String
    /// The case's folder, relative to the results file (flamegraph.svg, stacks.folded, perf.data).
    public let folder: String
    public let samples: Int
    /// How it was recorded ("cpu-clock at 999 Hz, frame-pointer stacks, …").
    public let how: String
    /// The frames with the most self samples, most first.
    public let top: [Frame]

    public init(caseID: String, folder: String, samples: Int, how: String, top: [Frame]) {
        self.caseID = caseID
        self.folder = folder
        self.samples = samples
        self.how = how
        self.top = top
    }
}
