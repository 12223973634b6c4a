import BlueproofWire

/// A characteristic descriptor to put in a ``GATTDatabase`` (Core Vol 3, Part G §3.3.3).
/// Client Characteristic Configuration descriptors are added by the database itself for
/// characteristics that notify or indicate; do not define them here.
public struct GATTDescriptorDefinition: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var permissions: GATTAttributePermissions
    public var value: [UInt8]

    public init(uuid: BluetoothUUID, permissions: GATTAttributePermissions = .readable, value: [UInt8] = []) {
        self.uuid = uuid
        self.permissions = permissions
        self.value = value
    }
}
