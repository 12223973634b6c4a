// LE extended advertising commands (OGF 0x08), Core Vol 4, Part E §7.8.52, §7.8.53,
// §7.8.56, §7.8.57, §7.8.59. Advertising and scan response data: LEExtendedAdvertisingData.swift.

extension HCIOpcode {
    /// LE Set Advertising Set Random Address, 0x08|0x0035.
    public static let leSetAdvertisingSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0035)
    /// LE Set Extended Advertising Parameters [v1], 0x08|0x0036.
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0036)
    /// LE Set Extended Advertising Enable, 0x08|0x0039.
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0039)
    /// LE Read Maximum Advertising Data Length, 0x08|0x003A.
    public static let leReadMaximumAdvertisingDataLength = HCIOpcode(ogf: 0x08, ocf: 0x003A)
    /// LE Remove Advertising Set, 0x08|0x003C.
    public static let leRemoveAdvertisingSet = HCIOpcode(ogf: 0x08, ocf: 0x003C)
}

/// Advertising_Event_Properties: the kind of advertising an advertising set does
/// (Core Vol 4, Part E §7.8.53). A 16-bit mask; bits not named here are kept.
public struct LEAdvertisingEventProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let connectable = LEAdvertisingEventProperties(rawValue: 1 << 0)
    public static let scannable = LEAdvertisingEventProperties(rawValue: 1 << 1)
    public static let directed = LEAdvertisingEventProperties(rawValue: 1 << 2)
    /// High duty cycle directed connectable advertising (at most 3.75 ms between events).
    public static let highDutyCycleDirected = LEAdvertisingEventProperties(rawValue: 1 << 3)
    /// Legacy advertising PDUs: the set behaves like LE Set Advertising Parameters' types.
    public static let legacy = LEAdvertisingEventProperties(rawValue: 1 << 4)
    /// Omit the advertiser's address from all PDUs ("anonymous advertising").
    public static let anonymous = LEAdvertisingEventProperties(rawValue: 1 << 5)
    /// Include TxPower in the extended header of at least one PDU.
    public static let includeTXPower = LEAdvertisingEventProperties(rawValue: 1 << 6)

    /// Legacy ADV_IND: connectable, scannable, legacy PDUs (0x0013).
    public static let legacyAdvInd: LEAdvertisingEventProperties = [.legacy, .connectable, .scannable]
    /// Legacy ADV_NONCONN_IND (0x0010).
    public static let legacyAdvNonconnInd: LEAdvertisingEventProperties = [.legacy]

    static let names: [(LEAdvertisingEventProperties, String)] = [
        (.connectable, "connectable"), (.scannable, "scannable"), (.directed, "directed"),
        (.highDutyCycleDirected, "high-duty-cycle"), (.legacy, "legacy"), (.anonymous, "anonymous"),
        (.includeTXPower, "tx-power"),
    ]

    public var description: String { flagText(rawValue, Self.names.map { ($0.0.rawValue, $0.1) }) }
}

/// LE Set Advertising Set Random Address: the random address one advertising set uses when
/// its own address type is random (Core Vol 4, Part E §7.8.52).
public struct HCILESetAdvertisingSetRandomAddress: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetAdvertisingSetRandomAddress
    public static let name = "LE Set Advertising Set Random Address"

    public var advertisingHandle: UInt8
    public var randomAddress: BDAddress

    public init(advertisingHandle: UInt8, randomAddress: BDAddress) {
        self.advertisingHandle = advertisingHandle
        self.randomAddress = randomAddress
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        advertisingHandle = try reader.u8("advertising_handle")
        randomAddress = try BDAddress.read(&reader, "random_address")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(advertisingHandle)
        randomAddress.write(&writer)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [.decimal("advertising_handle", advertisingHandle), .describing("random_address", randomAddress)]
    }
}

/// LE Set Extended Advertising Parameters [v1]: how one advertising set advertises
/// (Core Vol 4, Part E §7.8.53). Command Complete returns the transmit power chosen.
public struct HCILESetExtendedAdvertisingParameters: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingParameters
    public static let name = "LE Set Extended Advertising Parameters [v1]"

    /// Advertising_TX_Power meaning "the host has no preference".
    public static let noTXPowerPreference: Int8 = 0x7F

    public var advertisingHandle: UInt8
    public var advertisingEventProperties: LEAdvertisingEventProperties
    public var primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval
    public var primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval
    public var primaryAdvertisingChannelMap: LEAdvertisingChannelMap
    public var ownAddressType: LEOwnAddressType
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    public var advertisingFilterPolicy: LEAdvertisingFilterPolicy
    /// Largest transmit power wanted, dBm (-127...20); nil for no preference (0x7F).
    public var advertisingTXPower: Int8?
    /// LE 1M or LE Coded.
    public var primaryAdvertisingPHY: LEPHY
    /// Advertising events the secondary channel PDUs may skip.
    public var secondaryAdvertisingMaxSkip: UInt8
    public var secondaryAdvertisingPHY: LEPHY
    /// Advertising_SID, 0x00...0x0F, sent in the ADI field.
    public var advertisingSID: UInt8
    /// Report scan requests with LE Scan Request Received.
    public var scanRequestNotificationEnable: Bool

    public init(
        advertisingHandle: UInt8,
        advertisingEventProperties: LEAdvertisingEventProperties,
        primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval,
        primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval,
        primaryAdvertisingChannelMap: LEAdvertisingChannelMap = .all,
        ownAddressType: LEOwnAddressType = .publicDevice,
        peerAddressType: LEAddressType = .publicDevice,
        peerAddress: BDAddress = .zero,
        advertisingFilterPolicy: LEAdvertisingFilterPolicy = .acceptAll,
        advertisingTXPower: Int8? = nil,
        primaryAdvertisingPHY: LEPHY = .le1M,
        secondaryAdvertisingMaxSkip: UInt8 = 0,
        secondaryAdvertisingPHY: LEPHY = .le1M,
        advertisingSID: UInt8 = 0,
        scanRequestNotificationEnable: Bool = false
    ) {
        self.advertisingHandle = advertisingHandle
        self.advertisingEventProperties = advertisingEventProperties
        self.primaryAdvertisingIntervalMin = primaryAdvertisingIntervalMin
        self.primaryAdvertisingIntervalMax = primaryAdvertisingIntervalMax
        self.primaryAdvertisingChannelMap = primaryAdvertisingChannelMap
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.advertisingFilterPolicy = advertisingFilterPolicy
        self.advertisingTXPower = advertisingTXPower
        self.primaryAdvertisingPHY = primaryAdvertisingPHY
        self.secondaryAdvertisingMaxSkip = secondaryAdvertisingMaxSkip
        self.secondaryAdvertisingPHY = secondaryAdvertisingPHY
        self.advertisingSID = advertisingSID
        self.scanRequestNotificationEnable = scanRequestNotificationEnable
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        advertisingHandle = try reader.u8("advertising_handle")
        advertisingEventProperties = LEAdvertisingEventProperties(rawValue: try reader.u16("advertising_event_properties"))
        primaryAdvertisingIntervalMin = LEExtendedAdvertisingInterval(rawValue: try reader.u24("primary_advertising_interval_min"))
        primaryAdvertisingIntervalMax = LEExtendedAdvertisingInterval(rawValue: try reader.u24("primary_advertising_interval_max"))
        primaryAdvertisingChannelMap = LEAdvertisingChannelMap(rawValue: try reader.u8("primary_advertising_channel_map"))
        ownAddressType = LEOwnAddressType(rawValue: try reader.u8("own_address_type"))
        peerAddressType = LEAddressType(rawValue: try reader.u8("peer_address_type"))
        peerAddress = try BDAddress.read(&reader, "peer_address")
        advertisingFilterPolicy = LEAdvertisingFilterPolicy(rawValue: try reader.u8("advertising_filter_policy"))
        let power = try reader.i8("advertising_tx_power")
        advertisingTXPower = power == Self.noTXPowerPreference ? nil : power
        primaryAdvertisingPHY = LEPHY(rawValue: try reader.u8("primary_advertising_phy"))
        secondaryAdvertisingMaxSkip = try reader.u8("secondary_advertising_max_skip")
        secondaryAdvertisingPHY = LEPHY(rawValue: try reader.u8("secondary_advertising_phy"))
        advertisingSID = try reader.u8("advertising_sid")
        scanRequestNotificationEnable = try reader.booleanOctet("scan_request_notification_enable")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(advertisingHandle)
        writer.u16(advertisingEventProperties.rawValue)
        writer.u24(primaryAdvertisingIntervalMin.rawValue)
        writer.u24(primaryAdvertisingIntervalMax.rawValue)
        writer.u8(primaryAdvertisingChannelMap.rawValue)
        writer.u8(ownAddressType.rawValue)
        writer.u8(peerAddressType.rawValue)
        peerAddress.write(&writer)
        writer.u8(advertisingFilterPolicy.rawValue)
        writer.i8(advertisingTXPower ?? Self.noTXPowerPreference)
        writer.u8(primaryAdvertisingPHY.rawValue)
        writer.u8(secondaryAdvertisingMaxSkip)
        writer.u8(secondaryAdvertisingPHY.rawValue)
        writer.u8(advertisingSID)
        writer.booleanOctet(scanRequestNotificationEnable)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .decimal("advertising_handle", advertisingHandle),
            .describing("advertising_event_properties", advertisingEventProperties),
            .describing("primary_advertising_interval_min", primaryAdvertisingIntervalMin),
            .describing("primary_advertising_interval_max", primaryAdvertisingIntervalMax),
            .describing("primary_advertising_channel_map", primaryAdvertisingChannelMap),
            .describing("own_address_type", ownAddressType),
            .describing("peer_address_type", peerAddressType),
            .describing("peer_address", peerAddress),
            .describing("advertising_filter_policy", advertisingFilterPolicy),
            .init("advertising_tx_power", advertisingTXPower.map { "\($0) dBm" } ?? "no preference"),
            .describing("primary_advertising_phy", primaryAdvertisingPHY),
            .decimal("secondary_advertising_max_skip", secondaryAdvertisingMaxSkip),
            .describing("secondary_advertising_phy", secondaryAdvertisingPHY),
            .decimal("advertising_sid", advertisingSID),
            .boolean("scan_request_notification_enable", scanRequestNotificationEnable),
        ]
    }

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        /// The transmit power the controller chose, dBm.
        public var selectedTXPower: Int8

        public init(status: HCIStatus = .success, selectedTXPower: Int8) {
            self.status = status
            self.selectedTXPower = selectedTXPower
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            selectedTXPower = try reader.i8("selected_tx_power")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.i8(selectedTXPower)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [.describing("status", status), .init("selected_tx_power", "\(selectedTXPower) dBm")]
        }
    }
}

/// LE Set Extended Advertising Enable: starts or stops advertising sets
/// (Core Vol 4, Part E §7.8.56). With `enable` false and no sets, every set stops.
///
/// On the wire: Enable, Num_Sets, then each set whole in turn (handle, duration, maximum
/// events), as BlueZ and Bumble lay it out.
public struct HCILESetExtendedAdvertisingEnable: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingEnable
    public static let name = "LE Set Extended Advertising Enable"

    /// One advertising set to start or stop.
    public struct AdvertisingSet: Hashable, Sendable {
        public var advertisingHandle: UInt8
        /// How long to advertise; ``LEAdvertisingDuration/unlimited`` for no limit.
        public var duration: LEAdvertisingDuration
        /// Advertising events to send before stopping; 0 for no limit.
        public var maxExtendedAdvertisingEvents: UInt8

        public init(advertisingHandle: UInt8, duration: LEAdvertisingDuration = .unlimited,
                    maxExtendedAdvertisingEvents: UInt8 = 0) {
            self.advertisingHandle = advertisingHandle
            self.duration = duration
            self.maxExtendedAdvertisingEvents = maxExtendedAdvertisingEvents
        }
    }

    public var enable: Bool
    /// The sets, in wire order; Num_Sets is their count (at most 63 in the specification).
    public var sets: [AdvertisingSet]

    public init(enable: Bool, sets: [AdvertisingSet]) {
        self.enable = enable
        self.sets = sets
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        enable = try reader.booleanOctet("enable")
        let count = Int(try reader.u8("num_sets"))
        var sets: [AdvertisingSet] = []
        sets.reserveCapacity(count)
        for index in 0..<count {
            let handle = try reader.u8("advertising_handle[\(index)]")
            let duration = try reader.hciUnit(LEAdvertisingDuration.self, "duration[\(index)]")
            let events = try reader.u8("max_extended_advertising_events[\(index)]")
            sets.append(AdvertisingSet(advertisingHandle: handle, duration: duration,
                                       maxExtendedAdvertisingEvents: events))
        }
        self.sets = sets
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.booleanOctet(enable)
        writer.u8(UInt8(truncatingIfNeeded: sets.count))
        for set in sets {
            writer.u8(set.advertisingHandle)
            writer.hciUnit(set.duration)
            writer.u8(set.maxExtendedAdvertisingEvents)
        }
    }

    public var fieldList: [HCIPacketDescription.Field] {
        var fields: [HCIPacketDescription.Field] = [.boolean("enable", enable), .decimal("num_sets", sets.count)]
        for (index, set) in sets.enumerated() {
            fields += [
                .decimal(indexedName("advertising_handle", index, of: sets.count), set.advertisingHandle),
                .describing(indexedName("duration", index, of: sets.count), set.duration),
                .decimal(indexedName("max_extended_advertising_events", index, of: sets.count),
                         set.maxExtendedAdvertisingEvents),
            ]
        }
        return fields
    }
}

/// LE Read Maximum Advertising Data Length: the most advertising or scan response data one
/// advertising set can hold (Core Vol 4, Part E §7.8.57).
public struct HCILEReadMaximumAdvertisingDataLength: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.leReadMaximumAdvertisingDataLength
    public static let name = "LE Read Maximum Advertising Data Length"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        /// Octets, 31...1650.
        public var maxAdvertisingDataLength: UInt16

        public init(status: HCIStatus = .success, maxAdvertisingDataLength: UInt16) {
            self.status = status
            self.maxAdvertisingDataLength = maxAdvertisingDataLength
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            maxAdvertisingDataLength = try reader.u16("max_advertising_data_length")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(maxAdvertisingDataLength)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [.describing("status", status), .decimal("max_advertising_data_length", maxAdvertisingDataLength)]
        }
    }
}

/// LE Remove Advertising Set: forgets one advertising set (Core Vol 4, Part E §7.8.59).
public struct HCILERemoveAdvertisingSet: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leRemoveAdvertisingSet
    public static let name = "LE Remove Advertising Set"

    public var advertisingHandle: UInt8

    public init(advertisingHandle: UInt8) { self.advertisingHandle = advertisingHandle }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        advertisingHandle = try reader.u8("advertising_handle")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.u8(advertisingHandle) }

    public var fieldList: [HCIPacketDescription.Field] { [.decimal("advertising_handle", advertisingHandle)] }
}
