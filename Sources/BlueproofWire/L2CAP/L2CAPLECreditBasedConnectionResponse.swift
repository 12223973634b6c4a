/// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (Core Vol 3, Part A §4.23). On a refusal the
/// destination CID, MTU, MPS and initial credits are zero and carry no meaning.
public struct L2CAPLECreditBasedConnectionResponse: L2CAPSignalBody {
    static let code = L2CAPSignalCode.leCreditBasedConnectionResponse

    /// The responder's endpoint.
    public var destinationCID: L2CAPChannelID
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16
    public var result: L2CAPLECreditBasedConnectionResult

    public init(destinationCID: L2CAPChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16,
                result: L2CAPLECreditBasedConnectionResult) {
        self.destinationCID = destinationCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
    }

    /// A refusal: every other field zero.
    public static func refused(_ result: L2CAPLECreditBasedConnectionResult) -> Self {
        Self(destinationCID: .null, mtu: 0, mps: 0, initialCredits: 0, result: result)
    }

    init(data reader: inout ByteReader) throws(WireError) {
        destinationCID = L2CAPChannelID(try reader.u16("destination CID"))
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        initialCredits = try reader.u16("initial credits")
        result = L2CAPLECreditBasedConnectionResult(rawValue: try reader.u16("result"))
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(destinationCID.rawValue)
        writer.u16(mtu)
        writer.u16(mps)
        writer.u16(initialCredits)
        writer.u16(result.rawValue)
    }
}
