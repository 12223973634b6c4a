/// A Security Manager Protocol command code (Core Vol 3, Part H §3.3, Table 3.3). An open set.
public struct SMPCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let pairingRequest = SMPCode(rawValue: 0x01)
    public static let pairingResponse = SMPCode(rawValue: 0x02)
    public static let pairingConfirm = SMPCode(rawValue: 0x03)
    public static let pairingRandom = SMPCode(rawValue: 0x04)
    public static let pairingFailed = SMPCode(rawValue: 0x05)
    public static let encryptionInformation = SMPCode(rawValue: 0x06)
    public static let centralIdentification = SMPCode(rawValue: 0x07)
    public static let identityInformation = SMPCode(rawValue: 0x08)
    public static let identityAddressInformation = SMPCode(rawValue: 0x09)
    public static let signingInformation = SMPCode(rawValue: 0x0A)
    public static let securityRequest = SMPCode(rawValue: 0x0B)
    public static let pairingPublicKey = SMPCode(rawValue: 0x0C)
    public static let pairingDHKeyCheck = SMPCode(rawValue: 0x0D)
    public static let pairingKeypressNotification = SMPCode(rawValue: 0x0E)

    public var name: String? {
        switch self {
        case .pairingRequest: "Pairing Request"
        case .pairingResponse: "Pairing Response"
        case .pairingConfirm: "Pairing Confirm"
        case .pairingRandom: "Pairing Random"
        case .pairingFailed: "Pairing Failed"
        case .encryptionInformation: "Encryption Information"
        case .centralIdentification: "Central Identification"
        case .identityInformation: "Identity Information"
        case .identityAddressInformation: "Identity Address Information"
        case .signingInformation: "Signing Information"
        case .securityRequest: "Security Request"
        case .pairingPublicKey: "Pairing Public Key"
        case .pairingDHKeyCheck: "Pairing DHKey Check"
        case .pairingKeypressNotification: "Pairing Keypress Notification"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
