import FoundationEssentials
import Results

/// Reading a thresholds file: strict, so a misspelt field ("minimumEfect") is an error naming
/// it instead of a default silently applied; every number is checked for its range.
extension Thresholds {
    public struct FileProblem: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses the text of a thresholds file.
    /// - Throws: `FileProblem` saying what is wrong and where (e.g. "overrides[2].metric: ...").
    public static func parse(_ text: String) throws(FileProblem) -> Thresholds {
        do {
            return try JSONDecoder().decode(FileContents.self, from: Data(text.utf8)).thresholds
        } catch let problem as FileProblem {
            throw problem
        } catch let error as DecodingError {
            throw FileProblem(Self.describe(error))
        } catch {
            throw FileProblem("\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func place(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "" : String(path.drop { $0 == "." }) + ": "
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON (truncated or malformed)"
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return place(context) + "wrong type or value (\(context.debugDescription.prefix(100)))"
        case .keyNotFound(let key, let context):
            return place(context) + "missing field '\(key.stringValue)'"
        @unknown default:
            return "\(error)"
        }
    }
}

/// Any key, so an object's keys can be listed and unknown ones refused.
private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private func where_(_ decoder: any Decoder) -> String {
    let path = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return path.isEmpty ? "" : String(path.drop { $0 == "." }) + "."
}

private func object(_ decoder: any Decoder, known: [String]) throws -> KeyedDecodingContainer<AnyKey> {
    let container = try decoder.container(keyedBy: AnyKey.self)
    if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
        throw Thresholds.FileProblem(
            "\(where_(decoder))\(RegexPattern.shown(unknown)): unknown field; "
                + "valid here: \(known.joined(separator: ", "))")
    }
    return container
}

private struct FileContents: Decodable {
    let thresholds: Thresholds

    init(from decoder: any Decoder) throws {
        let container = try object(decoder, known: ["schema", "description", "defaults", "overrides"])
        guard container.contains(AnyKey("schema")) else {
            throw Thresholds.FileProblem(
                "missing field 'schema' (this bench reads thresholds schema \(Thresholds.currentSchema))")
        }
        let schema = try container.decode(Int.self, forKey: AnyKey("schema"))
        guard schema == Thresholds.currentSchema else {
            throw Thresholds.FileProblem(
                "schema \(schema); this bench reads thresholds schema \(Thresholds.currentSchema)")
        }
        var thresholds = Thresholds()
        let defaults = try container.decodeIfPresent([String: LimitsEntry].self, forKey: AnyKey("defaults")) ?? [:]
        for (key, entry) in defaults {
            guard let kind = MetricKind(rawValue: key) else {
                throw Thresholds.FileProblem(
                    "defaults.\(RegexPattern.shown(key)): unknown metric kind; "
                        + "valid: \(MetricKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            thresholds.defaults[kind] = entry.limits
        }
        thresholds.overrides =
            try container.decodeIfPresent([OverrideEntry].self, forKey: AnyKey("overrides"))?.map(\.override) ?? []
        self.thresholds = thresholds
    }
}

private struct LimitsEntry: Decodable {
    let limits: Limits

    init(from decoder: any Decoder) throws {
        limits = try decodeLimits(try object(decoder, known: Limits.fields), at: where_(decoder))
    }
}

private struct OverrideEntry: Decodable {
    let override: Thresholds.Override

    init(from decoder: any Decoder) throws {
        let place = where_(decoder)
        let container = try object(decoder, known: ["workload", "case", "metric"] + Limits.fields)
        func text(_ name: String) throws -> String? {
            guard let value = try container.decodeIfPresent(String.self, forKey: AnyKey(name)) else { return nil }
            guard !value.isEmpty else { throw Thresholds.FileProblem("\(place)\(name): must not be empty") }
            return value
        }
        let override = Thresholds.Override(
            workload: try text("workload"), casePattern: try text("case"),
            metric: try text("metric"), limits: try decodeLimits(container, at: place))
        if let pattern = override.casePattern {
            if let problem = RegexPattern.problem(with: pattern) {
                throw Thresholds.FileProblem("\(place)case: '\(RegexPattern.shown(pattern))' \(problem)")
            }
            if (try? Regex(pattern)) == nil {
                throw Thresholds.FileProblem(
                    "\(place)case: '\(RegexPattern.shown(pattern))' is not a valid regular expression")
            }
        }
        guard override.workload != nil || override.casePattern != nil || override.metric != nil else {
            throw Thresholds.FileProblem(
                "\(place.dropLast()) selects nothing: give 'workload', 'case' or 'metric' "
                    + "(limits for every case go under 'defaults')")
        }
        self.override = override
    }
}

private func decodeLimits(_ container: KeyedDecodingContainer<AnyKey>, at place: String) throws -> Limits {
    func number(_ name: String, _ valid: (Double) -> Bool, _ range: String) throws -> Double? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: AnyKey(name)) else { return nil }
        guard value.isFinite, valid(value) else {
            throw Thresholds.FileProblem("\(place)\(name): must be \(range), got \(value)")
        }
        return value
    }
    return Limits(
        significanceLevel: try number("significanceLevel", { $0 > 0 && $0 < 1 }, "between 0 and 1 (exclusive)"),
        minimumEffect: try number("minimumEffect", { $0 >= 0 }, "≥ 0 (0.03 = 3%)"),
        maximumRelativeRegression: try number("maximumRelativeRegression", { $0 >= 0 }, "≥ 0 (0.05 = 5%)"),
        maximumAbsoluteRegression: try number(
            "maximumAbsoluteRegression", { $0 >= 0 },
            "≥ 0 (in the metric's unit per operation)"),
        compare: try container.decodeIfPresent(Bool.self, forKey: AnyKey("compare")))
}
