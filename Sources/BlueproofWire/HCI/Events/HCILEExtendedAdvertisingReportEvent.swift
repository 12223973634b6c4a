/// LE Extended Advertising Report (Core Vol 4, Part E §7.7.65.13): advertising PDUs, legacy or
/// extended, or scan responses received while extended scanning, one or more per event.
///
/// On the wire: Num_Reports, then each report whole in turn (event type, address type,
/// address, primary PHY, secondary PHY, SID, TX power, RSSI, periodic advertising interval,
/// direct address type, direct address, data length, data), as BlueZ and Bumble read it.
public struct HCILEExtendedAdvertisingReportEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x0D
    public static let name = "LE Extended Advertising Report"

    /// One received advertising PDU (or chain of them) or scan response.
    public struct Report: Hashable, Sendable {
        /// The value of `rawRSSI` and `rawTXPower` meaning "not available".
        public static let notAvailable: Int8 = 127
        /// Advertising_SID meaning "no ADI field in the PDU".
        public static let noSID: UInt8 = 0xFF

        public var eventType: LEExtendedAdvertisingEventType
        /// 0xFF (``LEAddressType/anonymous``) when the advertiser sent no address.
        public var addressType: LEAddressType
        public var address: BDAddress
        public var primaryPHY: LEPHY
        /// ``LEPHY/noPackets`` when nothing was received on the secondary channels.
        public var secondaryPHY: LEPHY
        /// 0x00...0x0F, or ``noSID``.
        public var advertisingSID: UInt8
        /// TX_Power as received, dBm; 127 when not available.
        public var rawTXPower: Int8
        /// RSSI as received, dBm; 127 when the controller could not measure it.
        public var rawRSSI: Int8
        public var periodicAdvertisingInterval: LEPeriodicAdvertisingInterval
        /// For directed advertising: whom it was sent to.
        public var directAddressType: LEAddressType
        public var directAddress: BDAddress
        /// Data: this report's part of the advertising or scan response data (at most 229
        /// octets in the specification; longer data is kept as received).
        public var data: [UInt8]

        public init(
            eventType: LEExtendedAdvertisingEventType, addressType: LEAddressType, address: BDAddress,
            primaryPHY: LEPHY = .le1M, secondaryPHY: LEPHY = .noPackets, advertisingSID: UInt8 = Report.noSID,
            rawTXPower: Int8 = Report.notAvailable, rawRSSI: Int8,
            periodicAdvertisingInterval: LEPeriodicAdvertisingInterval = .noPeriodicAdvertising,
            directAddressType: LEAddressType = .publicDevice, directAddress: BDAddress = .zero,
            data: [UInt8]
        ) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.primaryPHY = primaryPHY
            self.secondaryPHY = secondaryPHY
            self.advertisingSID = advertisingSID
            self.rawTXPower = rawTXPower
            self.rawRSSI = rawRSSI
            self.periodicAdvertisingInterval = periodicAdvertisingInterval
            self.directAddressType = directAddressType
            self.directAddress = directAddress
            self.data = data
        }

        /// The RSSI in dBm, nil when the controller reported it as not available (127).
        public var rssi: Int8? {
            get { rawRSSI == Self.notAvailable ? nil : rawRSSI }
            set { rawRSSI = newValue ?? Self.notAvailable }
        }

        /// The advertiser's TX power in dBm, nil when not available (127).
        public var txPower: Int8? {
            get { rawTXPower == Self.notAvailable ? nil : rawTXPower }
            set { rawTXPower = newValue ?? Self.notAvailable }
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
            let eventType = LEExtendedAdvertisingEventType(rawValue: try reader.u16("event type[\(index)]"))
            let addressType = LEAddressType(rawValue: try reader.u8("address type[\(index)]"))
            let address = try BDAddress.read(&reader, "address[\(index)]")
            let primaryPHY = LEPHY(rawValue: try reader.u8("primary PHY[\(index)]"))
            let secondaryPHY = LEPHY(rawValue: try reader.u8("secondary PHY[\(index)]"))
            let sid = try reader.u8("advertising SID[\(index)]")
            let txPower = try reader.i8("TX power[\(index)]")
            let rssi = try reader.i8("RSSI[\(index)]")
            let interval = try reader.hciUnit(LEPeriodicAdvertisingInterval.self, "periodic advertising interval[\(index)]")
            let directAddressType = LEAddressType(rawValue: try reader.u8("direct address type[\(index)]"))
            let directAddress = try BDAddress.read(&reader, "direct address[\(index)]")
            let length = Int(try reader.u8("data length[\(index)]"))
            let data = try reader.bytes(length, "data[\(index)]")
            reports.append(Report(
                eventType: eventType, addressType: addressType, address: address, primaryPHY: primaryPHY,
                secondaryPHY: secondaryPHY, advertisingSID: sid, rawTXPower: txPower, rawRSSI: rssi,
                periodicAdvertisingInterval: interval, directAddressType: directAddressType,
                directAddress: directAddress, data: data))
        }
        self.reports = reports
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(UInt8(truncatingIfNeeded: reports.count))
        for report in reports {
            writer.u16(report.eventType.rawValue)
            writer.u8(report.addressType.rawValue)
            report.address.write(&writer)
            writer.u8(report.primaryPHY.rawValue)
            writer.u8(report.secondaryPHY.rawValue)
            writer.u8(report.advertisingSID)
            writer.i8(report.rawTXPower)
            writer.i8(report.rawRSSI)
            writer.hciUnit(report.periodicAdvertisingInterval)
            writer.u8(report.directAddressType.rawValue)
            report.directAddress.write(&writer)
            writer.u8(UInt8(truncatingIfNeeded: report.data.count))
            writer.append(report.data)
        }
    }
}

extension LEAddressType {
    /// No address: the advertiser omitted it (anonymous advertising, §7.7.65.13).
    public static let anonymous = LEAddressType(rawValue: 0xFF)
}

/// Event_Type of an LE Extended Advertising Report (Core Vol 4, Part E §7.7.65.13): what kind
/// of PDU was received, and whether its data is complete. A 16-bit mask; bits not named here
/// are kept.
public struct LEExtendedAdvertisingEventType: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let connectable = LEExtendedAdvertisingEventType(rawValue: 1 << 0)
    public static let scannable = LEExtendedAdvertisingEventType(rawValue: 1 << 1)
    public static let directed = LEExtendedAdvertisingEventType(rawValue: 1 << 2)
    public static let scanResponse = LEExtendedAdvertisingEventType(rawValue: 1 << 3)
    /// A legacy advertising PDU.
    public static let legacy = LEExtendedAdvertisingEventType(rawValue: 1 << 4)

    /// Legacy ADV_IND as this event reports it (0x0013).
    public static let legacyAdvInd: LEExtendedAdvertisingEventType = [.legacy, .connectable, .scannable]
    /// Legacy ADV_NONCONN_IND (0x0010).
    public static let legacyAdvNonconnInd: LEExtendedAdvertisingEventType = [.legacy]
    /// Legacy SCAN_RSP to an ADV_IND (0x001B).
    public static let legacyScanResponseToAdvInd: LEExtendedAdvertisingEventType =
        [.legacy, .scanResponse, .connectable, .scannable]

    /// Bits 5 and 6.
    private static let dataStatusMask: UInt16 = 0b11 << 5

    /// Data_Status: whether this report completes the data.
    public var dataStatus: LEAdvertisingDataStatus {
        get { LEAdvertisingDataStatus(rawValue: UInt8((rawValue & Self.dataStatusMask) >> 5)) }
        set { rawValue = rawValue & ~Self.dataStatusMask | UInt16(newValue.rawValue & 0b11) << 5 }
    }

    /// `0x0013 (connectable,scannable,legacy; complete)`.
    public var description: String {
        let flags = flagNames(rawValue & ~Self.dataStatusMask, [
            (Self.connectable.rawValue, "connectable"), (Self.scannable.rawValue, "scannable"),
            (Self.directed.rawValue, "directed"), (Self.scanResponse.rawValue, "scan-response"),
            (Self.legacy.rawValue, "legacy"),
        ])
        let names = flags.isEmpty ? "none" : flags.joined(separator: ",")
        return "0x\(hex(rawValue)) (\(names); \(dataStatus.name ?? "reserved"))"
    }
}

/// Data_Status of an LE Extended Advertising Report (Core Vol 4, Part E §7.7.65.13). An open
/// set of 2-bit values.
public struct LEAdvertisingDataStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let complete = LEAdvertisingDataStatus(rawValue: 0b00)
    /// More reports with the rest of the data follow.
    public static let incompleteMoreToCome = LEAdvertisingDataStatus(rawValue: 0b01)
    /// The data was cut short; no more will come.
    public static let incompleteTruncated = LEAdvertisingDataStatus(rawValue: 0b10)

    public var name: String? {
        switch self {
        case .complete: "complete"
        case .incompleteMoreToCome: "incomplete-more-to-come"
        case .incompleteTruncated: "incomplete-truncated"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
