import BlueproofWire

extension L2CAPSignaling {
    /// The device role on the connection; it decides who may ask for connection parameter
    /// updates (Core Vol 3, Part A §4.20).
    public enum Role: Hashable, Sendable {
        case central
        case peripheral
    }

    /// What a central does with a peer's Connection Parameter Update Request (§4.20).
    public enum ConnectionParameterUpdatePolicy: Hashable, Sendable {
        /// Accept every valid request: answer "accepted" and ask the host to run LE Connection
        /// Update, as BlueZ and Bumble do. Invalid requests are answered "rejected".
        case acceptValid
        /// Answer every request "rejected".
        case rejectAll
        /// Ask the host (``Action/connectionParameterUpdateRequested(identifier:request:)``);
        /// it answers with ``L2CAPSignaling/answerConnectionParameterUpdate(identifier:accepted:)``.
        /// Invalid requests are answered "rejected" without asking.
        case askHost
    }

    /// The parameters a registered server accepts channels with (§4.23).
    public struct ServerParameters: Hashable, Sendable {
        public var mtu: UInt16
        public var mps: UInt16
        public var initialCredits: UInt16

        public init(mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
            self.mtu = mtu
            self.mps = mps
            self.initialCredits = initialCredits
        }
    }

    /// Why an outbound channel did not open.
    public enum ChannelFailure: Hashable, Sendable, CustomStringConvertible {
        /// The peer answered with a refusal result (§4.23).
        case refused(L2CAPLECreditBasedConnectionResult)
        /// The peer answered with a Command Reject (§4.1).
        case rejected(L2CAPCommandReject)
        /// The host reported that no response came in time (RTX, §6.2.1).
        case timedOut
        /// The peer accepted with values LE does not allow (detail says which).
        case invalidResponse(String)
        /// The ACL link went away.
        case linkClosed

        public var description: String {
            switch self {
            case let .refused(result): "refused: \(result)"
            case let .rejected(reject): "rejected: \(reject.reason)"
            case .timedOut: "timed out"
            case let .invalidResponse(detail): "invalid response: \(detail)"
            case .linkClosed: "link closed"
            }
        }
    }

    /// Why a channel closed.
    public enum CloseReason: Hashable, Sendable, CustomStringConvertible {
        /// The local host called ``L2CAPSignaling/disconnect(_:)``.
        case localRequest
        /// The peer sent a Disconnection Request (§4.6).
        case remoteRequest
        /// The peer broke credit-based flow control; this side is disconnecting (§10.1).
        case violation(L2CAPCreditChannelViolation)
        /// The ACL link went away.
        case linkClosed

        public var description: String {
            switch self {
            case .localRequest: "closed locally"
            case .remoteRequest: "closed by the peer"
            case let .violation(violation): "peer violation: \(violation)"
            case .linkClosed: "link closed"
            }
        }
    }

    /// How a Connection Parameter Update Request this side sent ended.
    public enum ConnectionParameterUpdateOutcome: Hashable, Sendable {
        case answered(L2CAPConnectionParameterUpdateResult)
        case rejected(L2CAPCommandReject)
        case timedOut
    }

    /// A peer's signaling that breaks the protocol but needs no answer beyond what the actions
    /// already hold: log it and go on.
    public enum Violation: Hashable, Sendable, CustomStringConvertible {
        /// A C-frame that does not decode (Command Reject "not understood" is sent when the
        /// identifier could be read and the command is not a response).
        case malformedSignal(WireError)
        /// A response or Command Reject whose identifier matches no pending request, or whose
        /// kind does not match the request.
        case unexpectedResponse(L2CAPSignal)
        /// A Disconnection Request whose source CID does not match the channel; discarded (§4.6).
        case disconnectionSourceMismatch(L2CAPDisconnectionRequest)
        /// A Flow Control Credit Indication for no open channel.
        case creditsForUnknownChannel(L2CAPFlowControlCreditIndication)
        /// A K-frame on a dynamic CID with no channel; discarded.
        case frameOnUnknownChannel(L2CAPChannelID)
        /// A C-frame longer than the signaling MTU; rejected (§4.1).
        case signalingMTUExceeded(size: Int)

        public var description: String {
            switch self {
            case let .malformedSignal(error): "malformed signal: \(error)"
            case let .unexpectedResponse(signal): "unexpected response: \(signal)"
            case let .disconnectionSourceMismatch(request):
                "Disconnection Request for \(request.destinationCID) from unknown source \(request.sourceCID)"
            case let .creditsForUnknownChannel(indication): "credits for unknown channel \(indication.cid)"
            case let .frameOnUnknownChannel(cid): "K-frame on unknown channel \(cid)"
            case let .signalingMTUExceeded(size): "signaling packet of \(size) octets exceeds MTUsig"
            }
        }
    }

    /// What the host actor must do next, in order.
    public enum Action: Hashable, Sendable {
        /// Write this L2CAP PDU on the connection: C-frames on CID 0x0005, K-frames on a
        /// dynamic CID. The actor fragments it into ACL packets.
        case send(L2CAPBasicFrame)
        /// A credit-based channel is open, either way; `localCID` names it from now on.
        case channelOpened(spsm: L2CAPSPSM, local: L2CAPCreditChannel.Endpoint, remote: L2CAPCreditChannel.Endpoint)
        /// An outbound ``L2CAPSignaling/connect(spsm:mtu:mps:credits:)`` failed.
        case channelFailed(localCID: L2CAPChannelID, ChannelFailure)
        /// A channel is closed: no more data goes out or is delivered on it.
        case channelClosed(localCID: L2CAPChannelID, CloseReason)
        /// A whole SDU arrived on a channel.
        case sduReceived(localCID: L2CAPChannelID, [UInt8])
        /// Central: run HCI LE Connection Update with these parameters (§4.20; Vol 4,
        /// Part E §7.8.18). The response has already been queued before this action.
        case updateConnectionParameters(L2CAPConnectionParameterUpdateRequest)
        /// Central with ``ConnectionParameterUpdatePolicy/askHost``: decide, then call
        /// ``L2CAPSignaling/answerConnectionParameterUpdate(identifier:accepted:)``.
        case connectionParameterUpdateRequested(identifier: UInt8, request: L2CAPConnectionParameterUpdateRequest)
        /// Peripheral: the central answered (or not) this side's update request.
        case connectionParameterUpdateFinished(ConnectionParameterUpdateOutcome)
        /// The peer broke the protocol; log it.
        case peerViolation(Violation)
    }
}
