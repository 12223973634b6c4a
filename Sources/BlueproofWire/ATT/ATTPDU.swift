/// An Attribute Protocol PDU (Core Vol 3, Part F §3.4), decoded by its opcode. Opcodes this
/// project does not decode (Read Multiple, Prepare/Execute Write, Signed Write Command, …)
/// stay as ``unknown(opcode:parameters:)`` and never fail to decode, so a server can still
/// answer an unknown request with Request Not Supported and ignore an unknown command.
///
/// Signed PDUs are not decoded: their opcode has bit 7 set, so they land in `unknown`.
public enum ATTPDU: Hashable, Sendable {
    /// Vol 3, Part F §3.4.1.1.
    case errorResponse(requestOpcodeInError: ATTOpcode, attributeHandleInError: UInt16, errorCode: ATTErrorCode)
    /// Vol 3, Part F §3.4.2.1.
    case exchangeMTURequest(clientRxMTU: UInt16)
    /// Vol 3, Part F §3.4.2.2.
    case exchangeMTUResponse(serverRxMTU: UInt16)
    /// Vol 3, Part F §3.4.3.1.
    case findInformationRequest(startingHandle: UInt16, endingHandle: UInt16)
    /// Vol 3, Part F §3.4.3.2.
    case findInformationResponse(ATTFindInformationResponse)
    /// Vol 3, Part F §3.4.3.3: the attribute type is always a 16-bit UUID.
    case findByTypeValueRequest(startingHandle: UInt16, endingHandle: UInt16, attributeType: UInt16, attributeValue: [UInt8])
    /// Vol 3, Part F §3.4.3.4: one or more handles information entries.
    case findByTypeValueResponse([ATTHandlesInformation])
    /// Vol 3, Part F §3.4.4.1: the type is a 16- or 128-bit UUID.
    case readByTypeRequest(startingHandle: UInt16, endingHandle: UInt16, attributeType: BluetoothUUID)
    /// Vol 3, Part F §3.4.4.2.
    case readByTypeResponse(ATTReadByTypeResponse)
    /// Vol 3, Part F §3.4.4.3.
    case readRequest(attributeHandle: UInt16)
    /// Vol 3, Part F §3.4.4.4.
    case readResponse(attributeValue: [UInt8])
    /// Vol 3, Part F §3.4.4.5.
    case readBlobRequest(attributeHandle: UInt16, valueOffset: UInt16)
    /// Vol 3, Part F §3.4.4.6.
    case readBlobResponse(partAttributeValue: [UInt8])
    /// Vol 3, Part F §3.4.4.9: the group type is a 16- or 128-bit UUID.
    case readByGroupTypeRequest(startingHandle: UInt16, endingHandle: UInt16, attributeGroupType: BluetoothUUID)
    /// Vol 3, Part F §3.4.4.10.
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    /// Vol 3, Part F §3.4.5.1.
    case writeRequest(attributeHandle: UInt16, attributeValue: [UInt8])
    /// Vol 3, Part F §3.4.5.2.
    case writeResponse
    /// Vol 3, Part F §3.4.5.3.
    case writeCommand(attributeHandle: UInt16, attributeValue: [UInt8])
    /// Vol 3, Part F §3.4.7.1.
    case handleValueNotification(attributeHandle: UInt16, attributeValue: [UInt8])
    /// Vol 3, Part F §3.4.7.2.
    case handleValueIndication(attributeHandle: UInt16, attributeValue: [UInt8])
    /// Vol 3, Part F §3.4.7.3.
    case handleValueConfirmation
    /// Any other opcode, with everything after it.
    case unknown(opcode: ATTOpcode, parameters: [UInt8])

    /// Decodes one PDU (an L2CAP ATT channel payload). Offsets in errors count from the
    /// opcode at 0. A known PDU that is short, or longer than its fixed layout, throws; an
    /// empty input throws.
    public init(bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes, context: "ATT PDU")
        let opcode = ATTOpcode(rawValue: try reader.u8("opcode"))
        reader.context = "ATT \(opcode.name ?? "PDU")"
        switch opcode {
        case .errorResponse:
            let request = ATTOpcode(rawValue: try reader.u8("request opcode in error"))
            let handle = try reader.u16("attribute handle in error")
            let code = ATTErrorCode(rawValue: try reader.u8("error code"))
            try reader.requireEnd()
            self = .errorResponse(requestOpcodeInError: request, attributeHandleInError: handle, errorCode: code)
        case .exchangeMTURequest:
            let mtu = try reader.u16("client rx MTU")
            try reader.requireEnd()
            self = .exchangeMTURequest(clientRxMTU: mtu)
        case .exchangeMTUResponse:
            let mtu = try reader.u16("server rx MTU")
            try reader.requireEnd()
            self = .exchangeMTUResponse(serverRxMTU: mtu)
        case .findInformationRequest:
            let (start, end) = try Self.range(&reader)
            try reader.requireEnd()
            self = .findInformationRequest(startingHandle: start, endingHandle: end)
        case .findInformationResponse:
            self = .findInformationResponse(try ATTFindInformationResponse(reading: &reader))
        case .findByTypeValueRequest:
            let (start, end) = try Self.range(&reader)
            let type = try reader.u16("attribute type")
            self = .findByTypeValueRequest(startingHandle: start, endingHandle: end, attributeType: type,
                                           attributeValue: reader.rest())
        case .findByTypeValueResponse:
            guard reader.remaining > 0, reader.remaining.isMultiple(of: 4) else {
                throw reader.error("handles information list", .invalidValue(
                    "\(reader.remaining) octet(s) is not a non-zero multiple of the 4-octet entry"))
            }
            var list: [ATTHandlesInformation] = []
            while !reader.isAtEnd {
                let found = try reader.u16("found attribute handle")
                let end = try reader.u16("group end handle")
                list.append(ATTHandlesInformation(foundAttributeHandle: found, groupEndHandle: end))
            }
            self = .findByTypeValueResponse(list)
        case .readByTypeRequest:
            let (start, end) = try Self.range(&reader)
            self = .readByTypeRequest(startingHandle: start, endingHandle: end,
                                      attributeType: try Self.uuid(&reader, "attribute type"))
        case .readByTypeResponse:
            self = .readByTypeResponse(try ATTReadByTypeResponse(reading: &reader))
        case .readRequest:
            let handle = try reader.u16("attribute handle")
            try reader.requireEnd()
            self = .readRequest(attributeHandle: handle)
        case .readResponse:
            self = .readResponse(attributeValue: reader.rest())
        case .readBlobRequest:
            let handle = try reader.u16("attribute handle")
            let offset = try reader.u16("value offset")
            try reader.requireEnd()
            self = .readBlobRequest(attributeHandle: handle, valueOffset: offset)
        case .readBlobResponse:
            self = .readBlobResponse(partAttributeValue: reader.rest())
        case .readByGroupTypeRequest:
            let (start, end) = try Self.range(&reader)
            self = .readByGroupTypeRequest(startingHandle: start, endingHandle: end,
                                           attributeGroupType: try Self.uuid(&reader, "attribute group type"))
        case .readByGroupTypeResponse:
            self = .readByGroupTypeResponse(try ATTReadByGroupTypeResponse(reading: &reader))
        case .writeRequest:
            let handle = try reader.u16("attribute handle")
            self = .writeRequest(attributeHandle: handle, attributeValue: reader.rest())
        case .writeResponse:
            try reader.requireEnd()
            self = .writeResponse
        case .writeCommand:
            let handle = try reader.u16("attribute handle")
            self = .writeCommand(attributeHandle: handle, attributeValue: reader.rest())
        case .handleValueNotification:
            let handle = try reader.u16("attribute handle")
            self = .handleValueNotification(attributeHandle: handle, attributeValue: reader.rest())
        case .handleValueIndication:
            let handle = try reader.u16("attribute handle")
            self = .handleValueIndication(attributeHandle: handle, attributeValue: reader.rest())
        case .handleValueConfirmation:
            try reader.requireEnd()
            self = .handleValueConfirmation
        default:
            self = .unknown(opcode: opcode, parameters: reader.rest())
        }
    }

    /// The PDU as it travels, opcode first.
    public var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.u8(opcode.rawValue)
        switch self {
        case let .errorResponse(request, handle, code):
            writer.u8(request.rawValue)
            writer.u16(handle)
            writer.u8(code.rawValue)
        case let .exchangeMTURequest(mtu), let .exchangeMTUResponse(mtu):
            writer.u16(mtu)
        case let .findInformationRequest(start, end):
            writer.u16(start)
            writer.u16(end)
        case let .findInformationResponse(response):
            response.encode(into: &writer)
        case let .findByTypeValueRequest(start, end, type, value):
            writer.u16(start)
            writer.u16(end)
            writer.u16(type)
            writer.append(value)
        case let .findByTypeValueResponse(list):
            for entry in list {
                writer.u16(entry.foundAttributeHandle)
                writer.u16(entry.groupEndHandle)
            }
        case let .readByTypeRequest(start, end, type), let .readByGroupTypeRequest(start, end, type):
            writer.u16(start)
            writer.u16(end)
            writer.append(type.littleEndianBytes)
        case let .readByTypeResponse(response):
            response.encode(into: &writer)
        case let .readRequest(handle):
            writer.u16(handle)
        case let .readResponse(value), let .readBlobResponse(value):
            writer.append(value)
        case let .readBlobRequest(handle, offset):
            writer.u16(handle)
            writer.u16(offset)
        case let .readByGroupTypeResponse(response):
            response.encode(into: &writer)
        case let .writeRequest(handle, value), let .writeCommand(handle, value),
             let .handleValueNotification(handle, value), let .handleValueIndication(handle, value):
            writer.u16(handle)
            writer.append(value)
        case .writeResponse, .handleValueConfirmation:
            break
        case let .unknown(_, parameters):
            writer.append(parameters)
        }
        return writer.bytes
    }

    /// The opcode this PDU travels with.
    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        case let .unknown(opcode, _): opcode
        }
    }

    /// The PDU's role in the protocol, from its opcode.
    public var kind: ATTOpcode.Kind { opcode.kind }

    private static func range(_ reader: inout ByteReader) throws(WireError) -> (UInt16, UInt16) {
        (try reader.u16("starting handle"), try reader.u16("ending handle"))
    }

    /// The rest of the PDU as a 16- or 128-bit UUID; ATT has no 32-bit form (§3.2.1).
    private static func uuid(_ reader: inout ByteReader, _ field: String) throws(WireError) -> BluetoothUUID {
        let count = reader.remaining
        guard count == 2 || count == 16 else {
            throw reader.error(field, .invalidValue("a UUID here has 2 or 16 octets, not \(count)"))
        }
        return try BluetoothUUID(littleEndian: reader.rest())
    }
}
