// LE legacy scanning commands (OGF 0x08), Core Vol 4, Part E §7.8.10–§7.8.11.

extension HCIOpcode {
    /// LE Set Scan Parameters, 0x08|0x000B.
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// LE Set Scan Enable, 0x08|0x000C.
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
}

/// Whether the scanner sends scan requests (Core Vol 4, Part E §7.8.10). An open set.
public struct LEScanType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Listen only; the value after Reset.
    public static let passive = LEScanType(rawValue: 0x00)
    /// Send scan requests to scannable advertisers.
    public static let active = LEScanType(rawValue: 0x01)

    public var name: String? {
        switch self {
        case .passive: "passive"
        case .active: "active"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// Which advertising packets the scanner reports (Core Vol 4, Part E §7.8.10). An open set.
public struct LEScanningFilterPolicy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Every advertisement, except directed ones not addressed to this device; after Reset.
    public static let basicUnfiltered = LEScanningFilterPolicy(rawValue: 0x00)
    /// Only advertisers on the Filter Accept List.
    public static let basicFiltered = LEScanningFilterPolicy(rawValue: 0x01)
    /// As unfiltered, plus directed advertisements to a resolvable private address.
    public static let extendedUnfiltered = LEScanningFilterPolicy(rawValue: 0x02)
    /// As filtered, plus directed advertisements to a resolvable private address.
    public static let extendedFiltered = LEScanningFilterPolicy(rawValue: 0x03)

    public var name: String? {
        switch self {
        case .basicUnfiltered: "basic-unfiltered"
        case .basicFiltered: "basic-filtered"
        case .extendedUnfiltered: "extended-unfiltered"
        case .extendedFiltered: "extended-filtered"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// LE Set Scan Parameters: how legacy scanning runs (Core Vol 4, Part E §7.8.10).
public struct HCILESetScanParameters: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetScanParameters
    public static let name = "LE Set Scan Parameters"

    public var scanType: LEScanType
    public var scanInterval: LEScanInterval
    /// Not longer than `scanInterval`.
    public var scanWindow: LEScanInterval
    public var ownAddressType: LEOwnAddressType
    public var scanningFilterPolicy: LEScanningFilterPolicy

    public init(
        scanType: LEScanType,
        scanInterval: LEScanInterval,
        scanWindow: LEScanInterval,
        ownAddressType: LEOwnAddressType = .publicDevice,
        scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered
    ) {
        self.scanType = scanType
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        scanType = LEScanType(rawValue: try reader.u8("scan_type"))
        scanInterval = try reader.hciUnit(LEScanInterval.self, "scan_interval")
        scanWindow = try reader.hciUnit(LEScanInterval.self, "scan_window")
        ownAddressType = LEOwnAddressType(rawValue: try reader.u8("own_address_type"))
        scanningFilterPolicy = LEScanningFilterPolicy(rawValue: try reader.u8("scanning_filter_policy"))
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(scanType.rawValue)
        writer.hciUnit(scanInterval)
        writer.hciUnit(scanWindow)
        writer.u8(ownAddressType.rawValue)
        writer.u8(scanningFilterPolicy.rawValue)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .describing("scan_type", scanType),
            .describing("scan_interval", scanInterval),
            .describing("scan_window", scanWindow),
            .describing("own_address_type", ownAddressType),
            .describing("scanning_filter_policy", scanningFilterPolicy),
        ]
    }
}

/// LE Set Scan Enable: starts or stops legacy scanning (Core Vol 4, Part E §7.8.11).
public struct HCILESetScanEnable: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetScanEnable
    public static let name = "LE Set Scan Enable"

    public var scanEnable: Bool
    /// Ask the controller to report each advertiser once per scan rather than every packet.
    public var filterDuplicates: Bool

    public init(scanEnable: Bool, filterDuplicates: Bool = false) {
        self.scanEnable = scanEnable
        self.filterDuplicates = filterDuplicates
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        scanEnable = try reader.booleanOctet("scan_enable")
        filterDuplicates = try reader.booleanOctet("filter_duplicates")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.booleanOctet(scanEnable)
        writer.booleanOctet(filterDuplicates)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [.boolean("scan_enable", scanEnable), .boolean("filter_duplicates", filterDuplicates)]
    }
}
