import Foundation

/// Store-and-forward flooding, without I/O: a frame and the current neighbours in, actions out
/// (bridgefy-ios-sdk-readme.md, "Direct and mesh transmission", "Mesh", "Broadcast messages").
///
/// - Every packet is acted on once per node: a bounded `DuplicateCache` of packet ids drops
///   later copies.
/// - A packet for this node is delivered and not forwarded further; a broadcast is forwarded and
///   then delivered; a packet for another user is forwarded only. Forwards come before the
///   delivery, so that once a node reports a packet its forwards are already on their links (an
///   observer of the report, such as BFT/DLV/BI-05, knows what the node passed on).
/// - Forwarding sends to each neighbour at most once (never back to the one it came from, nor to
///   the sender) while `hopsRemaining` is above zero, decrementing it; the packet is held until
///   its expiry and offered to neighbours that connect later.
/// - Held packets whose expiry has passed are removed lazily, on the next input.
public struct MeshRouter: Sendable {
    /// A packet kept for neighbours that have not had it yet.
    public struct HeldPacket: Hashable, Sendable {
        public var frame: DataFrame
        /// Neighbours that were sent the packet or sent it to us.
        public var offered: Set<UserID>
        /// Whether this node originated the packet (its loss is reported as `.discarded`).
        public var local: Bool
    }

    public let localUser: UserID
    /// Deliberate faults (TransmitterDefects): `.noDuplicateCache`, `.hopLimitIgnored`,
    /// `.meshSkipsReceiver`, `.meshNeverHolds`.
    public var defects: TransmitterDefects
    private var seen: DuplicateCache<PacketID>
    public private(set) var held: [PacketID: HeldPacket] = [:]
    /// Held packets in the order they were stored, so offers keep FIFO order.
    private var heldOrder: [PacketID] = []

    public init(localUser: UserID, duplicateCapacity: Int, defects: TransmitterDefects = []) {
        self.localUser = localUser
        self.defects = defects
        self.seen = DuplicateCache(capacity: duplicateCapacity)
    }

    /// A packet this node sends into the mesh: recorded as seen, sent to every neighbour, held.
    public mutating func originate(_ frame: DataFrame, neighbours: [UserID], now: Date) -> [MeshAction] {
        var actions = expire(now: now)
        seen.insert(frame.packetID)
        var offered: Set<UserID> = []
        for peer in neighbours where !(defects.contains(.meshSkipsReceiver) && peer == frame.receiver) {
            offered.insert(peer)
            actions.append(.forward(frame, to: peer))
        }
        hold(HeldPacket(frame: frame, offered: offered, local: true), now: now)
        return actions
    }

    /// A data frame that arrived from neighbour `from`.
    public mutating func receive(_ frame: DataFrame, from: UserID, neighbours: [UserID], now: Date) -> [MeshAction] {
        var actions = expire(now: now)
        if !defects.contains(.noDuplicateCache) {
            guard seen.insert(frame.packetID) else {
                held[frame.packetID]?.offered.insert(from)
                actions.append(.dropped(frame.packetID, reason: MeshDropReason.duplicate))
                return actions
            }
        }
        guard frame.expiryDate > now else {
            actions.append(.dropped(frame.packetID, reason: MeshDropReason.expired))
            return actions
        }
        let forMe = frame.receiver == localUser
        if !forMe, frame.flags.contains(.mesh) || frame.receiver == nil, !defects.contains(.meshNeverRelays) {
            actions += relay(frame, from: from, neighbours: neighbours, now: now)
        }
        if forMe || frame.receiver == nil || defects.contains(.relayDeliversEverything) { actions.append(.deliver(frame)) }
        return actions
    }

    /// The forwards of a packet this node relays, or its drop when it has no hop left.
    private mutating func relay(_ frame: DataFrame, from: UserID, neighbours: [UserID], now: Date) -> [MeshAction] {
        guard frame.hopsRemaining > 0 || defects.contains(.hopLimitIgnored) else {
            return [.dropped(frame.packetID, reason: MeshDropReason.outOfHops)]
        }
        var actions: [MeshAction] = []
        var next = frame
        next.hopsRemaining = frame.hopsRemaining == 0 ? 0 : frame.hopsRemaining - 1
        var offered: Set<UserID> = [from]
        if let sender = frame.sender { offered.insert(sender) }  // a sealed frame's is unknown here
        for peer in neighbours where !offered.contains(peer) {
            offered.insert(peer)
            actions.append(.forward(next, to: peer))
        }
        if !defects.contains(.meshNeverHolds) { hold(HeldPacket(frame: next, offered: offered, local: false), now: now) }
        return actions
    }

    /// A neighbour connected: offer it every held packet it has not had.
    public mutating func neighbourConnected(_ peer: UserID, now: Date) -> [MeshAction] {
        var actions = expire(now: now)
        for id in heldOrder {
            guard var packet = held[id], !packet.offered.contains(peer), packet.frame.sender != peer,
                  !(defects.contains(.meshSkipsReceiver) && packet.local && packet.frame.receiver == peer) else { continue }
            packet.offered.insert(peer)
            held[id] = packet
            actions.append(.forward(packet.frame, to: peer))
        }
        return actions
    }

    /// Removes held packets whose expiry is not after `now`.
    public mutating func expire(now: Date) -> [MeshAction] {
        let stale = heldOrder.filter { id in held[id].map { $0.frame.expiryDate <= now } ?? true }
        guard !stale.isEmpty else { return [] }
        var actions: [MeshAction] = []
        for id in stale {
            guard let packet = held.removeValue(forKey: id) else { continue }
            actions.append(packet.local ? .discarded(id, reason: MeshDropReason.expired) : .dropped(id, reason: MeshDropReason.expired))
        }
        let gone = Set(stale)
        heldOrder.removeAll { gone.contains($0) }
        return actions
    }

    /// Restores packets saved by `saveState` (their ids count as seen).
    public mutating func restore(_ packets: [HeldPacket], now: Date) {
        for packet in packets where packet.frame.expiryDate > now {
            seen.insert(packet.frame.packetID)
            hold(packet, now: now)
        }
    }

    /// The held packets, oldest first.
    public var heldPackets: [HeldPacket] { heldOrder.compactMap { held[$0] } }

    private mutating func hold(_ packet: HeldPacket, now: Date) {
        guard packet.frame.expiryDate > now else { return }
        if held[packet.frame.packetID] == nil { heldOrder.append(packet.frame.packetID) }
        held[packet.frame.packetID] = packet
    }
}
