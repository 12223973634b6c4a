/// Why the reassembler refused a chunk. After any of these the frame being reassembled is
/// dropped; a ``duplicate(sequence:index:)`` is ignored and the open frame goes on.
public enum BLEChunkError: Error, Hashable, Sendable {
    /// Shorter than its header.
    case malformed(length: Int)
    /// A chunk that is not a frame's first arrived while no frame was open.
    case noFrameOpen(sequence: UInt16, index: UInt16)
    /// A chunk of another frame than the one open.
    case wrongSequence(expected: UInt16, got: UInt16)
    /// The chunk already received again.
    case duplicate(sequence: UInt16, index: UInt16)
    /// A chunk skipped ahead (or came back from before the last one).
    case outOfOrder(sequence: UInt16, expected: UInt16, got: UInt16)
    /// A new first chunk arrived before the open frame's last: the open frame is dropped and
    /// nothing is open; give the same chunk again to begin the new frame.
    case interrupted(sequence: UInt16, received: Int, expected: Int)
    /// The bytes received do not add up to the length the first chunk announced.
    case lengthMismatch(sequence: UInt16, announced: Int, received: Int)
    /// The first chunk announced more than the receiver accepts.
    case tooLarge(length: Int, limit: Int)
}

/// Why a frame cannot be cut into chunks.
public enum BLEChunkerError: Error, Hashable, Sendable {
    /// The ATT_MTU leaves no room for a first chunk's header and one byte.
    case mtuTooSmall(Int)
    /// More bytes than the chunk index or the limit allows.
    case frameTooLarge(length: Int, limit: Int)
}
