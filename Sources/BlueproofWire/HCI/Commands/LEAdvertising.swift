// LE legacy advertising commands (OGF 0x08), Core Vol 4, Part E §7.8.5–§7.8.9.

extension HCIOpcode {
    /// LE Set Advertising Parameters, 0x08|0x0006.
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    /// LE Set Advertising Data, 0x08|0x0008.
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    /// LE Set Scan Response Data, 0x08|0x0009.
    public static let leSetScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0009)
    /// LE Set Advertising Enable, 0x08|0x000A.
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
}

/// The kind of legacy advertising PDU to send (Core Vol 4, Part E §7.8.5). An open set.
public struct LEAdvertisingType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Connectable and scannable undirected (ADV_IND); the value after Reset.
    public static let advInd = LEAdvertisingType(rawValue: 0x00)
    /// Connectable directed, high duty cycle (ADV_DIRECT_IND).
    public static let advDirectIndHighDutyCycle = LEAdvertisingType(rawValue: 0x01)
    /// Scannable undirected (ADV_SCAN_IND).
    public static let advScanInd = LEAdvertisingType(rawValue: 0x02)
    /// Non-connectable, non-scannable undirected (ADV_NONCONN_IND).
    public static let advNonconnInd = LEAdvertisingType(rawValue: 0x03)
    /// Connectable directed, low duty cycle (ADV_DIRECT_IND).
    public static let advDirectIndLowDutyCycle = LEAdvertisingType(rawValue: 0x04)

    public var name: String? {
        switch self {
        case .advInd: "ADV_IND"
        case .advDirectIndHighDutyCycle: "ADV_DIRECT_IND (high duty cycle)"
        case .advScanInd: "ADV_SCAN_IND"
        case .advNonconnInd: "ADV_NONCONN_IND"
        case .advDirectIndLowDutyCycle: "ADV_DIRECT_IND (low duty cycle)"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// Which address the controller puts in the packets it sends (Core Vol 4, Part E §7.8.5,
/// §7.8.10, §7.8.12). An open set. Unlike ``LEAddressType``, values 2 and 3 ask the controller
/// to use a resolvable private address from its resolving list.
public struct LEOwnAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = LEOwnAddressType(rawValue: 0x00)
    public static let randomDevice = LEOwnAddressType(rawValue: 0x01)
    /// A resolvable private address if the resolving list has one for the peer, else public.
    public static let resolvableOrPublic = LEOwnAddressType(rawValue: 0x02)
    /// A resolvable private address if the resolving list has one for the peer, else random.
    public static let resolvableOrRandom = LEOwnAddressType(rawValue: 0x03)

    public var name: String? {
        switch self {
        case .publicDevice: "public"
        case .randomDevice: "random"
        case .resolvableOrPublic: "resolvable-or-public"
        case .resolvableOrRandom: "resolvable-or-random"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// The primary advertising channels to use (Core Vol 4, Part E §7.8.5). A bit mask.
public struct LEAdvertisingChannelMap: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let channel37 = LEAdvertisingChannelMap(rawValue: 0x01)
    public static let channel38 = LEAdvertisingChannelMap(rawValue: 0x02)
    public static let channel39 = LEAdvertisingChannelMap(rawValue: 0x04)
    /// All three channels; the value after Reset.
    public static let all: LEAdvertisingChannelMap = [.channel37, .channel38, .channel39]

    public var description: String {
        var names: [String] = []
        if contains(.channel37) { names.append("37") }
        if contains(.channel38) { names.append("38") }
        if contains(.channel39) { names.append("39") }
        return "0x\(hex(rawValue)) (\(names.isEmpty ? "none" : names.joined(separator: ",")))"
    }
}

/// Whose scan and connection requests an advertiser answers (Core Vol 4, Part E §7.8.5).
/// An open set.
public struct LEAdvertisingFilterPolicy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Scan and connection requests from anyone; the value after Reset.
    public static let acceptAll = LEAdvertisingFilterPolicy(rawValue: 0x00)
    /// Scan requests only from the Filter Accept List, connection requests from anyone.
    public static let filterScanRequests = LEAdvertisingFilterPolicy(rawValue: 0x01)
    /// Scan requests from anyone, connection requests only from the Filter Accept List.
    public static let filterConnectionRequests = LEAdvertisingFilterPolicy(rawValue: 0x02)
    /// Both only from the Filter Accept List.
    public static let filterBoth = LEAdvertisingFilterPolicy(rawValue: 0x03)

    public var name: String? {
        switch self {
        case .acceptAll: "accept-all"
        case .filterScanRequests: "filter-scan-requests"
        case .filterConnectionRequests: "filter-connection-requests"
        case .filterBoth: "filter-both"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// LE Set Advertising Parameters: how legacy advertising is sent (Core Vol 4, Part E §7.8.5).
public struct HCILESetAdvertisingParameters: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetAdvertisingParameters
    public static let name = "LE Set Advertising Parameters"

    public var advertisingIntervalMin: LEAdvertisingInterval
    public var advertisingIntervalMax: LEAdvertisingInterval
    public var advertisingType: LEAdvertisingType
    public var ownAddressType: LEOwnAddressType
    /// Used by directed advertising and by resolvable own address types; 0 or 1 only.
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    public var advertisingChannelMap: LEAdvertisingChannelMap
    public var advertisingFilterPolicy: LEAdvertisingFilterPolicy

    public init(
        advertisingIntervalMin: LEAdvertisingInterval,
        advertisingIntervalMax: LEAdvertisingInterval,
        advertisingType: LEAdvertisingType = .advInd,
        ownAddressType: LEOwnAddressType = .publicDevice,
        peerAddressType: LEAddressType = .publicDevice,
        peerAddress: BDAddress = .zero,
        advertisingChannelMap: LEAdvertisingChannelMap = .all,
        advertisingFilterPolicy: LEAdvertisingFilterPolicy = .acceptAll
    ) {
        self.advertisingIntervalMin = advertisingIntervalMin
        self.advertisingIntervalMax = advertisingIntervalMax
        self.advertisingType = advertisingType
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.advertisingChannelMap = advertisingChannelMap
        self.advertisingFilterPolicy = advertisingFilterPolicy
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        advertisingIntervalMin = try reader.hciUnit(LEAdvertisingInterval.self, "advertising_interval_min")
        advertisingIntervalMax = try reader.hciUnit(LEAdvertisingInterval.self, "advertising_interval_max")
        advertisingType = LEAdvertisingType(rawValue: try reader.u8("advertising_type"))
        ownAddressType = LEOwnAddressType(rawValue: try reader.u8("own_address_type"))
        peerAddressType = LEAddressType(rawValue: try reader.u8("peer_address_type"))
        peerAddress = try BDAddress.read(&reader, "peer_address")
        advertisingChannelMap = LEAdvertisingChannelMap(rawValue: try reader.u8("advertising_channel_map"))
        advertisingFilterPolicy = LEAdvertisingFilterPolicy(rawValue: try reader.u8("advertising_filter_policy"))
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.hciUnit(advertisingIntervalMin)
        writer.hciUnit(advertisingIntervalMax)
        writer.u8(advertisingType.rawValue)
        writer.u8(ownAddressType.rawValue)
        writer.u8(peerAddressType.rawValue)
        peerAddress.write(&writer)
        writer.u8(advertisingChannelMap.rawValue)
        writer.u8(advertisingFilterPolicy.rawValue)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .describing("advertising_interval_min", advertisingIntervalMin),
            .describing("advertising_interval_max", advertisingIntervalMax),
            .describing("advertising_type", advertisingType),
            .describing("own_address_type", ownAddressType),
            .describing("peer_address_type", peerAddressType),
            .describing("peer_address", peerAddress),
            .describing("advertising_channel_map", advertisingChannelMap),
            .describing("advertising_filter_policy", advertisingFilterPolicy),
        ]
    }
}

/// The legacy advertising payload layout shared by LE Set Advertising Data and LE Set Scan
/// Response Data: a significant length (0...31), then 31 octets of which the rest is padding.
enum LegacyAdvertisingPayload {
    static let capacity = 31

    static func check(_ data: [UInt8], _ context: String) throws(WireError) {
        guard data.count <= capacity else {
            throw WireError(offset: 0, context: context,
                            reason: .invalidValue("\(data.count) octets, at most \(capacity) fit"))
        }
    }

    static func read(_ reader: inout ByteReader, length lengthField: String, data dataField: String) throws(WireError) -> [UInt8] {
        let lengthOffset = reader.offset
        let length = Int(try reader.u8(lengthField))
        guard length <= capacity else {
            throw WireError(offset: lengthOffset, context: "\(reader.context): \(lengthField)",
                            reason: .invalidValue("\(length) octets, at most \(capacity) fit"))
        }
        let padded = try reader.bytes(capacity, dataField)
        try reader.requireEnd()
        return Array(padded.prefix(length))
    }

    static func write(_ data: [UInt8], into writer: inout ByteWriter) {
        writer.u8(UInt8(data.count))
        writer.append(data)
        writer.append(repeatElement(UInt8(0), count: capacity - data.count))
    }
}

/// LE Set Advertising Data: the payload of legacy advertising PDUs, up to 31 octets
/// (Core Vol 4, Part E §7.8.7).
public struct HCILESetAdvertisingData: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetAdvertisingData
    public static let name = "LE Set Advertising Data"

    /// The significant octets, at most 31; the wire form pads them with zeros to 31.
    public private(set) var advertisingData: [UInt8]

    /// Throws when `advertisingData` holds more than 31 octets.
    public init(advertisingData: [UInt8]) throws(WireError) {
        try LegacyAdvertisingPayload.check(advertisingData, "\(Self.name): advertisingData")
        self.advertisingData = advertisingData
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        advertisingData = try LegacyAdvertisingPayload.read(
            &reader, length: "advertising_data_length", data: "advertising_data")
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        LegacyAdvertisingPayload.write(advertisingData, into: &writer)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [.decimal("advertising_data_length", advertisingData.count), .init("advertising_data", hex(advertisingData))]
    }
}

/// LE Set Scan Response Data: the payload of legacy scan responses, up to 31 octets
/// (Core Vol 4, Part E §7.8.8).
public struct HCILESetScanResponseData: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetScanResponseData
    public static let name = "LE Set Scan Response Data"

    /// The significant octets, at most 31; the wire form pads them with zeros to 31.
    public private(set) var scanResponseData: [UInt8]

    /// Throws when `scanResponseData` holds more than 31 octets.
    public init(scanResponseData: [UInt8]) throws(WireError) {
        try LegacyAdvertisingPayload.check(scanResponseData, "\(Self.name): scanResponseData")
        self.scanResponseData = scanResponseData
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        scanResponseData = try LegacyAdvertisingPayload.read(
            &reader, length: "scan_response_data_length", data: "scan_response_data")
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        LegacyAdvertisingPayload.write(scanResponseData, into: &writer)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [.decimal("scan_response_data_length", scanResponseData.count), .init("scan_response_data", hex(scanResponseData))]
    }
}

/// LE Set Advertising Enable: starts or stops legacy advertising (Core Vol 4, Part E §7.8.9).
public struct HCILESetAdvertisingEnable: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetAdvertisingEnable
    public static let name = "LE Set Advertising Enable"

    public var advertisingEnable: Bool

    public init(advertisingEnable: Bool) { self.advertisingEnable = advertisingEnable }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        advertisingEnable = try reader.booleanOctet("advertising_enable")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.booleanOctet(advertisingEnable) }

    public var fieldList: [HCIPacketDescription.Field] { [.boolean("advertising_enable", advertisingEnable)] }
}
