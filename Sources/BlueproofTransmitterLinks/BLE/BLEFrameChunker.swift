/// Cuts frames into ``BLEFrameChunk``s of at most one chunk size each, numbering frames in
/// sequence (one chunker per direction of a connection).
public struct BLEFrameChunker: Sendable {
    public let chunkSize: Int
    public let frameLimit: Int
    public private(set) var nextSequence: UInt16 = 0

    /// `chunkSize` is the whole chunk, header included (``BLEFrameChunk/chunkSize(forATTMTU:)``).
    public init(chunkSize: Int, frameLimit: Int = BLEFrameChunk.defaultFrameLimit) throws(BLEChunkerError) {
        guard chunkSize > BLEFrameChunk.headerLength + BLEFrameChunk.totalLengthField else {
            throw .mtuTooSmall(chunkSize + 3)
        }
        self.chunkSize = chunkSize
        self.frameLimit = frameLimit
    }

    /// The chunks of `frame`, in order, as wire bytes.
    public mutating func chunks(of frame: [UInt8]) throws(BLEChunkerError) -> [[UInt8]] {
        let firstRoom = chunkSize - BLEFrameChunk.headerLength - BLEFrameChunk.totalLengthField
        let room = chunkSize - BLEFrameChunk.headerLength
        let count = frame.count <= firstRoom ? 1 : 1 + (frame.count - firstRoom + room - 1) / room
        guard frame.count <= frameLimit, count <= Int(UInt16.max) + 1 else {
            throw .frameTooLarge(length: frame.count, limit: frameLimit)
        }
        let sequence = nextSequence
        nextSequence &+= 1
        var out: [[UInt8]] = []
        out.reserveCapacity(count)
        var offset = 0
        for index in 0..<count {
            let take = min(index == 0 ? firstRoom : room, frame.count - offset)
            var flags: BLEFrameChunk.Flags = []
            if index == 0 { flags.insert(.first) }
            if index == count - 1 { flags.insert(.last) }
            let chunk = BLEFrameChunk(flags: flags, sequence: sequence, index: UInt16(index),
                                      totalLength: index == 0 ? UInt32(frame.count) : nil,
                                      body: Array(frame[offset..<offset + take]))
            out.append(chunk.bytes)
            offset += take
        }
        return out
    }
}
