import BlueproofWire

/// A GATT server's attributes (Core Vol 3, Part G §3), built from service definitions with
/// handles from 0x0001 in order and no gaps.
///
/// The Generic Access service (Device Name, Appearance; Vol 3, Part C §12) comes first and the
/// Generic Attribute service (Service Changed and its configuration descriptor; Vol 3,
/// Part G §7) second, so with the defaults their handles are fixed:
///
/// | handle | attribute |
/// |---|---|
/// | 0x0001 | «Primary Service» 0x1800 |
/// | 0x0002 / 0x0003 | Device Name declaration (read) / value |
/// | 0x0004 / 0x0005 | Appearance declaration (read) / value |
/// | 0x0006 | «Primary Service» 0x1801 |
/// | 0x0007 / 0x0008 / 0x0009 | Service Changed declaration (indicate) / value / CCCD |
///
/// Defined services follow from 0x000A. Each characteristic is a declaration, its value, a
/// Client Characteristic Configuration descriptor when it notifies or indicates, then its
/// own descriptors.
public struct GATTDatabase: Hashable, Sendable {
    /// Every attribute, in handle order; the attribute with handle `h` is at index `h - 1`.
    public private(set) var attributes: [GATTAttribute]
    public let services: [Service]
    public let characteristics: [Characteristic]

    /// Handles of the built-in characteristics' values.
    public static let deviceNameHandle: UInt16 = 0x0003
    public static let appearanceHandle: UInt16 = 0x0005
    public static let serviceChangedHandle: UInt16 = 0x0008

    public init(
        services definitions: [GATTServiceDefinition],
        deviceName: String = "blueproof",
        appearance: UInt16 = 0x0000
    ) throws(GATTDatabaseError) {
        let gap = GATTServiceDefinition(uuid: .genericAccessService, characteristics: [
            GATTCharacteristicDefinition(uuid: .deviceName, properties: .read, value: Array(deviceName.utf8)),
            GATTCharacteristicDefinition(uuid: .appearance, properties: .read,
                                         value: [UInt8(truncatingIfNeeded: appearance), UInt8(appearance >> 8)]),
        ])
        // Service Changed is indicate-only; its value is not readable (Vol 3, Part G §7.1).
        let gatt = GATTServiceDefinition(uuid: .genericAttributeService, characteristics: [
            GATTCharacteristicDefinition(uuid: .serviceChanged, properties: .indicate, permissions: [],
                                         value: [0x01, 0x00, 0xFF, 0xFF]),
        ])
        let all = [gap, gatt] + definitions
        let count = all.reduce(0) { total, service in
            total + 1 + service.characteristics.reduce(0) {
                $0 + 2 + ($1.needsConfiguration ? 1 : 0) + $1.descriptors.count
            }
        }
        guard count <= 0xFFFF else { throw .tooManyAttributes(count) }

        var attributes: [GATTAttribute] = []
        var services: [Service] = []
        var characteristics: [Characteristic] = []
        func next() -> UInt16 { UInt16(attributes.count + 1) }

        for definition in all {
            let serviceIndex = attributes.count
            attributes.append(GATTAttribute(
                handle: next(), type: definition.isPrimary ? .primaryService : .secondaryService,
                value: definition.uuid.littleEndianBytes, permissions: .readable))
            for characteristic in definition.characteristics {
                if characteristic.descriptors.contains(where: { $0.uuid == .clientCharacteristicConfiguration }) {
                    throw .configurationDescriptorDefined(characteristic: characteristic.uuid)
                }
                let declarationHandle = next()
                let declaration = GATTCharacteristicDeclaration(
                    properties: characteristic.properties, valueHandle: declarationHandle + 1, uuid: characteristic.uuid)
                attributes.append(GATTAttribute(handle: declarationHandle, type: .characteristic,
                                                value: declaration.bytes, permissions: .readable))
                attributes.append(GATTAttribute(handle: next(), type: characteristic.uuid,
                                                value: characteristic.value, permissions: characteristic.permissions))
                var configurationHandle: UInt16?
                if characteristic.needsConfiguration {
                    configurationHandle = next()
                    attributes.append(GATTAttribute(handle: next(), type: .clientCharacteristicConfiguration,
                                                    value: [0, 0], permissions: [.readable, .writable]))
                }
                for descriptor in characteristic.descriptors {
                    attributes.append(GATTAttribute(handle: next(), type: descriptor.uuid,
                                                    value: descriptor.value, permissions: descriptor.permissions))
                }
                characteristics.append(Characteristic(
                    uuid: characteristic.uuid, properties: characteristic.properties,
                    declarationHandle: declarationHandle, valueHandle: declarationHandle + 1,
                    configurationHandle: configurationHandle, endHandle: UInt16(attributes.count)))
            }
            let endHandle = UInt16(attributes.count)
            attributes[serviceIndex].groupEndHandle = endHandle
            services.append(Service(uuid: definition.uuid, isPrimary: definition.isPrimary,
                                    startHandle: UInt16(serviceIndex + 1), endHandle: endHandle))
        }
        self.attributes = attributes
        self.services = services
        self.characteristics = characteristics
    }

    /// The attribute with this handle; nil for 0x0000 and handles past the last.
    public func attribute(_ handle: UInt16) -> GATTAttribute? {
        let index = Int(handle) - 1
        return attributes.indices.contains(index) ? attributes[index] : nil
    }

    /// The attributes whose handles lie in `start...end`, in order (empty when none do).
    public func attributes(from start: UInt16, through end: UInt16) -> ArraySlice<GATTAttribute> {
        let lower = max(Int(start), 1) - 1
        let upper = min(Int(end), attributes.count)
        guard lower < upper else { return [] }
        return attributes[lower..<upper]
    }

    /// The characteristic whose value attribute has this handle.
    public func characteristic(valueHandle: UInt16) -> Characteristic? {
        characteristics.first { $0.valueHandle == valueHandle }
    }

    /// The characteristic whose Client Characteristic Configuration descriptor has this handle.
    public func characteristic(configurationHandle: UInt16) -> Characteristic? {
        characteristics.first { $0.configurationHandle == configurationHandle }
    }

    /// The first characteristic with this UUID.
    public func characteristic(uuid: BluetoothUUID) -> Characteristic? {
        characteristics.first { $0.uuid == uuid }
    }

    /// Replaces an attribute's value; false when no attribute has this handle.
    @discardableResult
    public mutating func setValue(_ value: [UInt8], of handle: UInt16) -> Bool {
        let index = Int(handle) - 1
        guard attributes.indices.contains(index) else { return false }
        attributes[index].value = value
        return true
    }
}
