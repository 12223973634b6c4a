/// Attribute types and service and characteristic UUIDs GATT itself defines
/// (Core Vol 3, Part G §3 and the Assigned Numbers document).
extension BluetoothUUID {
    /// «Primary Service» declaration type (Vol 3, Part G §3.1).
    public static let primaryService = BluetoothUUID(uuid16: 0x2800)
    /// «Secondary Service» declaration type (Vol 3, Part G §3.1).
    public static let secondaryService = BluetoothUUID(uuid16: 0x2801)
    /// «Include» declaration type (Vol 3, Part G §3.2).
    public static let include = BluetoothUUID(uuid16: 0x2802)
    /// «Characteristic» declaration type (Vol 3, Part G §3.3.1).
    public static let characteristic = BluetoothUUID(uuid16: 0x2803)
    /// «Client Characteristic Configuration» descriptor type (Vol 3, Part G §3.3.3.3).
    public static let clientCharacteristicConfiguration = BluetoothUUID(uuid16: 0x2902)
    /// Generic Access service (Vol 3, Part C §12).
    public static let genericAccessService = BluetoothUUID(uuid16: 0x1800)
    /// Device Name characteristic (Vol 3, Part C §12.1).
    public static let deviceName = BluetoothUUID(uuid16: 0x2A00)
    /// Appearance characteristic (Vol 3, Part C §12.2).
    public static let appearance = BluetoothUUID(uuid16: 0x2A01)
    /// Generic Attribute service (Vol 3, Part G §7).
    public static let genericAttributeService = BluetoothUUID(uuid16: 0x1801)
    /// Service Changed characteristic (Vol 3, Part G §7.1).
    public static let serviceChanged = BluetoothUUID(uuid16: 0x2A05)
}
