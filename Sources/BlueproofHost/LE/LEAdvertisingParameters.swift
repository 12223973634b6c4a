import BlueproofWire

/// What to advertise and how (legacy advertising, Vol 4, Part E §7.8.5–§7.8.9).
public struct LEAdvertisingParameters: Sendable, Hashable {
    /// The shortest and longest advertising interval; 100 ms to 150 ms by default.
    public var intervalMin = LEAdvertisingInterval(rawValue: 0x00A0)
    public var intervalMax = LEAdvertisingInterval(rawValue: 0x00F0)
    /// Connectable undirected (ADV_IND) or not (ADV_SCAN_IND when there is scan response data,
    /// ADV_NONCONN_IND otherwise).
    public var connectable = true
    /// Advertising data, at most 31 octets.
    public var data: [UInt8]
    /// Scan response data, at most 31 octets.
    public var scanResponse: [UInt8]

    public init(data: [UInt8], scanResponse: [UInt8] = [], connectable: Bool = true) {
        self.data = data
        self.scanResponse = scanResponse
        self.connectable = connectable
    }

    /// The legacy advertising PDU type these parameters ask for.
    public var advertisingType: LEAdvertisingType {
        if connectable { return .advInd }
        return scanResponse.isEmpty ? .advNonconnInd : .advScanInd
    }

    /// The most a legacy advertising PDU or scan response carries (Vol 4, Part E §7.8.7).
    public static let legacyDataLimit = 31

    /// Refuses data a legacy PDU cannot carry.
    public func validate() throws(LEHostError) {
        for (field, bytes) in [("advertising data", data), ("scan response data", scanResponse)]
        where bytes.count > Self.legacyDataLimit {
            throw .advertisingDataTooLong(field: field, length: bytes.count, limit: Self.legacyDataLimit)
        }
    }
}
