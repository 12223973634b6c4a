import BlueproofWire

/// Why an operation of the LE host failed.
public enum LEHostError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A command to the controller failed, timed out, or the controller is gone.
    case command(HCICommandError)
    /// ``LEHost/start()`` has not completed.
    case notStarted
    /// Legacy advertising or scan response data longer than the 31 octets a legacy PDU holds
    /// (Vol 4, Part E §7.8.7). Refused by the host: btvirt accepts it and then never reports
    /// the advertiser.
    case advertisingDataTooLong(field: String, length: Int, limit: Int)
    /// Advertising data that does not decode as AD structures.
    case malformedAdvertisingData(WireError)
    /// Another LE Create Connection is pending; the controller allows one at a time
    /// (Vol 4, Part E §7.8.12).
    case connectionInProgress
    /// The controller reported the connection attempt as failed.
    case connectionFailed(peer: BDAddress, status: HCIStatus)
    /// No connection within the limit; the attempt was cancelled.
    case connectTimedOut(peer: BDAddress, limit: Duration)
    /// The connection is not (or no longer) open.
    case notConnected(handle: UInt16)
    /// The connection ended while the operation waited.
    case disconnected(handle: UInt16, reason: HCIStatus)
    /// Disconnection Complete did not come within the limit.
    case disconnectTimedOut(handle: UInt16, limit: Duration)
    /// The peer refused a credit-based channel, or it could not be requested (Vol 3, Part A §4.23).
    case channelRefused(spsm: L2CAPSPSM?, reason: String)
    /// A signaling request could not be sent (no identifier free, not allowed in this role).
    case signalingRefused(what: String, reason: String)
    /// The credit-based channel is closed.
    case channelClosed(cid: L2CAPChannelID)
    /// An SDU the channel cannot carry (longer than the peer's MTU, Vol 3, Part A §10.1).
    case sduRefused(cid: L2CAPChannelID, reason: String)
    /// An L2CAP PDU longer than its 16-bit length field can say (Vol 3, Part A §3.1).
    case oversizePDU(WireError)
    /// An operation waited too long for an answer from the peer.
    case peerTimedOut(what: String, limit: Duration)
    /// A notification or indication value longer than the connection carries: ATT_MTU - 3
    /// octets, at most 512 (Vol 3, Part F §3.4.7.1–2, §3.2.9). Refused, never cut.
    case valueTooLong(length: Int, maximum: Int)

    public var description: String {
        switch self {
        case let .command(error): "\(error)"
        case .notStarted: "the LE host has not been started"
        case let .advertisingDataTooLong(field, length, limit):
            "\(field) is \(length) bytes; legacy advertising allows at most \(limit)"
        case let .malformedAdvertisingData(error): "malformed advertising data: \(error)"
        case .connectionInProgress: "another connection attempt is in progress"
        case let .connectionFailed(peer, status): "connection to \(peer) failed: \(status)"
        case let .connectTimedOut(peer, limit): "no connection to \(peer) within \(limit); the attempt was cancelled"
        case let .notConnected(handle): "connection 0x\(hex(handle)) is not open"
        case let .disconnected(handle, reason): "connection 0x\(hex(handle)) ended: \(reason)"
        case let .disconnectTimedOut(handle, limit): "connection 0x\(hex(handle)) did not end within \(limit)"
        case let .channelRefused(spsm, reason): "channel\(spsm.map { " to SPSM \($0)" } ?? "") refused: \(reason)"
        case let .signalingRefused(what, reason): "\(what) not sent: \(reason)"
        case let .channelClosed(cid): "channel \(cid) is closed"
        case let .sduRefused(cid, reason): "SDU refused on channel \(cid): \(reason)"
        case let .oversizePDU(error): "L2CAP PDU too long: \(error)"
        case let .peerTimedOut(what, limit): "no \(what) from the peer within \(limit)"
        case let .valueTooLong(length, maximum):
            "a \(length)-byte notification or indication value is longer than ATT_MTU - 3 = \(maximum) bytes allow"
        }
    }
}
