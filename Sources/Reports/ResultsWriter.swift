import Harness

/// Writes every output of a run into a directory, each through a temporary file and a rename.
/// Adding a format is one file in this module and one line here.
public enum ResultsWriter {
    public static func write(_ run: RunResults, to directory: String) throws {
        try writeAtomically(try ResultsJSON.encode(run), to: directory + "/results.json")
        try writeAtomically(ResultsCSV.encode(run), to: directory + "/results.csv")
    }
}
