/// L2CAP_DISCONNECTION_REQ (Core Vol 3, Part A §4.6). CIDs are named from the sender's
/// side: `destinationCID` is the receiver's endpoint, `sourceCID` the sender's.
public struct L2CAPDisconnectionRequest: L2CAPSignalBody {
    static let code = L2CAPSignalCode.disconnectionRequest

    public var destinationCID: L2CAPChannelID
    public var sourceCID: L2CAPChannelID

    public init(destinationCID: L2CAPChannelID, sourceCID: L2CAPChannelID) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
    }

    init(data reader: inout ByteReader) throws(WireError) {
        destinationCID = L2CAPChannelID(try reader.u16("destination CID"))
        sourceCID = L2CAPChannelID(try reader.u16("source CID"))
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(destinationCID.rawValue)
        writer.u16(sourceCID.rawValue)
    }
}
