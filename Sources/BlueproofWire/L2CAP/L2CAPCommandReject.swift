/// L2CAP_COMMAND_REJECT_RSP (Core Vol 3, Part A §4.1): a reason and reason-specific data.
public struct L2CAPCommandReject: L2CAPSignalBody {
    static let code = L2CAPSignalCode.commandReject

    public var reason: L2CAPCommandRejectReason
    /// The reason's data; its length must match the reason when the reason is known.
    public var data: [UInt8]

    public init(reason: L2CAPCommandRejectReason, data: [UInt8] = []) {
        self.reason = reason
        self.data = data
    }

    /// Command not understood.
    public static let notUnderstood = L2CAPCommandReject(reason: .commandNotUnderstood)

    /// Signaling MTU exceeded, naming the rejecting side's MTUsig.
    public static func signalingMTUExceeded(actualMTU: UInt16) -> L2CAPCommandReject {
        L2CAPCommandReject(reason: .signalingMTUExceeded, data: [UInt8(truncatingIfNeeded: actualMTU), UInt8(actualMTU >> 8)])
    }

    /// Invalid CID in request: `local` and `remote` as seen by the device sending the reject.
    public static func invalidCID(local: L2CAPChannelID, remote: L2CAPChannelID) -> L2CAPCommandReject {
        var writer = ByteWriter(capacity: 4)
        writer.u16(local.rawValue)
        writer.u16(remote.rawValue)
        return L2CAPCommandReject(reason: .invalidCIDInRequest, data: writer.bytes)
    }

    /// The MTUsig of a Signaling MTU exceeded reject.
    public var actualMTU: UInt16? {
        guard reason == .signalingMTUExceeded, data.count == 2 else { return nil }
        return UInt16(data[0]) | UInt16(data[1]) << 8
    }

    /// The CIDs of an Invalid CID in request reject, as seen by its sender.
    public var invalidCIDs: (local: L2CAPChannelID, remote: L2CAPChannelID)? {
        guard reason == .invalidCIDInRequest, data.count == 4 else { return nil }
        return (L2CAPChannelID(UInt16(data[0]) | UInt16(data[1]) << 8),
                L2CAPChannelID(UInt16(data[2]) | UInt16(data[3]) << 8))
    }

    init(data reader: inout ByteReader) throws(WireError) {
        reason = L2CAPCommandRejectReason(rawValue: try reader.u16("reason"))
        let dataOffset = reader.offset
        data = reader.rest()
        if let expected = reason.dataLength, expected != data.count {
            throw WireError(offset: dataOffset, context: "\(reader.context): data",
                            reason: .lengthMismatch(declared: expected, actual: data.count))
        }
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(reason.rawValue)
        writer.append(data)
    }
}
