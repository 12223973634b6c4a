import BlueproofWire

extension ATTBearer {
    /// Identifies one request submitted with ``ATTBearer/request(_:now:)``.
    public struct RequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
        public let rawValue: UInt64
        public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }
        public var description: String { "#\(rawValue)" }
    }

    /// What the caller must do next.
    public enum Action: Hashable, Sendable {
        /// Write this PDU to the ATT channel now.
        case send(ATTPDU)
        /// The peer answered a request (with its response or an Error Response).
        case response(for: RequestID, ATTPDU)
        /// A request will never be answered.
        case failed(RequestID, Failure)
        /// A transaction timed out: the bearer is dead and sends nothing more
        /// (Vol 3, Part F §3.3.3); the caller should drop the link's ATT use.
        case timedOut
        /// The peer broke the protocol; log it and go on.
        case violation(Violation)
        /// A request or command from the peer's client, for the local server. Answer requests
        /// with ``ATTBearer/respond(_:)``.
        case deliverRequest(ATTPDU)
        /// A Handle Value Notification from the peer's server.
        case notification(handle: UInt16, value: [UInt8])
        /// A Handle Value Indication from the peer's server; confirm it with
        /// ``ATTBearer/confirm()``.
        case indication(handle: UInt16, value: [UInt8])
    }

    /// Why a request will never be answered.
    public enum Failure: Hashable, Sendable {
        /// No response came within ``ATTBearer/transactionTimeout``.
        case transactionTimeout
        /// The bearer is dead or closed: it was never sent, or its answer can no longer come.
        case bearerClosed
        /// The PDU submitted is not a request; it was not sent.
        case notARequest
    }

    /// The peer broke the protocol (Vol 3, Part F §3.3, §3.4.7).
    public enum Violation: Hashable, Sendable, CustomStringConvertible {
        /// A response with no request outstanding, or one that does not answer it.
        case unexpectedResponse(ATTPDU)
        /// A Handle Value Confirmation with no indication outstanding.
        case unexpectedConfirmation
        /// A new indication before the previous one was confirmed.
        case indicationBeforeConfirmation(ATTPDU)
        /// A new request before the previous one was answered.
        case requestBeforeResponse(ATTPDU)
        /// Bytes that do not decode as a PDU.
        case malformed(bytes: [UInt8], error: WireError)

        public var description: String {
            switch self {
            case let .unexpectedResponse(pdu): "unexpected response \(pdu.opcode)"
            case .unexpectedConfirmation: "Handle Value Confirmation with no indication outstanding"
            case let .indicationBeforeConfirmation(pdu): "indication before the last was confirmed: \(pdu.opcode)"
            case let .requestBeforeResponse(pdu): "request before the last was answered: \(pdu.opcode)"
            case let .malformed(bytes, error): "malformed PDU \(hex(bytes)): \(error)"
            }
        }
    }
}
