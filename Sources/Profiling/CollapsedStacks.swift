/// A profile as call stacks with the samples each was seen in: what a flame graph draws and the
/// top-frames table sums. Stacks run from the root (the thread) to the leaf (the frame that was
/// running); each frame is a symbol, demangled where it was a Swift name, or "[unknown] (library)".
public struct CollapsedStacks: Sendable, Equatable {
    /// Each distinct stack, root first, with its samples.
    public private(set) var counts: [[String]: Int] = [:]

    public init() {}

    public init(_ counts: [[String]: Int]) { self.counts = counts }

    public var samples: Int { counts.values.reduce(0, +) }

    public mutating func add(_ stack: [String], samples: Int = 1) {
        guard !stack.isEmpty, samples > 0 else { return }
        counts[stack, default: 0] += samples
    }

    /// The stacks read from `perf script -F comm,tid,period,ip,sym,dso`: a header line per
    /// sample (the thread's name first), then one frame per line, leaf first, then a blank line.
    /// The thread's name becomes the root frame, so each thread is a tower of its own.
    public static func parse(perfScript text: Substring) -> CollapsedStacks {
        var stacks = CollapsedStacks()
        var root: String?
        var frames: [String] = []
        func finish() {
            if let root { stacks.add([root] + frames.reversed()) }
            root = nil
            frames.removeAll(keepingCapacity: true)
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { finish(); continue }
            if line.first == "\t" || line.first == " " {
                if root != nil, let frame = frame(line) { frames.append(frame) }
            } else {
                finish()
                root = threadName(line)
            }
        }
        finish()
        return stacks
    }

    /// "bench 1234 1001001" → "bench". perf pads the name; a name may hold spaces ("DispatchQ w").
    static func threadName(_ header: Substring) -> String {
        var words = header.split(separator: " ")
        // The last two fields are the thread id and the period.
        if words.count > 2 { words.removeLast(2) }
        return words.joined(separator: " ")
    }

    /// "\t  7f3a1b2c sym (dso)" → "sym"; "[unknown] (lib.so)" keeps the library's file name.
    static func frame(_ line: Substring) -> String? {
        let trimmed = line.drop { $0 == "\t" || $0 == " " }
        guard let space = trimmed.firstIndex(of: " ") else { return nil }  // an address alone
        var rest = trimmed[trimmed.index(after: space)...]
        var library = ""
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            library = String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
            rest = rest[..<open]
        }
        let symbol = rest.trimmingSuffix(" ")
        if symbol.isEmpty || symbol == "[unknown]" {
            return "[unknown] (\(library.split(separator: "/").last.map(String.init) ?? "?"))"
        }
        return String(symbol)
    }

    /// Every frame renamed by `rename` (demangling), stacks that become equal merged.
    public func renamed(_ rename: (String) -> String) -> CollapsedStacks {
        var renamed = CollapsedStacks()
        for (stack, samples) in counts { renamed.add(stack.map(rename), samples: samples) }
        return renamed
    }

    /// The folded text FlameGraph's tools read: "root;…;leaf samples" a line, sorted.
    public var folded: String {
        counts.map { ($0.key.map { $0.replacing(";", with: ":") }.joined(separator: ";"), $0.value) }
            .sorted { $0.0 < $1.0 }
            .map { "\($0.0) \($0.1)\n" }.joined()
    }

    /// Every distinct frame name.
    public var frameNames: Set<String> { Set(counts.keys.joined()) }
}

extension Substring {
    func trimmingSuffix(_ character: Character) -> Substring {
        var result = self
        while result.last == character { result = result.dropLast() }
        return result
    }
}
