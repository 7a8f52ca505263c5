import Harness
import Results

/// A perfect binary tree of heap nodes, built once per case, whose values the fork-join
/// workload adds up: divide and conquer over memory (pointer chasing, cache misses when the tree
/// outgrows the cache) rather than over arithmetic like fib. Node values are their breadth-first
/// indices, so the sum of a tree of `count` nodes is count·(count − 1)/2.
final class TreeNode: Sendable {
    let value: Int
    let left: TreeNode?
    let right: TreeNode?

    init(value: Int, left: TreeNode?, right: TreeNode?) {
        self.value = value
        self.left = left
        self.right = right
    }

    /// The tree of `depth` levels (2^depth − 1 nodes) rooted at breadth-first index `index`.
    static func perfect(depth: Int, index: Int = 0) -> TreeNode? {
        guard depth > 0 else { return nil }
        return TreeNode(
            value: index, left: perfect(depth: depth - 1, index: 2 * index + 1),
            right: perfect(depth: depth - 1, index: 2 * index + 2))
    }

    /// The sum of this subtree, sequentially.
    func sum() -> Int { value + (left?.sum() ?? 0) + (right?.sum() ?? 0) }

    static func expectedSum(depth: Int) -> Int {
        let count = (1 << depth) - 1
        return count * (count - 1) / 2
    }
}

/// The tree sum split at every node whose subtree is deeper than `cutoff` levels. A piece is a
/// subtree with its depth; its node's own value is added with the left half's. Leaves are summed
/// sequentially.
struct TreeSumProblem: DivideAndConquer {
    struct Piece: Sendable {
        let node: TreeNode
        let depth: Int
        /// The value added by the parent that split into this piece (its own node's value, once).
        let carried: Int
    }

    let root: TreeNode
    let depth: Int
    let cutoff: Int

    var whole: Piece { Piece(node: root, depth: depth, carried: 0) }
    var expected: Int { TreeNode.expectedSum(depth: depth) }

    func split(_ piece: Piece) -> (Piece, Piece)? {
        guard piece.depth > max(1, cutoff), let left = piece.node.left, let right = piece.node.right else { return nil }
        return (
            Piece(node: left, depth: piece.depth - 1, carried: piece.carried + piece.node.value),
            Piece(node: right, depth: piece.depth - 1, carried: 0)
        )
    }

    func solve(_ piece: Piece) -> Int { piece.carried + piece.node.sum() }
}
