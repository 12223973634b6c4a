/// IO Capability of a pairing request or response (Core Vol 3, Part H §3.5.1, Table 3.4).
/// An open set; 0x05–0xFF are reserved.
public struct SMPIOCapability: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let displayOnly = SMPIOCapability(rawValue: 0x00)
    public static let displayYesNo = SMPIOCapability(rawValue: 0x01)
    public static let keyboardOnly = SMPIOCapability(rawValue: 0x02)
    public static let noInputNoOutput = SMPIOCapability(rawValue: 0x03)
    public static let keyboardDisplay = SMPIOCapability(rawValue: 0x04)

    public var name: String? {
        switch self {
        case .displayOnly: "DisplayOnly"
        case .displayYesNo: "DisplayYesNo"
        case .keyboardOnly: "KeyboardOnly"
        case .noInputNoOutput: "NoInputNoOutput"
        case .keyboardDisplay: "KeyboardDisplay"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
