import BlueproofWire

/// One attribute of a ``GATTDatabase`` (Core Vol 3, Part F §3.2): handle, type, value and
/// permissions, and for a service declaration the last handle of its group.
public struct GATTAttribute: Hashable, Sendable {
    public var handle: UInt16
    public var type: BluetoothUUID
    public var value: [UInt8]
    public var permissions: GATTAttributePermissions
    /// For a grouping attribute (a service declaration, Vol 3, Part G §3.1) the last handle
    /// of its group; nil for every other attribute.
    public var groupEndHandle: UInt16?

    public init(handle: UInt16, type: BluetoothUUID, value: [UInt8], permissions: GATTAttributePermissions,
                groupEndHandle: UInt16? = nil) {
        self.handle = handle
        self.type = type
        self.value = value
        self.permissions = permissions
        self.groupEndHandle = groupEndHandle
    }
}
