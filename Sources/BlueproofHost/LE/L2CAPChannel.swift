import BlueproofWire

/// An open LE credit-based connection-oriented channel (Vol 3, Part A §10.1).
public struct L2CAPChannel: Hashable, Sendable, CustomStringConvertible {
    public let connection: LEConnection
    public let spsm: L2CAPSPSM
    /// This side's endpoint: its CID names the channel.
    public let local: L2CAPCreditChannel.Endpoint
    /// The peer's endpoint: its MTU bounds the SDUs this side may send.
    public let remote: L2CAPCreditChannel.Endpoint

    public var description: String {
        "L2CAP channel \(local.cid) ↔ \(remote.cid) on SPSM \(spsm), MTU \(local.mtu)/\(remote.mtu)"
    }
}
