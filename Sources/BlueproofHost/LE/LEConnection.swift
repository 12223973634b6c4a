import BlueproofWire

/// An open LE connection, as the controller reported it (Vol 4, Part E §7.7.65.1). A value:
/// operations on it go through the ``LEHost`` that made it.
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

    public init(handle: UInt16, role: HCIConnectionRole, peerAddressType: LEAddressType, peerAddress: BDAddress,
                interval: LEConnectionInterval, supervisionTimeout: LESupervisionTimeout) {
        self.handle = handle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.interval = interval
        self.supervisionTimeout = supervisionTimeout
    }

    public var description: String { "0x\(hex(handle)) to \(peerAddress) (\(peerAddressType)) as \(role)" }
}
