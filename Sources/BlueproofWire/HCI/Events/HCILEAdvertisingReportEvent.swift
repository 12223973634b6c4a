/// LE Advertising Report (Core Vol 4, Part E §7.7.65.2): legacy advertising PDUs or scan
/// responses received while scanning, one or more per event.
///
/// On the wire: Num_Reports, then each report whole in turn (event type, address type,
/// address, data length, data, RSSI), as controllers send it and BlueZ, the Linux kernel and
/// Bumble read it.
public struct HCILEAdvertisingReportEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x02
    public static let name = "LE Advertising Report"

    /// One received advertising PDU or scan response.
    public struct Report: Hashable, Sendable {
        public var eventType: LEAdvertisingReportEventType
        public var addressType: LEAddressType
        public var address: BDAddress
        /// Data: the advertising data or scan response data (Length_Data octets; 0...31 in
        /// the specification, longer data is kept as received).
        public var data: [UInt8]
        /// RSSI as received, dBm; 127 means the controller could not measure it.
        public var rawRSSI: Int8

        /// The RSSI value meaning "not available".
        public static let rssiNotAvailable: Int8 = 127

        /// The RSSI in dBm, nil when the controller reported it as not available (127).
        public var rssi: Int8? {
            get { rawRSSI == Self.rssiNotAvailable ? nil : rawRSSI }
            set { rawRSSI = newValue ?? Self.rssiNotAvailable }
        }

        public init(eventType: LEAdvertisingReportEventType, addressType: LEAddressType,
                    address: BDAddress, data: [UInt8], rawRSSI: Int8) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.data = data
            self.rawRSSI = rawRSSI
        }

        /// A report whose RSSI is `rssi` dBm, or "not available" (127) when nil.
        public init(eventType: LEAdvertisingReportEventType, addressType: LEAddressType,
                    address: BDAddress, data: [UInt8], rssi: Int8?) {
            self.init(eventType: eventType, addressType: addressType, address: address,
                      data: data, rawRSSI: rssi ?? Self.rssiNotAvailable)
        }
    }

    /// The reports in wire order; Num_Reports is their count.
    public var reports: [Report]

    public init(reports: [Report]) { self.reports = reports }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        let count = Int(try reader.u8("num reports"))
        var reports: [Report] = []
        reports.reserveCapacity(count)
        for index in 0..<count {
            let eventType = LEAdvertisingReportEventType(rawValue: try reader.u8("event type[\(index)]"))
            let addressType = LEAddressType(rawValue: try reader.u8("address type[\(index)]"))
            let address = try BDAddress.read(&reader, "address[\(index)]")
            let length = Int(try reader.u8("data length[\(index)]"))
            let data = try reader.bytes(length, "data[\(index)]")
            let rssi = try reader.i8("RSSI[\(index)]")
            reports.append(Report(eventType: eventType, addressType: addressType, address: address,
                                  data: data, rawRSSI: rssi))
        }
        self.reports = reports
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(UInt8(truncatingIfNeeded: reports.count))
        for report in reports {
            writer.u8(report.eventType.rawValue)
            writer.u8(report.addressType.rawValue)
            report.address.write(&writer)
            writer.u8(UInt8(truncatingIfNeeded: report.data.count))
            writer.append(report.data)
            writer.i8(report.rawRSSI)
        }
    }
}

/// Event_Type of an LE Advertising Report: which legacy PDU was received (Core Vol 4, Part E
/// §7.7.65.2). An open set.
public struct LEAdvertisingReportEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Connectable and scannable undirected advertising (ADV_IND).
    public static let advInd = LEAdvertisingReportEventType(rawValue: 0x00)
    /// Connectable directed advertising (ADV_DIRECT_IND).
    public static let advDirectInd = LEAdvertisingReportEventType(rawValue: 0x01)
    /// Scannable undirected advertising (ADV_SCAN_IND).
    public static let advScanInd = LEAdvertisingReportEventType(rawValue: 0x02)
    /// Non-connectable, non-scannable undirected advertising (ADV_NONCONN_IND).
    public static let advNonconnInd = LEAdvertisingReportEventType(rawValue: 0x03)
    /// Scan response (SCAN_RSP).
    public static let scanRsp = LEAdvertisingReportEventType(rawValue: 0x04)

    public var description: String {
        switch self {
        case .advInd: "ADV_IND"
        case .advDirectInd: "ADV_DIRECT_IND"
        case .advScanInd: "ADV_SCAN_IND"
        case .advNonconnInd: "ADV_NONCONN_IND"
        case .scanRsp: "SCAN_RSP"
        default: "reserved (0x\(hex(rawValue)))"
        }
    }
}
