/// The result of an LE credit-based connection request (Core Vol 3, Part A §4.23,
/// Table 4.16). An open set.
public struct L2CAPLECreditBasedConnectionResult: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = Self(rawValue: 0x0000)
    public static let spsmNotSupported = Self(rawValue: 0x0002)
    public static let noResourcesAvailable = Self(rawValue: 0x0004)
    public static let insufficientAuthentication = Self(rawValue: 0x0005)
    public static let insufficientAuthorization = Self(rawValue: 0x0006)
    public static let encryptionKeySizeTooShort = Self(rawValue: 0x0007)
    public static let insufficientEncryption = Self(rawValue: 0x0008)
    public static let invalidSourceCID = Self(rawValue: 0x0009)
    public static let sourceCIDAlreadyAllocated = Self(rawValue: 0x000A)
    public static let unacceptableParameters = Self(rawValue: 0x000B)

    public var name: String? {
        switch self {
        case .successful: "Connection successful"
        case .spsmNotSupported: "Connection refused - SPSM not supported"
        case .noResourcesAvailable: "Connection refused - no resources available"
        case .insufficientAuthentication: "Connection refused - insufficient authentication"
        case .insufficientAuthorization: "Connection refused - insufficient authorization"
        case .encryptionKeySizeTooShort: "Connection refused - encryption key size too short"
        case .insufficientEncryption: "Connection refused - insufficient encryption"
        case .invalidSourceCID: "Connection refused - invalid Source CID"
        case .sourceCIDAlreadyAllocated: "Connection refused - Source CID already allocated"
        case .unacceptableParameters: "Connection refused - unacceptable parameters"
        default: nil
        }
    }

    public var description: String {
        guard let name else { return "0x\(hex(rawValue))" }
        return "\(name) (0x\(hex(rawValue)))"
    }
}
