// LE extended advertising data commands (OGF 0x08), Core Vol 4, Part E §7.8.54, §7.8.55.

extension HCIOpcode {
    /// LE Set Extended Advertising Data, 0x08|0x0037.
    public static let leSetExtendedAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0037)
    /// LE Set Extended Scan Response Data, 0x08|0x0038.
    public static let leSetExtendedScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0038)
}

/// Which part of an advertising set's data a command carries (Core Vol 4, Part E §7.8.54).
/// An open set.
public struct LEAdvertisingDataOperation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let intermediateFragment = LEAdvertisingDataOperation(rawValue: 0x00)
    public static let firstFragment = LEAdvertisingDataOperation(rawValue: 0x01)
    public static let lastFragment = LEAdvertisingDataOperation(rawValue: 0x02)
    /// The whole data in this one command.
    public static let completeData = LEAdvertisingDataOperation(rawValue: 0x03)
    /// Keep the data, change only its Advertising DID (advertising data only).
    public static let unchangedData = LEAdvertisingDataOperation(rawValue: 0x04)

    public var name: String? {
        switch self {
        case .intermediateFragment: "intermediate-fragment"
        case .firstFragment: "first-fragment"
        case .lastFragment: "last-fragment"
        case .completeData: "complete"
        case .unchangedData: "unchanged"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// Whether the controller may split the data over several PDUs as it likes
/// (Core Vol 4, Part E §7.8.54). An open set.
public struct LEFragmentPreference: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let controllerMayFragment = LEFragmentPreference(rawValue: 0x00)
    /// Fragment as little as possible.
    public static let controllerShouldNotFragment = LEFragmentPreference(rawValue: 0x01)

    public var name: String? {
        switch self {
        case .controllerMayFragment: "may-fragment"
        case .controllerShouldNotFragment: "should-not-fragment"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// The layout shared by LE Set Extended Advertising Data and LE Set Extended Scan Response
/// Data: handle, operation, fragment preference, length, then up to 251 octets (what fits in
/// a 255-octet parameter block).
enum ExtendedAdvertisingPayload {
    static let capacity = 251

    static func check(_ data: [UInt8], _ context: String) throws(WireError) {
        guard data.count <= capacity else {
            throw WireError(offset: 0, context: context,
                            reason: .invalidValue("\(data.count) octets, at most \(capacity) fit"))
        }
    }

    static func read(_ reader: inout ByteReader, length lengthField: String, data dataField: String)
        throws(WireError) -> (handle: UInt8, operation: LEAdvertisingDataOperation,
                              preference: LEFragmentPreference, data: [UInt8]) {
        let handle = try reader.u8("advertising_handle")
        let operation = LEAdvertisingDataOperation(rawValue: try reader.u8("operation"))
        let preference = LEFragmentPreference(rawValue: try reader.u8("fragment_preference"))
        let length = Int(try reader.u8(lengthField))
        let data = try reader.bytes(length, dataField)
        try reader.requireEnd()
        return (handle, operation, preference, data)
    }

    static func write(handle: UInt8, operation: LEAdvertisingDataOperation, preference: LEFragmentPreference,
                      data: [UInt8], into writer: inout ByteWriter) {
        writer.u8(handle)
        writer.u8(operation.rawValue)
        writer.u8(preference.rawValue)
        writer.u8(UInt8(truncatingIfNeeded: data.count))
        writer.append(data)
    }
}

/// LE Set Extended Advertising Data: all or part of one advertising set's data, up to 251
/// octets per command (Core Vol 4, Part E §7.8.54).
public struct HCILESetExtendedAdvertisingData: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingData
    public static let name = "LE Set Extended Advertising Data"

    public var advertisingHandle: UInt8
    public var operation: LEAdvertisingDataOperation
    public var fragmentPreference: LEFragmentPreference
    /// At most 251 octets.
    public private(set) var advertisingData: [UInt8]

    /// Throws when `advertisingData` holds more than 251 octets.
    public init(advertisingHandle: UInt8, operation: LEAdvertisingDataOperation = .completeData,
                fragmentPreference: LEFragmentPreference = .controllerMayFragment,
                advertisingData: [UInt8]) throws(WireError) {
        try ExtendedAdvertisingPayload.check(advertisingData, "\(Self.name): advertisingData")
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.advertisingData = advertisingData
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        (advertisingHandle, operation, fragmentPreference, advertisingData) = try ExtendedAdvertisingPayload.read(
            &reader, length: "advertising_data_length", data: "advertising_data")
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        ExtendedAdvertisingPayload.write(handle: advertisingHandle, operation: operation,
                                         preference: fragmentPreference, data: advertisingData, into: &writer)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .decimal("advertising_handle", advertisingHandle),
            .describing("operation", operation),
            .describing("fragment_preference", fragmentPreference),
            .decimal("advertising_data_length", advertisingData.count),
            .init("advertising_data", hex(advertisingData)),
        ]
    }
}

/// LE Set Extended Scan Response Data: all or part of one advertising set's scan response
/// data, up to 251 octets per command (Core Vol 4, Part E §7.8.55).
public struct HCILESetExtendedScanResponseData: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetExtendedScanResponseData
    public static let name = "LE Set Extended Scan Response Data"

    public var advertisingHandle: UInt8
    /// Any operation but ``LEAdvertisingDataOperation/unchangedData``.
    public var operation: LEAdvertisingDataOperation
    public var fragmentPreference: LEFragmentPreference
    /// At most 251 octets.
    public private(set) var scanResponseData: [UInt8]

    /// Throws when `scanResponseData` holds more than 251 octets.
    public init(advertisingHandle: UInt8, operation: LEAdvertisingDataOperation = .completeData,
                fragmentPreference: LEFragmentPreference = .controllerMayFragment,
                scanResponseData: [UInt8]) throws(WireError) {
        try ExtendedAdvertisingPayload.check(scanResponseData, "\(Self.name): scanResponseData")
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.scanResponseData = scanResponseData
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        (advertisingHandle, operation, fragmentPreference, scanResponseData) = try ExtendedAdvertisingPayload.read(
            &reader, length: "scan_response_data_length", data: "scan_response_data")
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        ExtendedAdvertisingPayload.write(handle: advertisingHandle, operation: operation,
                                         preference: fragmentPreference, data: scanResponseData, into: &writer)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .decimal("advertising_handle", advertisingHandle),
            .describing("operation", operation),
            .describing("fragment_preference", fragmentPreference),
            .decimal("scan_response_data_length", scanResponseData.count),
            .init("scan_response_data", hex(scanResponseData)),
        ]
    }
}
