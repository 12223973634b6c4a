/// L2CAP_FLOW_CONTROL_CREDIT_IND (Core Vol 3, Part A §4.24): the sender may receive `credits`
/// more K-frames on its channel endpoint `cid`. Credits are 1...65535.
public struct L2CAPFlowControlCreditIndication: L2CAPSignalBody {
    static let code = L2CAPSignalCode.flowControlCreditIndication

    /// The sender's endpoint (the receiver's remote CID).
    public var cid: L2CAPChannelID
    public var credits: UInt16

    public init(cid: L2CAPChannelID, credits: UInt16) {
        self.cid = cid
        self.credits = credits
    }

    init(data reader: inout ByteReader) throws(WireError) {
        cid = L2CAPChannelID(try reader.u16("CID"))
        credits = try reader.u16("credits")
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(cid.rawValue)
        writer.u16(credits)
    }
}
