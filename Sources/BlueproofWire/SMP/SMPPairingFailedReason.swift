/// The reason of a Pairing Failed command (Core Vol 3, Part H §3.5.5, Table 3.7). An open set.
public struct SMPPairingFailedReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryFailed = Self(rawValue: 0x01)
    public static let oobNotAvailable = Self(rawValue: 0x02)
    public static let authenticationRequirements = Self(rawValue: 0x03)
    public static let confirmValueFailed = Self(rawValue: 0x04)
    public static let pairingNotSupported = Self(rawValue: 0x05)
    public static let encryptionKeySize = Self(rawValue: 0x06)
    public static let commandNotSupported = Self(rawValue: 0x07)
    public static let unspecifiedReason = Self(rawValue: 0x08)
    public static let repeatedAttempts = Self(rawValue: 0x09)
    public static let invalidParameters = Self(rawValue: 0x0A)
    public static let dhKeyCheckFailed = Self(rawValue: 0x0B)
    public static let numericComparisonFailed = Self(rawValue: 0x0C)
    public static let brEdrPairingInProgress = Self(rawValue: 0x0D)
    public static let crossTransportKeyDerivationNotAllowed = Self(rawValue: 0x0E)
    public static let keyRejected = Self(rawValue: 0x0F)

    public var name: String? {
        switch self {
        case .passkeyEntryFailed: "Passkey Entry Failed"
        case .oobNotAvailable: "OOB Not Available"
        case .authenticationRequirements: "Authentication Requirements"
        case .confirmValueFailed: "Confirm Value Failed"
        case .pairingNotSupported: "Pairing Not Supported"
        case .encryptionKeySize: "Encryption Key Size"
        case .commandNotSupported: "Command Not Supported"
        case .unspecifiedReason: "Unspecified Reason"
        case .repeatedAttempts: "Repeated Attempts"
        case .invalidParameters: "Invalid Parameters"
        case .dhKeyCheckFailed: "DHKey Check Failed"
        case .numericComparisonFailed: "Numeric Comparison Failed"
        case .brEdrPairingInProgress: "BR/EDR pairing in progress"
        case .crossTransportKeyDerivationNotAllowed: "Cross-transport Key Derivation/Generation not allowed"
        case .keyRejected: "Key Rejected"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
