import Foundation

/// The ids of the packets this node delivered, each kept until its packet expires, so a captured
/// frame replayed later (after a restart, or behind a flood of fresh ids) is not delivered again
/// (docs/security.md, "Replay"; the SDK readme's "Mesh" delivers a packet once per node).
///
/// Bounded: at most `capacity` ids. When full, the id whose packet expires first is forgotten and
/// `floor` rises to its expiry; a packet expiring at or before the floor is refused as possibly
/// seen. A flood of fresh ids therefore never makes an old id new again; at worst it refuses
/// packets that expire early. An expired packet is refused by the router anyway, so an id is
/// dropped once its expiry has passed. Sans-I/O: times are passed in (milliseconds since 1970,
/// as on the wire); the transmitter persists `encoded()` in the session (`fileName`).
public struct ReplayGuard: Sendable, Equatable {
    /// The session file the transmitter keeps it in.
    public static let fileName = "replay-state"
    public static let formatVersion: UInt8 = 1
    /// The most ids a file may hold whatever the capacity (bounds decoding of a hostile file).
    public static let maxCapacity = 1 << 20

    public let capacity: Int
    /// Packet id → expiry.
    public private(set) var expiries: [PacketID: UInt64] = [:]
    /// Packets expiring at or before this are refused.
    public private(set) var floor: UInt64 = 0

    public init(capacity: Int) {
        self.capacity = min(max(1, capacity), Self.maxCapacity)
    }

    /// Whether packet `id`, expiring at `expiry`, is new at `now`; it is recorded when it is.
    public mutating func admit(_ id: PacketID, expiry: UInt64, now: UInt64) -> Bool {
        guard expiry > floor, expiries[id] == nil else { return false }
        expiries = expiries.filter { $0.value > now }
        while expiries.count >= capacity, let first = expiries.min(by: { ($0.value, $0.key.uuidString) < ($1.value, $1.key.uuidString) }) {
            expiries[first.key] = nil
            floor = max(floor, first.value)
        }
        guard expiry > floor else { return false }
        expiries[id] = expiry
        return true
    }

    /// `u8 version (1) ‖ u64 floor ‖ u32 count ‖ count × (16-byte packet id ‖ u64 expiry)`,
    /// big-endian, ids in ascending order (docs/transmitter-wire.md, "Replay state file").
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.formatVersion]
        out.appendU64(floor)
        out.appendU32(UInt32(clamping: expiries.count))
        for (id, expiry) in expiries.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            out.append(contentsOf: withUnsafeBytes(of: id.uuid) { Array($0) })
            out.appendU64(expiry)
        }
        return out
    }

    /// Reads `encoded()` back into a guard of `capacity`; `FrameError` for a damaged file (wrong
    /// version, a count over `maxCapacity`, lengths that disagree). More ids than `capacity` keep
    /// the latest-expiring ones, the floor raised past the rest.
    public static func decode(_ bytes: [UInt8], capacity: Int) throws(FrameError) -> ReplayGuard {
        var reader = FrameReader(bytes)
        let version = try reader.u8()
        guard version == formatVersion else { throw FrameError(offset: 0, reason: .unknownVersion(version)) }
        var guardState = ReplayGuard(capacity: capacity)
        guardState.floor = try reader.u64()
        let countOffset = reader.offset
        let count = Int(try reader.u32())
        guard count <= maxCapacity, reader.remaining == count * 24 else {
            throw FrameError(offset: countOffset, reason: .lengthMismatch(declared: count * 24, actual: reader.remaining))
        }
        var entries: [(PacketID, UInt64)] = []
        for _ in 0..<count {
            let id = try reader.userID().uuid
            entries.append((id, try reader.u64()))
        }
        entries.sort { $0.1 > $1.1 }
        for (index, (id, expiry)) in entries.enumerated() {
            if index < guardState.capacity {
                guardState.expiries[id] = expiry
            } else {
                guardState.floor = max(guardState.floor, expiry)
            }
        }
        return guardState
    }
}
