import BlueproofAsync
import BlueproofWire
import Synchronization

/// An LE connection, as the controller reported it (Vol 4, Part E §7.7.65.1). Operations on it
/// go through the ``LEHost`` that made it; two values are equal when they name the same
/// connection, even after its handle is reused.
public struct LEConnection: Hashable, Sendable, CustomStringConvertible {
    /// Connection_Handle.
    public let handle: UInt16
    /// The local device's role.
    public let role: HCIConnectionRole
    public let peerAddressType: LEAddressType
    public let peerAddress: BDAddress
    /// The connection interval at creation.
    public let interval: LEConnectionInterval
    public let supervisionTimeout: LESupervisionTimeout
    /// Resolved with the reason once the connection ends; outlives the host's record of it.
    let ended = OneShot<HCIStatus>()
    /// Outbound PDUs the controller completed (see ``LEHost/completedPDUs(on:)``); outlives the
    /// host's record too, so what left before a disconnection can still be told after it.
    let completions = CompletionCount()

    public init(handle: UInt16, role: HCIConnectionRole, peerAddressType: LEAddressType, peerAddress: BDAddress,
                interval: LEConnectionInterval, supervisionTimeout: LESupervisionTimeout) {
        self.handle = handle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.interval = interval
        self.supervisionTimeout = supervisionTimeout
    }

    /// The reason the connection ended, nil while it is open.
    public var endReason: HCIStatus? { ended.current }

    public static func == (lhs: LEConnection, rhs: LEConnection) -> Bool { lhs.ended === rhs.ended }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(ended)) }

    public var description: String { "0x\(hex(handle)) to \(peerAddress) (\(peerAddressType)) as \(role)" }
}

/// A connection's count of completed outbound PDUs, written by its host, read by anyone.
final class CompletionCount: Sendable {
    private let value = Atomic<Int>(0)
    var current: Int { value.load(ordering: .acquiring) }
    func set(_ count: Int) { value.store(count, ordering: .releasing) }
}
