import BlueproofWire

/// Why a GATT procedure failed on the GATT level (errors of the ``ATTRequester`` itself pass
/// through unchanged).
public enum GATTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered with an Error Response (Vol 3, Part F §3.4.1.1).
    case att(ATTErrorCode, handle: UInt16)
    /// The server answered with a PDU the procedure does not expect.
    case unexpectedResponse(ATTPDU)
    /// The server's answer decoded but broke a procedure rule (a declaration that does not
    /// decode, handles that go backwards).
    case invalidResponse(String)
    /// What was looked for is not there (no such service, no configuration descriptor).
    case notFound(String)
    /// The characteristic's properties do not allow the operation.
    case notPermitted(String)
    /// A value longer than one PDU carries at this ATT_MTU (long writes are not implemented).
    case valueTooLong(length: Int, maximum: Int)
    /// An argument out of range (an MTU below 23).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case let .att(code, handle): "ATT error \(code) at handle 0x\(hex(handle))"
        case let .unexpectedResponse(pdu): "unexpected response \(pdu.opcode)"
        case let .invalidResponse(why): "invalid response: \(why)"
        case let .notFound(what): "not found: \(what)"
        case let .notPermitted(what): "not permitted: \(what)"
        case let .valueTooLong(length, maximum): "value of \(length) octets exceeds \(maximum)"
        case let .invalidArgument(why): "invalid argument: \(why)"
        }
    }
}
