import Charts
import Foundation
import Profiling
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("profiles: perf's stacks folded, top frames, flame graphs")
struct ProfileTests {
    /// Three samples as `perf script -F comm,tid,period,ip,sym,dso` prints them: two in the
    /// spin under the sampler, one in an unnamed frame of a library, on a thread whose name
    /// has a space.
    static let script = """
        bench 4242    1001001 
        \t    55d0c0a01234 rb_spin (/work/bench)
        \t    55d0c0a05678 $s7Harness7SamplerV7measureyyF (/work/bench)
        \t    7f0000001000 __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)

        bench 4242    1001001 
        \t    55d0c0a01240 rb_spin (/work/bench)
        \t    55d0c0a05678 $s7Harness7SamplerV7measureyyF (/work/bench)
        \t    7f0000001000 __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)

        Dispatch w 4243    1001001 
        \t    7f0000002000 [unknown] (/usr/lib/x86_64-linux-gnu/libdispatch.so)
        \t    7f0000003000 start_thread (/usr/lib/x86_64-linux-gnu/libc.so.6)

        """

    @Test("perf script's samples fold into stacks, root (the thread) first, leaf last")
    func parse() {
        let stacks = CollapsedStacks.parse(perfScript: Substring(Self.script))
        #expect(stacks.samples == 3)
        #expect(stacks.counts[["bench", "__libc_start_call_main", "$s7Harness7SamplerV7measureyyF", "rb_spin"]] == 2)
        #expect(stacks.counts[["Dispatch w", "start_thread", "[unknown] (libdispatch.so)"]] == 1)
    }

    @Test("folded text is one stack a line with its samples, as FlameGraph's tools read it")
    func folded() {
        let stacks = CollapsedStacks([["a", "b;c"]: 3, ["a"]: 1])
        #expect(stacks.folded == "a 1\na;b:c 3\n")
    }

    @Test("renaming frames (demangling) merges stacks that become the same")
    func renamed() {
        let stacks = CollapsedStacks([["main", "$sA"]: 2, ["main", "$sB"]: 3]).renamed {
            $0.hasPrefix("$s") ? "f()" : $0
        }
        #expect(stacks.counts == [["main", "f()"]: 5])
    }

    @Test("top frames: self counts the leaf, total counts a frame once per sample however deep it recurses")
    func topFrames() {
        let top = TopFrames(
            CollapsedStacks([["main", "fib", "fib", "add"]: 3, ["main", "fib"]: 1, ["main", "other"]: 4]))
        #expect(top.samples == 8)
        #expect(top.rows.first { $0.frame == "fib" } == .init(frame: "fib", selfSamples: 1, totalSamples: 4))
        #expect(top.rows.first?.frame == "other")  // most self first
        #expect(top.totalShare(of: "main") == 1)
        #expect(top.markdown(first: 2).count == 4)  // header, rule, two rows
    }

    @Test("a flame graph is well-formed SVG, each frame as wide as its samples, labels cut to fit")
    func flameGraph() throws {
        let svg = FlameGraph(title: "t", subtitle: "s", stacks: [(["main", "spin"], 3), (["main", "other"], 1)]).svg()
        let frames = try Self.frames(svg)
        #expect(frames["all"] == 1200)
        #expect(frames["main"] == 1200)
        #expect(frames["spin"] == 900)
        #expect(frames["other"] == 300)
        #expect(FlameGraph.label("specialized FIFOQueue.sync<A, B>(exclusive:_:)", width: 60) == "specia..")
        #expect(FlameGraph.label("short", width: 600) == "short")
    }

    @Test("a differential flame graph colours a frame red where its share grew, blue where it shrank")
    func difference() {
        let svg = FlameGraph(
            title: "t", subtitle: "s", stacks: [(["main", "lock"], 3), (["main", "work"], 1)],
            baseline: [(["main", "lock"], 1), (["main", "work"], 3)]
        ).svg()
        #expect(svg.contains("lock (3 samples, 75%), +50% of the samples against the baseline"))
        #expect(svg.contains("work (1 sample, 25%), −50% of the samples against the baseline"))
        #expect(
            FlameGraph.changeClass(0.5) == "up3" && FlameGraph.changeClass(-0.05) == "down2"
                && FlameGraph.changeClass(0.005) == "d0")
    }

    /// Each frame's name and width, read back with an XML parser (which also fails on bad XML).
    static func frames(_ svg: String) throws -> [String: Double] {
        final class Reader: NSObject, XMLParserDelegate {
            var frames: [String: Double] = [:]
            func parser(
                _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                guard element == "g", attributes["class"] == "f", let name = attributes["data-name"],
                    let width = attributes["data-w"].flatMap(Double.init)
                else { return }
                frames[name] = width
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return reader.frames
    }
}
