/// A flame graph (Brendan Gregg's): every stack of a profile as a tower of frames, the root at the
/// bottom, each frame as wide as the samples it was on the stack for, siblings in name order so
/// the same code lands in the same place. Hovering a frame shows its samples and share; clicking
/// zooms to it, and "Search" marks the frames whose name matches a pattern, with their share.
public struct FlameGraph: Sendable {
    /// Call stacks, root first, with their samples.
    public let stacks: [([String], Int)]
    public let title: String
    /// Under the title: what was profiled and how.
    public let subtitle: String

    /// A differential flame graph's baseline: the same code profiled before (another backend, another
    /// build). Each frame is then coloured by how its share of the samples moved from the baseline
    /// to this profile: red where it grew, blue where it shrank, grey where it stayed within a point.
    public let baseline: [([String], Int)]?

    public init(title: String, subtitle: String, stacks: [([String], Int)], baseline: [([String], Int)]? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.stacks = stacks
        self.baseline = baseline
    }

    static let width = 1200.0
    static let frameHeight = 17.0
    static let top = 60.0
    /// Narrower frames are left out (their samples still count in their parents' widths).
    static let minimumWidth = 0.3
    static let characterWidth = 6.6

    /// One frame of the merged tree.
    final class Node {
        let name: String
        var samples = 0
        var children: [String: Node] = [:]
        init(_ name: String) { self.name = name }
    }

    func tree() -> Node { Self.tree(stacks) }

    static func tree(_ stacks: [([String], Int)]) -> Node {
        let root = Node("all")
        for (stack, samples) in stacks where samples > 0 {
            root.samples += samples
            var node = root
            for frame in stack {
                let child = node.children[frame] ?? Node(frame)
                node.children[frame] = child
                child.samples += samples
                node = child
            }
        }
        return root
    }

    public func svg() -> String {
        let root = tree()
        let before = baseline.map(Self.tree)
        var frames: [SVGElement] = []
        var depth = 0
        func place(_ node: Node, _ old: Node?, x: Double, level: Int) {
            let width = root.samples == 0 ? 0 : Double(node.samples) / Double(root.samples) * Self.width
            guard width >= Self.minimumWidth else { return }
            depth = max(depth, level)
            var change: Double?
            if let before {
                let share = Double(node.samples) / Double(max(root.samples, 1))
                let oldShare = Double(old?.samples ?? 0) / Double(max(before.samples, 1))
                change = share - oldShare
            }
            frames.append(frame(node, x: x, width: width, level: level, total: root.samples, change: change))
            var childX = x
            for child in node.children.values.sorted(by: { $0.name < $1.name }) {
                place(child, old?.children[child.name], x: childX, level: level + 1)
                childX += Double(child.samples) / Double(root.samples) * Self.width
            }
        }
        place(root, before, x: 0, level: 0)
        let height = Self.top + Double(depth + 1) * Self.frameHeight + 30
        // Levels are drawn upwards from the bottom: y of a level is known once the depth is.
        for index in frames.indices {
            let level = Int(frames[index].attributes.first { $0.0 == "data-level" }!.1)!
            let y = height - 30 - Double(level + 1) * Self.frameHeight
            frames[index].attributes.append(("transform", "translate(0,\(coordinate(y)))"))
        }
        let svg = SVGElement(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", coordinate(Self.width)),
                ("height", coordinate(height)), ("viewBox", "0 0 \(coordinate(Self.width)) \(coordinate(height))"),
                ("font-family", "monospace"), ("font-size", "11"),
            ],
            children: [
                SVGElement("style", text: Self.style),
                SVGElement("rect", [("class", "background"), ("width", "100%"), ("height", "100%")]),
                SVGElement("text", [("x", "10"), ("y", "20"), ("class", "title")], text: title),
                SVGElement("text", [("x", "10"), ("y", "38"), ("class", "subtitle")], text: subtitle),
                SVGElement(
                    "text", [("id", "reset"), ("x", "10"), ("y", "54"), ("class", "control")], text: "Reset zoom"),
                SVGElement(
                    "text", [("id", "search"), ("x", "110"), ("y", "54"), ("class", "control")], text: "Search"),
                SVGElement("text", [("id", "matched"), ("x", "180"), ("y", "54"), ("class", "subtitle")], text: " "),
                SVGElement(
                    "text", [("id", "details"), ("x", "10"), ("y", coordinate(height - 10)), ("class", "subtitle")],
                    text: " "),
                SVGElement("g", [("id", "frames")], children: frames),
                SVGElement("script", text: Self.script),
            ])
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg.render() + "\n"
    }

    private func frame(_ node: Node, x: Double, width: Double, level: Int, total: Int, change: Double?) -> SVGElement {
        let share = total == 0 ? 0 : 100 * Double(node.samples) / Double(total)
        var tooltip = "\(node.name) (\(node.samples) sample\(node.samples == 1 ? "" : "s"), \(Self.percent(share)))"
        if let change {
            tooltip +=
                ", \(change >= 0 ? "+" : "−")\(Self.percent(abs(change) * 100)) of the samples against the baseline"
        }
        return SVGElement(
            "g",
            [
                ("class", "f"), ("data-level", "\(level)"), ("data-x", coordinate(x)), ("data-w", coordinate(width)),
                ("data-name", node.name), ("data-samples", "\(node.samples)"),
            ],
            children: [
                SVGElement("title", text: tooltip),
                SVGElement(
                    "rect",
                    [
                        ("x", coordinate(x)), ("width", coordinate(max(width - 0.5, 0.1))),
                        ("height", coordinate(Self.frameHeight - 1)), ("rx", "2"),
                        ("class", change.map(Self.changeClass) ?? "h\(Self.hue(node.name))"),
                    ]),
                SVGElement("text", [("x", coordinate(x + 3)), ("y", "12")], text: Self.label(node.name, width: width)),
            ])
    }

    static func percent(_ value: Double) -> String {
        value >= 10 ? "\(Int(value.rounded()))%" : "\((value * 10).rounded() / 10)%"
    }

    /// The name cut to what fits in `width`, with ".." where it was cut; empty when not even a few
    /// characters fit.
    public static func label(_ name: String, width: Double) -> String {
        let fits = Int((width - 6) / characterWidth)
        if fits >= name.count { return name }
        return fits < 3 ? "" : String(name.prefix(fits - 2)) + ".."
    }

    /// A differential frame's colour: three shades each of red (grew) and blue (shrank), by how
    /// many points of the samples it moved; grey within one point.
    public static func changeClass(_ change: Double) -> String {
        let points = abs(change) * 100
        guard points >= 1 else { return "d0" }
        let shade = points >= 10 ? 3 : points >= 4 ? 2 : 1
        return change > 0 ? "up\(shade)" : "down\(shade)"
    }

    /// One of eight warm colours, always the same for the same name.
    static func hue(_ name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 8)
    }

    static let style = """
        .background { fill: #ffffff; } text { fill: #1b1b1b; } .title { font-size: 15px; font-weight: bold; }
        .subtitle { fill: #4b4b4b; } .control { fill: #0057b3; cursor: pointer; text-decoration: underline; }
        .f { cursor: pointer; } .f:hover rect { stroke: #1b1b1b; stroke-width: 0.8; } \
        .f text { pointer-events: none; fill: #1b1b1b; }
        .h0 { fill: #e8603c; } .h1 { fill: #ee8a3c; } .h2 { fill: #f2a93b; } .h3 { fill: #f6c445; }
        .h4 { fill: #e4774f; } .h5 { fill: #f09a5a; } .h6 { fill: #dd5e2e; } .h7 { fill: #f5b861; }
        .d0 { fill: #c8c8c8; } .up1 { fill: #f4b5a5; } .up2 { fill: #ea7a5f; } .up3 { fill: #d23a1f; }
        .down1 { fill: #b3cdf0; } .down2 { fill: #6f9fe0; } .down3 { fill: #2f6cc9; }
        .match { fill: #c94fd6 !important; }
        @media (prefers-color-scheme: dark) {
          .background { fill: #161616; } text { fill: #e6e6e6; } .subtitle { fill: #b4b4b4; } \
        .control { fill: #6cb6ff; }
          .f:hover rect { stroke: #ffffff; }
        }
        """

    /// Zoom (click a frame; "Reset zoom"), search (a regular expression; matches turn purple and
    /// their share is shown, each sample counted once) and the hovered frame's details.
    static let script = """
        (function () {
          var W = \(Int(width)), frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));
          function num(g, k) { return parseFloat(g.getAttribute('data-' + k)); }
          function fit(name, w) { var n = Math.floor((w - 6) / \(characterWidth)); \
        return n >= name.length ? name : (n < 3 ? '' : name.slice(0, n - 2) + '..'); }
          function zoom(target) {
            var zx = target ? num(target, 'x') : 0, zw = target ? num(target, 'w') : W, \
        zl = target ? num(target, 'level') : 0;
            frames.forEach(function (g) {
              var x = num(g, 'x'), w = num(g, 'w'), level = num(g, 'level');
              var inside = x + w > zx + 0.001 && x < zx + zw - 0.001;
              var show = inside && (level >= zl || (x <= zx + 0.001 && x + w >= zx + zw - 0.001));
              g.style.display = show ? '' : 'none';
              if (!show) return;
              var nx = Math.max(0, (x - zx) / zw * W), nw = (Math.min(x + w, zx + zw) - Math.max(x, zx)) / zw * W;
              var rect = g.querySelector('rect'), text = g.querySelector('text');
              rect.setAttribute('x', nx); rect.setAttribute('width', Math.max(nw - 0.5, 0.1));
              text.setAttribute('x', nx + 3); text.textContent = fit(g.getAttribute('data-name'), nw);
            });
          }
          frames.forEach(function (g) {
            g.addEventListener('click', function () { zoom(g); });
            g.addEventListener('mouseover', function () { document.getElementById('details').textContent = \
        g.querySelector('title').textContent; });
          });
          document.getElementById('reset').addEventListener('click', function () { zoom(null); });
          document.getElementById('search').addEventListener('click', function () {
            var pattern = prompt('Frames matching (a regular expression):');
            var matched = 0, spans = [];
            frames.forEach(function (g) {
              var rect = g.querySelector('rect'), hit = !!pattern \
        && new RegExp(pattern).test(g.getAttribute('data-name'));
              rect.classList.toggle('match', hit);
              if (hit) spans.push([num(g, 'x'), num(g, 'x') + num(g, 'w')]);
            });
            spans.sort(function (a, b) { return a[0] - b[0]; });
            var end = -1;
            spans.forEach(function (s) { if (s[1] > end) { matched += s[1] - Math.max(s[0], end); end = s[1]; } });
            document.getElementById('matched').textContent = pattern ? 'matched: ' + (100 * matched / W).toFixed(1) \
        + '% of the samples' : ' ';
          });
        })();
        """
}
