import BlueproofWire

/// A misuse of ``ACLFlow`` by its caller, or a controller that broke host-to-controller data
/// flow control (Core Vol 4, Part E §4.1.1).
///
/// Thrown by ``ACLFlow/send(_:on:)``; returned, never thrown, by ``ACLFlow/completed(_:on:)``,
/// where the flow goes on after reporting it.
public enum ACLFlowViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// Data was offered for a connection handle that is not open.
    case unknownHandle(UInt16)
    /// An empty PDU was offered: it is not an L2CAP PDU (the basic header alone is 4 bytes,
    /// Vol 3, Part A §3.1) and would spend a controller buffer on nothing.
    case emptyPDU(handle: UInt16)
    /// Number Of Completed Packets (§7.7.19) reported more packets for `handle` than the host
    /// had in flight on it; the excess was ignored.
    case tooManyCompleted(handle: UInt16, reported: Int, inFlight: Int)
    /// Number Of Completed Packets named a handle that is not open (never was, or was closed:
    /// after Disconnection Complete the buffers are already counted free, §4.3); ignored.
    case completedForUnknownHandle(UInt16)
    /// A negative completed count, which no event can carry; ignored.
    case negativeCompleted(handle: UInt16, reported: Int)

    /// The connection handle the violation is about.
    public var handle: UInt16 {
        switch self {
        case let .unknownHandle(handle), let .emptyPDU(handle), let .completedForUnknownHandle(handle):
            handle
        case let .tooManyCompleted(handle, _, _), let .negativeCompleted(handle, _):
            handle
        }
    }

    public var description: String {
        let at = "handle 0x\(hex(handle))"
        return switch self {
        case .unknownHandle:
            "\(at): data offered for a connection that is not open"
        case .emptyPDU:
            "\(at): an empty PDU was offered; an L2CAP PDU has at least its 4-byte basic header"
        case let .tooManyCompleted(_, reported, inFlight):
            "\(at): Number Of Completed Packets reported \(reported) packet(s) with only \(inFlight) in flight; the excess was ignored"
        case .completedForUnknownHandle:
            "\(at): Number Of Completed Packets for a connection that is not open; ignored"
        case let .negativeCompleted(_, reported):
            "\(at): a completed count of \(reported) is not possible; ignored"
        }
    }
}
