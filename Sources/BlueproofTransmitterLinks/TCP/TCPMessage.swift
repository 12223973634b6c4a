import BlueproofTransmitter

/// What TCP link nodes say to each other (docs/transmitter-links.md, "TCP"). On the stream each
/// message is a u32 big-endian length, then that many bytes: one kind octet and its body.
enum TCPMessage: Hashable, Sendable {
    /// First message each way: the sender's user id (16 bytes).
    case hello(UserID)
    /// The sender's transmitter opened the connection (`connect`).
    case open
    /// The sender's transmitter closed it (`disconnect`).
    case close
    /// One whole transmitter frame.
    case frame([UInt8])

    private enum Kind: UInt8 {
        case hello = 0, open = 1, close = 2, frame = 3
    }

    /// The bytes on the stream, length prefix included.
    var encoded: [UInt8] {
        let body: [UInt8] = switch self {
        case let .hello(user): [Kind.hello.rawValue] + user.bytes
        case .open: [Kind.open.rawValue]
        case .close: [Kind.close.rawValue]
        case let .frame(bytes): [Kind.frame.rawValue] + bytes
        }
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// Reads one message body (after its length prefix); nil when it is not one.
    init?(body: [UInt8]) {
        guard let first = body.first, let kind = Kind(rawValue: first) else { return nil }
        switch kind {
        case .hello:
            guard let user = UserID(bytes: body.dropFirst()) else { return nil }
            self = .hello(user)
        case .open: self = .open
        case .close: self = .close
        case .frame: self = .frame(Array(body.dropFirst()))
        }
    }
}
