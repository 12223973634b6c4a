import BlueproofWire

/// The Security Manager of a host that does not pair (Core Vol 3, Part H §3.5.5, §2.3.5.1):
/// a Pairing Request or a Security Request is answered with Pairing Failed, reason
/// "Pairing Not Supported". Everything else on the SMP channel gets no answer.
public enum SMPPairingRefusal {
    /// The answer to one PDU received on CID 0x0006, or nil when none is due. A PDU that does
    /// not decode gets none either.
    public static func answer(toPayload payload: [UInt8]) -> L2CAPBasicFrame? {
        guard let command = try? SMPCommand(payload: payload) else { return nil }
        return answer(to: command)
    }

    /// The answer to one decoded SMP command, or nil when none is due.
    public static func answer(to command: SMPCommand) -> L2CAPBasicFrame? {
        switch command {
        case .pairingRequest, .securityRequest:
            SMPCommand.pairingFailed(.pairingNotSupported).frame
        default:
            nil
        }
    }
}
