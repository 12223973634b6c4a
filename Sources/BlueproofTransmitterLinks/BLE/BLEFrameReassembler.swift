/// Puts one peer's chunks back into frames (one reassembler per direction of a connection).
/// Chunks must come in order, as ATT delivers them on one bearer; anything else is a typed
/// ``BLEChunkError`` and the partial frame is dropped (see each case).
public struct BLEFrameReassembler: Sendable {
    public let frameLimit: Int
    private var open: (sequence: UInt16, next: UInt16, expected: Int, buffer: [UInt8])?

    public init(frameLimit: Int = BLEFrameChunk.defaultFrameLimit) { self.frameLimit = frameLimit }

    /// Whether a frame is partly received.
    public var isReassembling: Bool { open != nil }

    /// Takes one chunk's wire bytes; returns the frame when this chunk completed it.
    public mutating func receive(_ bytes: [UInt8]) throws(BLEChunkError) -> [UInt8]? {
        let chunk = try BLEFrameChunk(bytes: bytes)
        if chunk.flags.contains(.first) { return try begin(chunk) }
        guard var frame = open else { throw .noFrameOpen(sequence: chunk.sequence, index: chunk.index) }
        guard chunk.sequence == frame.sequence else {
            open = nil
            throw .wrongSequence(expected: frame.sequence, got: chunk.sequence)
        }
        if chunk.index == frame.next &- 1 { throw .duplicate(sequence: chunk.sequence, index: chunk.index) }
        guard chunk.index == frame.next else {
            open = nil
            throw .outOfOrder(sequence: chunk.sequence, expected: frame.next, got: chunk.index)
        }
        frame.buffer += chunk.body
        frame.next &+= 1
        return try settle(frame, last: chunk.flags.contains(.last))
    }

    /// Drops a partial frame (the connection ended).
    public mutating func reset() { open = nil }

    private mutating func begin(_ chunk: BLEFrameChunk) throws(BLEChunkError) -> [UInt8]? {
        let length = Int(chunk.totalLength ?? 0)
        if let interrupted = open {
            open = nil
            throw .interrupted(sequence: interrupted.sequence, received: interrupted.buffer.count, expected: interrupted.expected)
        }
        guard length <= frameLimit else { throw .tooLarge(length: length, limit: frameLimit) }
        guard chunk.index == 0 else { throw .outOfOrder(sequence: chunk.sequence, expected: 0, got: chunk.index) }
        var buffer = chunk.body
        buffer.reserveCapacity(length)
        return try settle((chunk.sequence, 1, length, buffer), last: chunk.flags.contains(.last))
    }

    private mutating func settle(_ frame: (sequence: UInt16, next: UInt16, expected: Int, buffer: [UInt8]),
                                 last: Bool) throws(BLEChunkError) -> [UInt8]? {
        let overrun = frame.buffer.count > frame.expected
        guard last || overrun else {
            open = frame
            return nil
        }
        open = nil
        guard frame.buffer.count == frame.expected else {
            throw .lengthMismatch(sequence: frame.sequence, announced: frame.expected, received: frame.buffer.count)
        }
        return frame.buffer
    }
}
