/// An ATT PDU opcode (Core Vol 3, Part F §3.3.1): bits 0–5 the method, bit 6 the command
/// flag, bit 7 the authentication signature flag. An open set: every octet is an opcode.
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// What role a PDU plays in the protocol (Core Vol 3, Part F §3.3).
    public enum Kind: Hashable, Sendable {
        /// Client to server; the server answers with a response (§3.3 "request").
        case request
        /// Server to client, answering a request.
        case response
        /// Client to server; no answer (§3.3 "command").
        case command
        /// Server to client; no answer.
        case notification
        /// Server to client; the client answers with a confirmation.
        case indication
        /// Client to server, answering an indication.
        case confirmation
    }

    /// The method: the opcode's low six bits (Vol 3, Part F §3.3.1).
    public var method: UInt8 { rawValue & 0x3F }
    /// The command flag, bit 6: set for PDUs that are never answered (Vol 3, Part F §3.3.1).
    public var isCommand: Bool { rawValue & 0x40 != 0 }
    /// The authentication signature flag, bit 7: the PDU ends in a 12-octet signature
    /// (Vol 3, Part F §3.3.1, §3.3.2).
    public var hasSignature: Bool { rawValue & 0x80 != 0 }

    public static func < (lhs: ATTOpcode, rhs: ATTOpcode) -> Bool { lhs.rawValue < rhs.rawValue }

    // Vol 3, Part F §3.4.8, Table 3.37 (Attribute protocol summary).
    public static let errorResponse = ATTOpcode(rawValue: 0x01)
    public static let exchangeMTURequest = ATTOpcode(rawValue: 0x02)
    public static let exchangeMTUResponse = ATTOpcode(rawValue: 0x03)
    public static let findInformationRequest = ATTOpcode(rawValue: 0x04)
    public static let findInformationResponse = ATTOpcode(rawValue: 0x05)
    public static let findByTypeValueRequest = ATTOpcode(rawValue: 0x06)
    public static let findByTypeValueResponse = ATTOpcode(rawValue: 0x07)
    public static let readByTypeRequest = ATTOpcode(rawValue: 0x08)
    public static let readByTypeResponse = ATTOpcode(rawValue: 0x09)
    public static let readRequest = ATTOpcode(rawValue: 0x0A)
    public static let readResponse = ATTOpcode(rawValue: 0x0B)
    public static let readBlobRequest = ATTOpcode(rawValue: 0x0C)
    public static let readBlobResponse = ATTOpcode(rawValue: 0x0D)
    public static let readMultipleRequest = ATTOpcode(rawValue: 0x0E)
    public static let readMultipleResponse = ATTOpcode(rawValue: 0x0F)
    public static let readByGroupTypeRequest = ATTOpcode(rawValue: 0x10)
    public static let readByGroupTypeResponse = ATTOpcode(rawValue: 0x11)
    public static let writeRequest = ATTOpcode(rawValue: 0x12)
    public static let writeResponse = ATTOpcode(rawValue: 0x13)
    public static let prepareWriteRequest = ATTOpcode(rawValue: 0x16)
    public static let prepareWriteResponse = ATTOpcode(rawValue: 0x17)
    public static let executeWriteRequest = ATTOpcode(rawValue: 0x18)
    public static let executeWriteResponse = ATTOpcode(rawValue: 0x19)
    public static let handleValueNotification = ATTOpcode(rawValue: 0x1B)
    public static let handleValueIndication = ATTOpcode(rawValue: 0x1D)
    public static let handleValueConfirmation = ATTOpcode(rawValue: 0x1E)
    public static let readMultipleVariableRequest = ATTOpcode(rawValue: 0x20)
    public static let readMultipleVariableResponse = ATTOpcode(rawValue: 0x21)
    public static let multipleHandleValueNotification = ATTOpcode(rawValue: 0x23)
    public static let writeCommand = ATTOpcode(rawValue: 0x52)
    public static let signedWriteCommand = ATTOpcode(rawValue: 0xD2)

    private static let table: [UInt8: (String, Kind)] = [
        0x01: ("Error Response", .response),
        0x02: ("Exchange MTU Request", .request),
        0x03: ("Exchange MTU Response", .response),
        0x04: ("Find Information Request", .request),
        0x05: ("Find Information Response", .response),
        0x06: ("Find By Type Value Request", .request),
        0x07: ("Find By Type Value Response", .response),
        0x08: ("Read By Type Request", .request),
        0x09: ("Read By Type Response", .response),
        0x0A: ("Read Request", .request),
        0x0B: ("Read Response", .response),
        0x0C: ("Read Blob Request", .request),
        0x0D: ("Read Blob Response", .response),
        0x0E: ("Read Multiple Request", .request),
        0x0F: ("Read Multiple Response", .response),
        0x10: ("Read By Group Type Request", .request),
        0x11: ("Read By Group Type Response", .response),
        0x12: ("Write Request", .request),
        0x13: ("Write Response", .response),
        0x16: ("Prepare Write Request", .request),
        0x17: ("Prepare Write Response", .response),
        0x18: ("Execute Write Request", .request),
        0x19: ("Execute Write Response", .response),
        0x1B: ("Handle Value Notification", .notification),
        0x1D: ("Handle Value Indication", .indication),
        0x1E: ("Handle Value Confirmation", .confirmation),
        0x20: ("Read Multiple Variable Request", .request),
        0x21: ("Read Multiple Variable Response", .response),
        0x23: ("Multiple Handle Value Notification", .notification),
        0x52: ("Write Command", .command),
        0xD2: ("Signed Write Command", .command),
    ]

    /// The spec's name for a known opcode; nil for others.
    public var name: String? { Self.table[rawValue]?.0 }

    /// The PDU's role. Opcodes the spec does not define count as commands when their command
    /// flag is set and as requests otherwise, so a server answers an unknown request with
    /// Request Not Supported and ignores an unknown command (Vol 3, Part F §3.4.1.1, §3.3.1).
    public var kind: Kind {
        if let known = Self.table[rawValue] { return known.1 }
        return isCommand ? .command : .request
    }

    /// For a request, the opcode of the response that answers it (the next method up,
    /// Vol 3, Part F §3.4.8); nil for other kinds.
    public var responseOpcode: ATTOpcode? {
        guard kind == .request, Self.table[rawValue] != nil else { return nil }
        return ATTOpcode(rawValue: rawValue + 1)
    }

    /// `Read Request (0x0a)`, or `0xNN` for an unknown opcode.
    public var description: String {
        if let name { return "\(name) (0x\(hex(rawValue)))" }
        return "0x\(hex(rawValue))"
    }
}
