/// The command an LE signaling packet carries (Core Vol 3, Part A §4), decoded by code.
/// Codes LE does not use here (BR/EDR commands, enhanced credit-based commands, unassigned
/// codes) are kept with their data as ``unknown(code:data:)``.
public enum L2CAPSignalCommand: Hashable, Sendable {
    case commandReject(L2CAPCommandReject)
    case disconnectionRequest(L2CAPDisconnectionRequest)
    case disconnectionResponse(L2CAPDisconnectionResponse)
    case connectionParameterUpdateRequest(L2CAPConnectionParameterUpdateRequest)
    case connectionParameterUpdateResponse(L2CAPConnectionParameterUpdateResponse)
    case leCreditBasedConnectionRequest(L2CAPLECreditBasedConnectionRequest)
    case leCreditBasedConnectionResponse(L2CAPLECreditBasedConnectionResponse)
    case flowControlCreditIndication(L2CAPFlowControlCreditIndication)
    case unknown(code: L2CAPSignalCode, data: [UInt8])

    public var code: L2CAPSignalCode {
        switch self {
        case .commandReject: L2CAPCommandReject.code
        case .disconnectionRequest: L2CAPDisconnectionRequest.code
        case .disconnectionResponse: L2CAPDisconnectionResponse.code
        case .connectionParameterUpdateRequest: L2CAPConnectionParameterUpdateRequest.code
        case .connectionParameterUpdateResponse: L2CAPConnectionParameterUpdateResponse.code
        case .leCreditBasedConnectionRequest: L2CAPLECreditBasedConnectionRequest.code
        case .leCreditBasedConnectionResponse: L2CAPLECreditBasedConnectionResponse.code
        case .flowControlCreditIndication: L2CAPFlowControlCreditIndication.code
        case let .unknown(code, _): code
        }
    }

    /// True for the commands that answer a request: they are matched to a pending request by
    /// identifier and are never answered themselves.
    public var isResponse: Bool {
        switch self {
        case .commandReject, .disconnectionResponse, .connectionParameterUpdateResponse,
             .leCreditBasedConnectionResponse:
            true
        default:
            false
        }
    }

    /// Decodes the data field of a command with `code`; a data field that does not fit the
    /// command's layout throws.
    init(code: L2CAPSignalCode, data reader: inout ByteReader) throws(WireError) {
        switch code {
        case L2CAPCommandReject.code: self = .commandReject(try .decode(&reader))
        case L2CAPDisconnectionRequest.code: self = .disconnectionRequest(try .decode(&reader))
        case L2CAPDisconnectionResponse.code: self = .disconnectionResponse(try .decode(&reader))
        case L2CAPConnectionParameterUpdateRequest.code: self = .connectionParameterUpdateRequest(try .decode(&reader))
        case L2CAPConnectionParameterUpdateResponse.code: self = .connectionParameterUpdateResponse(try .decode(&reader))
        case L2CAPLECreditBasedConnectionRequest.code: self = .leCreditBasedConnectionRequest(try .decode(&reader))
        case L2CAPLECreditBasedConnectionResponse.code: self = .leCreditBasedConnectionResponse(try .decode(&reader))
        case L2CAPFlowControlCreditIndication.code: self = .flowControlCreditIndication(try .decode(&reader))
        default: self = .unknown(code: code, data: reader.rest())
        }
    }

    func encode(into writer: inout ByteWriter) {
        switch self {
        case let .commandReject(body): body.encode(into: &writer)
        case let .disconnectionRequest(body): body.encode(into: &writer)
        case let .disconnectionResponse(body): body.encode(into: &writer)
        case let .connectionParameterUpdateRequest(body): body.encode(into: &writer)
        case let .connectionParameterUpdateResponse(body): body.encode(into: &writer)
        case let .leCreditBasedConnectionRequest(body): body.encode(into: &writer)
        case let .leCreditBasedConnectionResponse(body): body.encode(into: &writer)
        case let .flowControlCreditIndication(body): body.encode(into: &writer)
        case let .unknown(_, data): writer.append(data)
        }
    }
}
