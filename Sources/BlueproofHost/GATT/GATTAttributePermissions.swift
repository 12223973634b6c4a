import BlueproofWire

/// What a client may do with an attribute (Core Vol 3, Part F §3.2.5). Only access
/// permissions are modelled; this host has no encryption or authorization requirements yet.
public struct GATTAttributePermissions: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let readable = GATTAttributePermissions(rawValue: 0x01)
    public static let writable = GATTAttributePermissions(rawValue: 0x02)

    /// The permissions a characteristic value needs to honour its declared properties:
    /// readable for Read, writable for Write and Write Without Response.
    public init(properties: GATTCharacteristicProperties) {
        self = []
        if properties.contains(.read) { insert(.readable) }
        if !properties.isDisjoint(with: [.write, .writeWithoutResponse]) { insert(.writable) }
    }
}
