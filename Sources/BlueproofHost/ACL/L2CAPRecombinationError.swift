import BlueproofWire

/// Why ``L2CAPRecombiner`` refused or dropped data from a connection (Core Vol 4, Part E
/// §5.4.2; Vol 3, Part A §3). After any of these the recombiner is ready for the next start
/// fragment on every handle.
public indirect enum L2CAPRecombinationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What became of a start fragment that interrupted an incomplete PDU.
    public enum NewStart: Hashable, Sendable {
        /// It was kept; more fragments are needed to finish it.
        case incomplete
        /// It held a whole PDU by itself: here it is, header included.
        case complete([UInt8])
        /// It was refused as well, for this reason.
        case refused(L2CAPRecombinationError)
    }

    /// A continuing fragment (`length` octets) arrived with no PDU started on the handle; it was
    /// dropped.
    case continuationWithoutStart(handle: UInt16, length: Int)
    /// A start fragment arrived while a PDU was incomplete: the incomplete PDU (`receivedBytes`
    /// of `expectedBytes`, nil when its header had not yet told its length) was dropped, and the
    /// new start handled as `newStart` says.
    case startWhileIncomplete(handle: UInt16, receivedBytes: Int, expectedBytes: Int?, newStart: NewStart)
    /// The fragments held more octets than the basic header declares (4 + its length); the
    /// PDU and the fragment were dropped.
    case longerThanDeclared(handle: UInt16, declaredBytes: Int, receivedBytes: Int)
    /// The basic header declares a PDU of `declaredBytes` (header included), above the
    /// recombiner's maximum; it was dropped, and its continuing fragments are dropped quietly.
    case exceedsMaximum(handle: UInt16, declaredBytes: Int, maximumBytes: Int)
    /// A Packet_Boundary flag that does not belong on LE-U (0b11, complete automatically
    /// flushable, §5.4.2); the fragment was dropped and any PDU in progress kept.
    case unsupportedPacketBoundary(handle: UInt16, packetBoundary: HCIACLPacketBoundary)

    /// The connection handle the error is about.
    public var handle: UInt16 {
        switch self {
        case let .continuationWithoutStart(handle, _), let .startWhileIncomplete(handle, _, _, _),
             let .longerThanDeclared(handle, _, _), let .exceedsMaximum(handle, _, _),
             let .unsupportedPacketBoundary(handle, _):
            handle
        }
    }

    /// A whole PDU that arrived together with the error and must still be delivered: the
    /// start fragment that interrupted an incomplete PDU, when it was complete by itself.
    public var completedPDU: [UInt8]? {
        if case let .startWhileIncomplete(_, _, _, .complete(pdu)) = self { return pdu }
        return nil
    }

    public var description: String {
        let at = "handle 0x\(hex(handle))"
        switch self {
        case let .continuationWithoutStart(_, length):
            return "\(at): continuing fragment of \(length) octet(s) with no PDU started; dropped"
        case let .startWhileIncomplete(_, received, expected, newStart):
            let of = expected.map { " of \($0)" } ?? ""
            let then = switch newStart {
            case .incomplete: "the new PDU was kept"
            case let .complete(pdu): "the new PDU (\(pdu.count) octets) is complete"
            case let .refused(error): "the new PDU was refused too: \(error.reason)"
            }
            return "\(at): a new PDU started while one was incomplete (\(received)\(of) octets); the incomplete PDU was dropped, \(then)"
        case .longerThanDeclared, .exceedsMaximum, .unsupportedPacketBoundary:
            return "\(at): \(reason)"
        }
    }

    /// The description without the handle.
    private var reason: String {
        switch self {
        case let .longerThanDeclared(_, declared, received):
            "\(received) octets received where the basic header declares \(declared); PDU dropped"
        case let .exceedsMaximum(_, declared, maximum):
            "the basic header declares \(declared) octets, above the maximum of \(maximum); PDU dropped"
        case let .unsupportedPacketBoundary(_, flag):
            "packet boundary \(flag) is not used on LE-U; fragment dropped"
        case .continuationWithoutStart, .startWhileIncomplete:
            description
        }
    }
}
