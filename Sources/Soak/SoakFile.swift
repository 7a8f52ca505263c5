/// What `bench soak --json` writes: the settings and every backend's verdict.
public struct SoakFile: Codable {
    public struct Settings: Codable {
        public var duration: Double
        public var warmUp: Double
        public var workers: Int
        public var seed: UInt64
        public var maximumGrowthMiB: Double
        public var waitTimeout: Double

        public init(
            duration: Double, warmUp: Double, workers: Int, seed: UInt64, maximumGrowthMiB: Double, waitTimeout: Double
        ) {
            self.duration = duration
            self.warmUp = warmUp
            self.workers = workers
            self.seed = seed
            self.maximumGrowthMiB = maximumGrowthMiB
            self.waitTimeout = waitTimeout
        }
    }
    public var version = 1
    public var settings: Settings
    /// The signal that stopped the soak ("SIGINT"), nil when every backend ran.
    public var interrupted: String?
    public var backends: [SoakVerdict]

    public init(settings: Settings, interrupted: String?, backends: [SoakVerdict]) {
        self.settings = settings
        self.interrupted = interrupted
        self.backends = backends
    }
}
