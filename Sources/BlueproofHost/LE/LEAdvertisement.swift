import BlueproofWire

/// One advertising PDU or scan response seen while scanning.
public struct LEAdvertisement: Sendable, Hashable {
    public var eventType: LEAdvertisingReportEventType
    public var addressType: LEAddressType
    public var address: BDAddress
    /// RSSI in dBm; nil when the controller could not measure it (it reported 127).
    public var rssi: Int8?
    /// The advertising or scan response data, as received.
    public var data: [UInt8]

    public init(report: HCILEAdvertisingReportEvent.Report) {
        eventType = report.eventType
        addressType = report.addressType
        address = report.address
        rssi = report.rssi
        data = report.data
    }

    /// An extended report, with its event type bits (Vol 4, Part E §7.7.65.13) read as the
    /// legacy PDU they describe; extended PDUs count as ADV_IND when connectable, SCAN_RSP
    /// when a scan response, ADV_NONCONN_IND otherwise.
    public init(report: HCILEExtendedAdvertisingReportEvent.Report) {
        let bits = report.eventType
        eventType = if bits.contains(.scanResponse) {
            .scanRsp
        } else if bits.contains(.directed) {
            .advDirectInd
        } else if bits.contains(.connectable) {
            .advInd
        } else if bits.contains(.scannable) {
            .advScanInd
        } else {
            .advNonconnInd
        }
        addressType = report.addressType
        address = report.address
        rssi = report.rssi
        data = report.data
    }

    public init(eventType: LEAdvertisingReportEventType, addressType: LEAddressType, address: BDAddress,
                rssi: Int8?, data: [UInt8]) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.data = data
    }
}
