/// The kind byte of a transmitter frame (docs/transmitter-wire.md, "Kinds").
public enum FrameKind: UInt8, Hashable, Sendable, CaseIterable {
    /// Who the sender is, with an optional display name and device type.
    case hello = 1
    /// Asks the peer for a secure connection, carrying the requester's public keys.
    case keyRequest = 2
    /// Answers a key request with the responder's public keys.
    case keyResponse = 3
    /// A packet: direct, mesh or broadcast, plain or encrypted.
    case data = 4
}
