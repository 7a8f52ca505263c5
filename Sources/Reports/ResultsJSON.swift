import FoundationEssentials
import Results

/// results.json: the whole run, versioned (`RunResults.schema`), with every raw sample, so every
/// other output can be regenerated from it.
public enum ResultsJSON {
    public static let fileName = "results.json"

    public static func encode(_ run: RunResults) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(run), as: UTF8.self) + "\n"
    }

    /// Reads a results file, refusing a schema this version does not know. A file written before
    /// metrics were described carries none; it is read with `olderFilesMetrics` (the reader's own
    /// counters' descriptions, `CounterSet.catalogue`), which named the same counters then.
    public static func decode(_ text: String, olderFilesMetrics: [Metric] = []) throws -> RunResults {
        var run = try JSONDecoder().decode(RunResults.self, from: Data(text.utf8))
        guard run.schema == RunResults.currentSchema else {
            throw SchemaMismatch(found: run.schema)
        }
        if run.metrics == nil { run.metrics = olderFilesMetrics }
        return run
    }

    public struct SchemaMismatch: Error, CustomStringConvertible {
        public let found: Int
        public var description: String {
            "results schema \(found); this bench reads schema \(RunResults.currentSchema)"
        }
    }
}
