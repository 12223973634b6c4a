/// The six fields of Pairing Request and Pairing Response (Core Vol 3, Part H §3.5.1,
/// §3.5.2). Values are kept as received; judging them is the responder's job.
public struct SMPPairingFeatures: Hashable, Sendable {
    public var ioCapability: SMPIOCapability
    /// OOB data flag: 0x00 not present, 0x01 present; others reserved.
    public var oobDataFlag: UInt8
    public var authReq: SMPAuthenticationRequirements
    /// Maximum Encryption Key Size, 7...16 octets.
    public var maximumEncryptionKeySize: UInt8
    public var initiatorKeyDistribution: SMPKeyDistribution
    public var responderKeyDistribution: SMPKeyDistribution

    public static let encodedLength = 6

    public init(ioCapability: SMPIOCapability, oobDataFlag: UInt8 = 0, authReq: SMPAuthenticationRequirements,
                maximumEncryptionKeySize: UInt8 = 16, initiatorKeyDistribution: SMPKeyDistribution = [],
                responderKeyDistribution: SMPKeyDistribution = []) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataFlag
        self.authReq = authReq
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    init(reading reader: inout ByteReader) throws(WireError) {
        ioCapability = SMPIOCapability(rawValue: try reader.u8("IO capability"))
        oobDataFlag = try reader.u8("OOB data flag")
        authReq = SMPAuthenticationRequirements(rawValue: try reader.u8("AuthReq"))
        maximumEncryptionKeySize = try reader.u8("maximum encryption key size")
        initiatorKeyDistribution = SMPKeyDistribution(rawValue: try reader.u8("initiator key distribution"))
        responderKeyDistribution = SMPKeyDistribution(rawValue: try reader.u8("responder key distribution"))
    }

    func write(_ writer: inout ByteWriter) {
        writer.u8(ioCapability.rawValue)
        writer.u8(oobDataFlag)
        writer.u8(authReq.rawValue)
        writer.u8(maximumEncryptionKeySize)
        writer.u8(initiatorKeyDistribution.rawValue)
        writer.u8(responderKeyDistribution.rawValue)
    }
}
