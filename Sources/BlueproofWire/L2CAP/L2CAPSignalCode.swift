/// An L2CAP signaling command code (Core Vol 3, Part A §4, Table 4.2). An open set; the
/// codes of commands LE does not use decode to ``L2CAPSignalCommand/unknown(code:data:)``.
public struct L2CAPSignalCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let commandReject = L2CAPSignalCode(rawValue: 0x01)
    public static let connectionRequest = L2CAPSignalCode(rawValue: 0x02)
    public static let disconnectionRequest = L2CAPSignalCode(rawValue: 0x06)
    public static let disconnectionResponse = L2CAPSignalCode(rawValue: 0x07)
    public static let echoRequest = L2CAPSignalCode(rawValue: 0x08)
    public static let informationRequest = L2CAPSignalCode(rawValue: 0x0A)
    public static let connectionParameterUpdateRequest = L2CAPSignalCode(rawValue: 0x12)
    public static let connectionParameterUpdateResponse = L2CAPSignalCode(rawValue: 0x13)
    public static let leCreditBasedConnectionRequest = L2CAPSignalCode(rawValue: 0x14)
    public static let leCreditBasedConnectionResponse = L2CAPSignalCode(rawValue: 0x15)
    public static let flowControlCreditIndication = L2CAPSignalCode(rawValue: 0x16)
    public static let creditBasedConnectionRequest = L2CAPSignalCode(rawValue: 0x17)
    public static let creditBasedConnectionResponse = L2CAPSignalCode(rawValue: 0x18)

    public var name: String? {
        switch self {
        case .commandReject: "Command Reject"
        case .connectionRequest: "Connection Request"
        case .disconnectionRequest: "Disconnection Request"
        case .disconnectionResponse: "Disconnection Response"
        case .echoRequest: "Echo Request"
        case .informationRequest: "Information Request"
        case .connectionParameterUpdateRequest: "Connection Parameter Update Request"
        case .connectionParameterUpdateResponse: "Connection Parameter Update Response"
        case .leCreditBasedConnectionRequest: "LE Credit Based Connection Request"
        case .leCreditBasedConnectionResponse: "LE Credit Based Connection Response"
        case .flowControlCreditIndication: "Flow Control Credit Indication"
        case .creditBasedConnectionRequest: "Credit Based Connection Request"
        case .creditBasedConnectionResponse: "Credit Based Connection Response"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
