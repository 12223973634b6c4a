/// A bounded set of recently seen packet ids, least recently used evicted first, so a packet is
/// delivered and forwarded at most once per node however many copies arrive
/// (bridgefy-ios-sdk-readme.md, "Mesh"). O(1) per operation.
public struct DuplicateCache<Key: Hashable & Sendable>: Sendable {
    private struct Node: Sendable { var key: Key; var newer: Int?; var older: Int? }

    public let capacity: Int
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// - Parameter capacity: how many ids are remembered (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    public var count: Int { slots.count }

    public func contains(_ key: Key) -> Bool { slots[key] != nil }

    /// Records `key`; returns true if it was not in the cache (the first copy), false for a
    /// duplicate. Either way `key` becomes the most recently used.
    @discardableResult
    public mutating func insert(_ key: Key) -> Bool {
        if let slot = slots[key] {
            unlink(slot)
            pushNewest(slot)
            return false
        }
        let slot: Int
        if nodes.count < capacity {
            slot = nodes.count
            nodes.append(Node(key: key))
        } else {
            slot = oldest!
            unlink(slot)
            slots[nodes[slot].key] = nil
            nodes[slot] = Node(key: key)
        }
        slots[key] = slot
        pushNewest(slot)
        return true
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]
        if let newer = node.newer { nodes[newer].older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older].newer = node.newer } else { oldest = node.newer }
        nodes[slot].newer = nil
        nodes[slot].older = nil
    }

    private mutating func pushNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }
}
