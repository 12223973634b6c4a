/// The result of a connection parameter update request (Core Vol 3, Part A §4.21). An open set.
public struct L2CAPConnectionParameterUpdateResult: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let accepted = L2CAPConnectionParameterUpdateResult(rawValue: 0x0000)
    public static let rejected = L2CAPConnectionParameterUpdateResult(rawValue: 0x0001)

    public var description: String {
        switch self {
        case .accepted: "accepted (0x0000)"
        case .rejected: "rejected (0x0001)"
        default: "0x\(hex(rawValue))"
        }
    }
}
