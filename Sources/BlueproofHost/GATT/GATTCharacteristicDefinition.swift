import BlueproofWire

/// A characteristic to put in a ``GATTDatabase`` (Core Vol 3, Part G §3.3): it becomes a
/// declaration, a value attribute, a Client Characteristic Configuration descriptor when it
/// notifies or indicates, and then its own descriptors.
public struct GATTCharacteristicDefinition: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var properties: GATTCharacteristicProperties
    /// Access to the value attribute; by default what ``properties`` promise.
    public var permissions: GATTAttributePermissions
    /// The value the database starts with.
    public var value: [UInt8]
    public var descriptors: [GATTDescriptorDefinition]

    public init(
        uuid: BluetoothUUID,
        properties: GATTCharacteristicProperties,
        permissions: GATTAttributePermissions? = nil,
        value: [UInt8] = [],
        descriptors: [GATTDescriptorDefinition] = []
    ) {
        self.uuid = uuid
        self.properties = properties
        self.permissions = permissions ?? GATTAttributePermissions(properties: properties)
        self.value = value
        self.descriptors = descriptors
    }

    /// True when a Client Characteristic Configuration descriptor belongs to it
    /// (Vol 3, Part G §3.3.3.3).
    public var needsConfiguration: Bool { !properties.isDisjoint(with: [.notify, .indicate]) }
}
