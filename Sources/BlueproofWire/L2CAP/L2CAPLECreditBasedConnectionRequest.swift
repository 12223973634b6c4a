/// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (Core Vol 3, Part A §4.22): opens an LE
/// credit-based connection-oriented channel.
public struct L2CAPLECreditBasedConnectionRequest: L2CAPSignalBody {
    static let code = L2CAPSignalCode.leCreditBasedConnectionRequest

    public var spsm: L2CAPSPSM
    /// The requester's endpoint, in the LE dynamic range.
    public var sourceCID: L2CAPChannelID
    /// Largest SDU the requester can receive, 23 or more.
    public var mtu: UInt16
    /// Largest K-frame payload the requester can receive, 23...65533.
    public var mps: UInt16
    /// K-frames the responder may send at once.
    public var initialCredits: UInt16

    public init(spsm: L2CAPSPSM, sourceCID: L2CAPChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
        self.spsm = spsm
        self.sourceCID = sourceCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
    }

    init(data reader: inout ByteReader) throws(WireError) {
        spsm = L2CAPSPSM(try reader.u16("SPSM"))
        sourceCID = L2CAPChannelID(try reader.u16("source CID"))
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        initialCredits = try reader.u16("initial credits")
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(spsm.rawValue)
        writer.u16(sourceCID.rawValue)
        writer.u16(mtu)
        writer.u16(mps)
        writer.u16(initialCredits)
    }
}

extension L2CAPLECreditBasedConnectionRequest {
    /// Smallest MTU and MPS on an LE credit-based channel (§4.22, §4.23).
    public static let minimumMTU: UInt16 = 23
    public static let minimumMPS: UInt16 = 23
    /// Largest MPS (§4.22).
    public static let maximumMPS: UInt16 = 65533
}
