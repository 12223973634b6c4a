import BlueproofWire

/// A peer's breach of LE credit-based flow control that obliges the receiver to disconnect
/// the channel (Core Vol 3, Part A §3.4.3, §4.24, §10.1).
public enum L2CAPCreditChannelViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// A Flow Control Credit Indication took the credit count past 65535 (§4.24, §10.1).
    case creditOverflow(current: Int, added: UInt16)
    /// A K-frame arrived when the peer had no credit left (§10.1).
    case frameWithoutCredit
    /// A K-frame's information payload is longer than the local MPS (§3.4.3).
    case frameExceedsMPS(size: Int, mps: UInt16)
    /// The SDU length field announces more than the local MTU (§3.4.3).
    case sduExceedsMTU(sduLength: Int, mtu: UInt16)
    /// The K-frames of an SDU carry more than its SDU length (§3.4.3).
    case sduOverrun(sduLength: Int, received: Int)
    /// The first K-frame of an SDU is too short to hold the SDU length field (§3.4.3).
    case missingSDULength(size: Int)

    public var description: String {
        switch self {
        case let .creditOverflow(current, added):
            "credit indication of \(added) on top of \(current) exceeds 65535"
        case .frameWithoutCredit:
            "K-frame received while the peer had no credit"
        case let .frameExceedsMPS(size, mps):
            "K-frame of \(size) octets exceeds the MPS \(mps)"
        case let .sduExceedsMTU(sduLength, mtu):
            "SDU length \(sduLength) exceeds the MTU \(mtu)"
        case let .sduOverrun(sduLength, received):
            "K-frames carry \(received) octets for an SDU of \(sduLength)"
        case let .missingSDULength(size):
            "first K-frame of \(size) octet(s) cannot hold the SDU length"
        }
    }
}
