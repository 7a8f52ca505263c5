import FoundationEssentials
import Results

/// results.json: the whole run, versioned (`RunResults.schema`), with every raw sample, so every
/// other output can be regenerated from it.
public enum ResultsJSON {
    public static func encode(_ run: RunResults) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(run), as: UTF8.self) + "\n"
    }

    /// Reads a results file, refusing a schema this version does not know.
    public static func decode(_ text: String) throws -> RunResults {
        let run = try JSONDecoder().decode(RunResults.self, from: Data(text.utf8))
        guard run.schema == RunResults.currentSchema else {
            throw SchemaMismatch(found: run.schema)
        }
        return run
    }

    public struct SchemaMismatch: Error, CustomStringConvertible {
        public let found: Int
        public var description: String { "results schema \(found); this bench reads schema \(RunResults.currentSchema)" }
    }
}
