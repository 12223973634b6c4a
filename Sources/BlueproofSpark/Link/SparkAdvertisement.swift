import BlueproofWire

/// How a Spark listener is found on LE (docs/spark-wire.md "Finding a listener"): connectable
/// advertising with Service Data under ``service`` whose data is the listener's registration
/// id, 8 octets little-endian. Spark itself finds peers through its cloud; this is the
/// peer-to-peer stand-in `blueproof spark` uses.
public enum SparkAdvertisement {
    /// blueproof's Spark listener service (a random 128-bit UUID of the blueproof family).
    public static let service = BluetoothUUID("5B1E7A10-0B1E-4F5A-9C3D-7E2A61B0F001")!

    /// Flags and the Service Data naming `registrationID`: 29 octets, within a legacy PDU's 31.
    public static func data(registrationID: UInt64) throws(WireError) -> [UInt8] {
        var id = ByteWriter(capacity: 8)
        id.u64(registrationID)
        return try AdvertisingData([.flags(.generalDiscoverableLEOnly), .serviceData(ServiceData(uuid: service, data: id.bytes))]).encodedLegacy()
    }

    /// The registration id `data` advertises; nil when it is not a Spark listener's
    /// advertisement (or its Service Data is not exactly 8 octets).
    public static func registrationID(in data: [UInt8]) -> UInt64? {
        guard let found = (try? AdvertisingData(bytes: data).serviceData)?.first(where: { $0.uuid == service }), found.data.count == 8 else {
            return nil
        }
        var reader = ByteReader(found.data, context: "Spark listener service data")
        return try? reader.u64("registration id")
    }
}
