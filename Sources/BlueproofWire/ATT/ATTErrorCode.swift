/// An ATT error code carried by an Error Response (Core Vol 3, Part F §3.4.1.1, Table 3.4).
/// An open set: 0x80–0x9F belong to applications, 0xE0–0xFF to the Core Specification
/// Supplement's common profile and service errors (CSS Part B §1.2).
public struct ATTErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidHandle = ATTErrorCode(rawValue: 0x01)
    public static let readNotPermitted = ATTErrorCode(rawValue: 0x02)
    public static let writeNotPermitted = ATTErrorCode(rawValue: 0x03)
    public static let invalidPDU = ATTErrorCode(rawValue: 0x04)
    public static let insufficientAuthentication = ATTErrorCode(rawValue: 0x05)
    public static let requestNotSupported = ATTErrorCode(rawValue: 0x06)
    public static let invalidOffset = ATTErrorCode(rawValue: 0x07)
    public static let insufficientAuthorization = ATTErrorCode(rawValue: 0x08)
    public static let prepareQueueFull = ATTErrorCode(rawValue: 0x09)
    public static let attributeNotFound = ATTErrorCode(rawValue: 0x0A)
    public static let attributeNotLong = ATTErrorCode(rawValue: 0x0B)
    public static let encryptionKeySizeTooShort = ATTErrorCode(rawValue: 0x0C)
    public static let invalidAttributeValueLength = ATTErrorCode(rawValue: 0x0D)
    public static let unlikelyError = ATTErrorCode(rawValue: 0x0E)
    public static let insufficientEncryption = ATTErrorCode(rawValue: 0x0F)
    public static let unsupportedGroupType = ATTErrorCode(rawValue: 0x10)
    public static let insufficientResources = ATTErrorCode(rawValue: 0x11)
    public static let databaseOutOfSync = ATTErrorCode(rawValue: 0x12)
    public static let valueNotAllowed = ATTErrorCode(rawValue: 0x13)

    // Common profile and service error codes (CSS Part B §1.2).
    public static let writeRequestRejected = ATTErrorCode(rawValue: 0xFC)
    public static let cccdImproperlyConfigured = ATTErrorCode(rawValue: 0xFD)
    public static let procedureAlreadyInProgress = ATTErrorCode(rawValue: 0xFE)
    public static let outOfRange = ATTErrorCode(rawValue: 0xFF)

    /// Codes a higher-layer specification defines (Vol 3, Part F §3.4.1.1).
    public static let applicationErrors: ClosedRange<UInt8> = 0x80...0x9F
    /// Codes the Core Specification Supplement defines for all profiles and services.
    public static let commonProfileAndServiceErrors: ClosedRange<UInt8> = 0xE0...0xFF

    public var isApplicationError: Bool { Self.applicationErrors.contains(rawValue) }
    public var isCommonProfileAndServiceError: Bool { Self.commonProfileAndServiceErrors.contains(rawValue) }

    /// The spec's name; nil for reserved and unnamed codes.
    public var name: String? {
        switch rawValue {
        case 0x01: "Invalid Handle"
        case 0x02: "Read Not Permitted"
        case 0x03: "Write Not Permitted"
        case 0x04: "Invalid PDU"
        case 0x05: "Insufficient Authentication"
        case 0x06: "Request Not Supported"
        case 0x07: "Invalid Offset"
        case 0x08: "Insufficient Authorization"
        case 0x09: "Prepare Queue Full"
        case 0x0A: "Attribute Not Found"
        case 0x0B: "Attribute Not Long"
        case 0x0C: "Encryption Key Size Too Short"
        case 0x0D: "Invalid Attribute Value Length"
        case 0x0E: "Unlikely Error"
        case 0x0F: "Insufficient Encryption"
        case 0x10: "Unsupported Group Type"
        case 0x11: "Insufficient Resources"
        case 0x12: "Database Out Of Sync"
        case 0x13: "Value Not Allowed"
        case 0xFC: "Write Request Rejected"
        case 0xFD: "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: "Procedure Already in Progress"
        case 0xFF: "Out of Range"
        default: nil
        }
    }

    /// `Invalid Handle (0x01)`, `Application Error (0x80)`, or `Reserved (0x14)`.
    public var description: String {
        if let name { return "\(name) (0x\(hex(rawValue)))" }
        if isApplicationError { return "Application Error (0x\(hex(rawValue)))" }
        if isCommonProfileAndServiceError { return "Common Profile and Service Error (0x\(hex(rawValue)))" }
        return "Reserved (0x\(hex(rawValue)))"
    }
}
