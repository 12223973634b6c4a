import BlueproofWire

/// A request of the local host that L2CAP refuses before anything goes on the air.
public enum L2CAPRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No open credit-based channel has this local CID.
    case noSuchChannel(L2CAPChannelID)
    /// The SDU is longer than the peer's MTU (Core Vol 3, Part A §3.4.3).
    case sduExceedsRemoteMTU(size: Int, mtu: UInt16)
    /// The peer's MPS cannot carry the SDU length field.
    case remoteMPSTooSmall(UInt16)
    /// All 255 signaling identifiers are waiting for responses (Core Vol 3, Part A §4).
    case identifiersExhausted
    /// No CID of the LE dynamic range (or of the configured channel limit) is free.
    case channelIDsExhausted
    /// MTU, MPS or SPSM outside what LE credit-based channels allow (§4.22).
    case unacceptableParameters(String)
    /// The command is not one this role sends (e.g. a central asking for a connection
    /// parameter update, §4.20).
    case notAllowedInRole

    public var description: String {
        switch self {
        case let .noSuchChannel(cid): "no open channel with local CID \(cid)"
        case let .sduExceedsRemoteMTU(size, mtu): "SDU of \(size) octets exceeds the peer's MTU \(mtu)"
        case let .remoteMPSTooSmall(mps): "the peer's MPS \(mps) cannot carry an SDU length"
        case .identifiersExhausted: "every signaling identifier is in use"
        case .channelIDsExhausted: "no free dynamic CID"
        case let .unacceptableParameters(detail): "unacceptable parameters: \(detail)"
        case .notAllowedInRole: "not allowed in this role"
        }
    }
}
