import BlueproofWire

/// Topologies for simulated meshes: who is in range of whom, by node index.
public enum SimulatedTopology: String, Sendable, CaseIterable {
    /// A near-square grid, each node in range of its 4 neighbours.
    case grid
    /// A random connected graph: a random spanning tree plus about one extra edge per node,
    /// from a seeded generator.
    case random
    /// A chain 0–1–2–…
    case chain

    /// The edges for `count` nodes.
    public func edges(count: Int, seed: UInt64 = 1) -> [(Int, Int)] {
        guard count > 1 else { return [] }
        switch self {
        case .chain:
            return (1..<count).map { ($0 - 1, $0) }
        case .grid:
            var width = 1
            while width * width < count { width += 1 }
            var edges: [(Int, Int)] = []
            for node in 0..<count {
                if node % width + 1 < width, node + 1 < count { edges.append((node, node + 1)) }
                if node + width < count { edges.append((node, node + width)) }
            }
            return edges
        case .random:
            var generator = SplitMix64(seed: seed)
            var edges: [(Int, Int)] = []
            for node in 1..<count { edges.append((Int(generator.next() % UInt64(node)), node)) }
            for _ in 0..<count {
                let a = Int(generator.next() % UInt64(count)), b = Int(generator.next() % UInt64(count))
                if a != b { edges.append((a, b)) }
            }
            return edges
        }
    }

    /// The hop distance of every node from node 0 (breadth first; -1 for a node it never reaches).
    public static func distances(count: Int, edges: [(Int, Int)]) -> [Int] {
        var adjacency = [[Int]](repeating: [], count: count)
        for (a, b) in edges { adjacency[a].append(b); adjacency[b].append(a) }
        var distance = [Int](repeating: -1, count: count)
        distance[0] = 0
        var queue = [0], head = 0
        while head < queue.count {
            let node = queue[head]; head += 1
            for next in adjacency[node] where distance[next] < 0 {
                distance[next] = distance[node] + 1
                queue.append(next)
            }
        }
        return distance
    }

    /// The largest hop distance from node 0, for choosing a hop limit.
    public static func eccentricity(count: Int, edges: [(Int, Int)]) -> Int {
        distances(count: count, edges: edges).max() ?? 0
    }
}
