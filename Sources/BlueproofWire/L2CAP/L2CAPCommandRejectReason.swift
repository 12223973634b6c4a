/// Why a signaling command was rejected (Core Vol 3, Part A §4.1, Table 4.3). An open set.
public struct L2CAPCommandRejectReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Command not understood; no data.
    public static let commandNotUnderstood = L2CAPCommandRejectReason(rawValue: 0x0000)
    /// Signaling MTU exceeded; data: the rejecting side's MTUsig (2 octets).
    public static let signalingMTUExceeded = L2CAPCommandRejectReason(rawValue: 0x0001)
    /// Invalid CID in request; data: local CID then remote CID (2 octets each), as seen by
    /// the device sending the reject.
    public static let invalidCIDInRequest = L2CAPCommandRejectReason(rawValue: 0x0002)

    public var name: String? {
        switch self {
        case .commandNotUnderstood: "Command not understood"
        case .signalingMTUExceeded: "Signaling MTU exceeded"
        case .invalidCIDInRequest: "Invalid CID in request"
        default: nil
        }
    }

    /// Octets of data the reason carries; nil for reasons this module does not know.
    public var dataLength: Int? {
        switch self {
        case .commandNotUnderstood: 0
        case .signalingMTUExceeded: 2
        case .invalidCIDInRequest: 4
        default: nil
        }
    }

    public var description: String {
        guard let name else { return "0x\(hex(rawValue))" }
        return "\(name) (0x\(hex(rawValue)))"
    }
}
