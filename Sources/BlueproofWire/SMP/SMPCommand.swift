/// One SMP command on CID 0x0006 (Core Vol 3, Part H §3.3): a code octet then data of the
/// command's fixed layout. The commands blueproof acts on are decoded; the others are kept
/// with their data as ``unknown(code:data:)``.
public enum SMPCommand: Hashable, Sendable, CustomStringConvertible {
    /// Pairing Request (§3.5.1).
    case pairingRequest(SMPPairingFeatures)
    /// Pairing Response (§3.5.2).
    case pairingResponse(SMPPairingFeatures)
    /// Pairing Failed (§3.5.5).
    case pairingFailed(SMPPairingFailedReason)
    /// Security Request (§3.6.7): a peripheral asks the central to start pairing or encryption.
    case securityRequest(SMPAuthenticationRequirements)
    case unknown(code: SMPCode, data: [UInt8])

    public var code: SMPCode {
        switch self {
        case .pairingRequest: .pairingRequest
        case .pairingResponse: .pairingResponse
        case .pairingFailed: .pairingFailed
        case .securityRequest: .securityRequest
        case let .unknown(code, _): code
        }
    }

    /// Decodes the information payload of an SMP B-frame. Throws when it is empty or a known
    /// command's data is shorter or longer than its layout.
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "SMP")
        let code = SMPCode(rawValue: try reader.u8("code"))
        reader.context = "SMP \(code)"
        switch code {
        case .pairingRequest: self = .pairingRequest(try SMPPairingFeatures(reading: &reader))
        case .pairingResponse: self = .pairingResponse(try SMPPairingFeatures(reading: &reader))
        case .pairingFailed: self = .pairingFailed(SMPPairingFailedReason(rawValue: try reader.u8("reason")))
        case .securityRequest: self = .securityRequest(SMPAuthenticationRequirements(rawValue: try reader.u8("AuthReq")))
        default: self = .unknown(code: code, data: reader.rest())
        }
        try reader.requireEnd()
    }

    /// The information payload.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 7)
        writer.u8(code.rawValue)
        switch self {
        case let .pairingRequest(features), let .pairingResponse(features): features.write(&writer)
        case let .pairingFailed(reason): writer.u8(reason.rawValue)
        case let .securityRequest(authReq): writer.u8(authReq.rawValue)
        case let .unknown(_, data): writer.append(data)
        }
        return writer.bytes
    }

    /// The B-frame on the SMP channel.
    public var frame: L2CAPBasicFrame { L2CAPBasicFrame(channelID: .smp, payload: encoded) }

    public var description: String {
        switch self {
        case let .pairingRequest(features): "\(code) \(features)"
        case let .pairingResponse(features): "\(code) \(features)"
        case let .pairingFailed(reason): "\(code) \(reason)"
        case let .securityRequest(authReq): "\(code) AuthReq \(authReq)"
        case let .unknown(_, data): "\(code) \(hex(data))"
        }
    }
}
