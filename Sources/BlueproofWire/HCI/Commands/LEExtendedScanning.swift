// LE extended scanning commands (OGF 0x08), Core Vol 4, Part E §7.8.64, §7.8.65.

extension HCIOpcode {
    /// LE Set Extended Scan Parameters, 0x08|0x0041.
    public static let leSetExtendedScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x0041)
    /// LE Set Extended Scan Enable, 0x08|0x0042.
    public static let leSetExtendedScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x0042)
}

/// LE Set Extended Scan Parameters: how scanning runs on each primary advertising PHY
/// (Core Vol 4, Part E §7.8.64).
///
/// On the wire: own address type, filter policy, Scanning_PHYs, then one block (scan type,
/// interval, window) per bit set in Scanning_PHYs, lowest bit first.
public struct HCILESetExtendedScanParameters: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetExtendedScanParameters
    public static let name = "LE Set Extended Scan Parameters"

    /// How to scan on one PHY.
    public struct PHYParameters: Hashable, Sendable {
        public var scanType: LEScanType
        public var scanInterval: LEScanInterval
        /// Not longer than `scanInterval`.
        public var scanWindow: LEScanInterval

        public init(scanType: LEScanType, scanInterval: LEScanInterval, scanWindow: LEScanInterval) {
            self.scanType = scanType
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
        }
    }

    public var ownAddressType: LEOwnAddressType
    public var scanningFilterPolicy: LEScanningFilterPolicy
    /// The PHYs scanned (LE 1M, LE Coded); one entry of `phyParameters` per bit.
    public private(set) var scanningPHYs: LEPHYs
    /// The parameters of each PHY in `scanningPHYs`, lowest bit first.
    public private(set) var phyParameters: [PHYParameters]

    /// Scans LE 1M, LE Coded, or both, with the parameters given for each.
    public init(ownAddressType: LEOwnAddressType = .publicDevice,
                scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered,
                le1M: PHYParameters?, leCoded: PHYParameters? = nil) {
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
        var phys: LEPHYs = []
        var parameters: [PHYParameters] = []
        if let le1M { phys.insert(.le1M); parameters.append(le1M) }
        if let leCoded { phys.insert(.leCoded); parameters.append(leCoded) }
        scanningPHYs = phys
        phyParameters = parameters
    }

    /// The parameters for `phy` (one bit), nil when it is not scanned.
    public func parameters(for phy: LEPHYs) -> PHYParameters? {
        scanningPHYs.bits.firstIndex(of: phy).map { phyParameters[$0] }
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        ownAddressType = LEOwnAddressType(rawValue: try reader.u8("own_address_type"))
        scanningFilterPolicy = LEScanningFilterPolicy(rawValue: try reader.u8("scanning_filter_policy"))
        scanningPHYs = LEPHYs(rawValue: try reader.u8("scanning_phys"))
        var parameters: [PHYParameters] = []
        for phy in scanningPHYs.bits {
            let name = phy.shortName
            let scanType = LEScanType(rawValue: try reader.u8("scan_type[\(name)]"))
            let interval = try reader.hciUnit(LEScanInterval.self, "scan_interval[\(name)]")
            let window = try reader.hciUnit(LEScanInterval.self, "scan_window[\(name)]")
            parameters.append(PHYParameters(scanType: scanType, scanInterval: interval, scanWindow: window))
        }
        phyParameters = parameters
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(ownAddressType.rawValue)
        writer.u8(scanningFilterPolicy.rawValue)
        writer.u8(scanningPHYs.rawValue)
        for parameters in phyParameters {
            writer.u8(parameters.scanType.rawValue)
            writer.hciUnit(parameters.scanInterval)
            writer.hciUnit(parameters.scanWindow)
        }
    }

    public var fieldList: [HCIPacketDescription.Field] {
        var fields: [HCIPacketDescription.Field] = [
            .describing("own_address_type", ownAddressType),
            .describing("scanning_filter_policy", scanningFilterPolicy),
            .describing("scanning_phys", scanningPHYs),
        ]
        for (phy, parameters) in zip(scanningPHYs.bits, phyParameters) {
            fields += [
                .describing("scan_type[\(phy.shortName)]", parameters.scanType),
                .describing("scan_interval[\(phy.shortName)]", parameters.scanInterval),
                .describing("scan_window[\(phy.shortName)]", parameters.scanWindow),
            ]
        }
        return fields
    }
}

/// Filter_Duplicates of LE Set Extended Scan Enable (Core Vol 4, Part E §7.8.65). An open set.
public struct LEFilterDuplicates: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let disabled = LEFilterDuplicates(rawValue: 0x00)
    public static let enabled = LEFilterDuplicates(rawValue: 0x01)
    /// Enabled, and forgotten at the start of each scan period.
    public static let resetEachPeriod = LEFilterDuplicates(rawValue: 0x02)

    public var name: String? {
        switch self {
        case .disabled: "disabled"
        case .enabled: "enabled"
        case .resetEachPeriod: "reset-each-period"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// LE Set Extended Scan Enable: starts or stops extended scanning (Core Vol 4, Part E
/// §7.8.65). Reports then come as LE Extended Advertising Report.
public struct HCILESetExtendedScanEnable: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetExtendedScanEnable
    public static let name = "LE Set Extended Scan Enable"

    public var enable: Bool
    public var filterDuplicates: LEFilterDuplicates
    /// ``LEScanDuration/unlimited`` scans until disabled.
    public var duration: LEScanDuration
    /// ``LEScanPeriod/scanOnce`` scans once.
    public var period: LEScanPeriod

    public init(enable: Bool, filterDuplicates: LEFilterDuplicates = .disabled,
                duration: LEScanDuration = .unlimited, period: LEScanPeriod = .scanOnce) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        enable = try reader.booleanOctet("enable")
        filterDuplicates = LEFilterDuplicates(rawValue: try reader.u8("filter_duplicates"))
        duration = try reader.hciUnit(LEScanDuration.self, "duration")
        period = try reader.hciUnit(LEScanPeriod.self, "period")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.booleanOctet(enable)
        writer.u8(filterDuplicates.rawValue)
        writer.hciUnit(duration)
        writer.hciUnit(period)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .boolean("enable", enable),
            .describing("filter_duplicates", filterDuplicates),
            .describing("duration", duration),
            .describing("period", period),
        ]
    }
}
