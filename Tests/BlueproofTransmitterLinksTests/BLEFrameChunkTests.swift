import BlueproofTransmitterLinks
import Testing

@Suite("BLE frame chunks")
struct BLEFrameChunkTests {
    static func frame(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

    /// 122,880 bytes (the BLE binary limit) plus room for a transmitter header.
    static let largest = 122_880 + 512

    @Test("round trips at MTU 23, 185, 247, 517 for frame sizes 0, 1, MTU-3±1, 122,880+overhead",
          arguments: [23, 185, 247, 517])
    func roundTrip(mtu: Int) throws {
        let chunkSize = BLEFrameChunk.chunkSize(forATTMTU: mtu)
        #expect(chunkSize == min(mtu - 3, 512))
        var chunker = try BLEFrameChunker(chunkSize: chunkSize)
        var reassembler = BLEFrameReassembler()
        for size in [0, 1, mtu - 4, mtu - 3, mtu - 2, Self.largest] {
            let frame = Self.frame(size)
            let chunks = try chunker.chunks(of: frame)
            #expect(chunks.allSatisfy { $0.count <= chunkSize }, "size \(size)")
            let firstRoom = chunkSize - 9, room = chunkSize - 5
            let expected = size <= firstRoom ? 1 : 1 + (size - firstRoom + room - 1) / room
            #expect(chunks.count == expected, "size \(size)")
            var out: [[UInt8]] = []
            for (index, chunk) in chunks.enumerated() {
                let result = try reassembler.receive(chunk)
                #expect((result == nil) == (index < chunks.count - 1), "only the last chunk completes")
                if let result { out.append(result) }
            }
            #expect(out == [frame], "size \(size) at MTU \(mtu)")
            #expect(!reassembler.isReassembling)
        }
    }

    @Test("header layout: flags, sequence, index, total length on the first chunk, little-endian")
    func headerBytes() throws {
        var chunker = try BLEFrameChunker(chunkSize: 20)
        _ = try chunker.chunks(of: [1])
        let chunks = try chunker.chunks(of: Array(1...20))
        #expect(chunks == [
            [0x01, 0x01, 0x00, 0x00, 0x00, 20, 0, 0, 0] + Array(1...11),
            [0x02, 0x01, 0x00, 0x01, 0x00] + Array(12...20),
        ])
        #expect(try chunker.chunks(of: []) == [[0x03, 0x02, 0x00, 0x00, 0x00, 0, 0, 0, 0]])
        let parsed = try BLEFrameChunk(bytes: chunks[0])
        #expect(parsed.flags == .first && parsed.sequence == 1 && parsed.index == 0 && parsed.totalLength == 20)
    }

    @Test("sequence numbers wrap")
    func sequenceWraps() throws {
        var chunker = try BLEFrameChunker(chunkSize: 20)
        var reassembler = BLEFrameReassembler()
        for _ in 0..<70_000 { _ = try chunker.chunks(of: []) }
        #expect(chunker.nextSequence == UInt16(70_000 % 65_536))
        for chunk in try chunker.chunks(of: Self.frame(100)) { _ = try reassembler.receive(chunk) }
    }

    @Test("a skipped chunk is out of order and drops the frame; the next frame still arrives")
    func outOfOrder() throws {
        var chunker = try BLEFrameChunker(chunkSize: 20)
        var reassembler = BLEFrameReassembler()
        let chunks = try chunker.chunks(of: Self.frame(60))
        _ = try reassembler.receive(chunks[0])
        #expect(throws: BLEChunkError.outOfOrder(sequence: 0, expected: 1, got: 2)) { try reassembler.receive(chunks[2]) }
        #expect(!reassembler.isReassembling)
        #expect(throws: BLEChunkError.noFrameOpen(sequence: 0, index: 3)) { try reassembler.receive(chunks[3]) }
        let next = Self.frame(45)
        let result = try chunker.chunks(of: next).compactMap { try reassembler.receive($0) }
        #expect(result == [next])
    }

    @Test("a duplicate chunk is refused and ignored: the frame completes once")
    func duplicate() throws {
        var chunker = try BLEFrameChunker(chunkSize: 20)
        var reassembler = BLEFrameReassembler()
        let frame = Self.frame(40)
        let chunks = try chunker.chunks(of: frame)
        _ = try reassembler.receive(chunks[0])
        _ = try reassembler.receive(chunks[1])
        #expect(throws: BLEChunkError.duplicate(sequence: 0, index: 1)) { try reassembler.receive(chunks[1]) }
        var out: [[UInt8]] = []
        for chunk in chunks.dropFirst(2) { if let got = try reassembler.receive(chunk) { out.append(got) } }
        #expect(out == [frame])
    }

    @Test("a frame cut short by the next frame's first chunk is dropped; the new one arrives")
    func truncatedByNextFrame() throws {
        var chunker = try BLEFrameChunker(chunkSize: 20)
        var reassembler = BLEFrameReassembler()
        let cut = try chunker.chunks(of: Self.frame(50))
        let whole = Self.frame(30)
        let next = try chunker.chunks(of: whole)
        _ = try reassembler.receive(cut[0])
        _ = try reassembler.receive(cut[1])
        #expect(throws: BLEChunkError.interrupted(sequence: 0, received: 26, expected: 50)) { try reassembler.receive(next[0]) }
        var out: [[UInt8]] = []
        for chunk in next { if let got = try reassembler.receive(chunk) { out.append(got) } }
        #expect(out == [whole])
    }

    @Test("lengths that do not add up, short chunks, other sequences and oversized frames are typed errors")
    func malformed() throws {
        var reassembler = BLEFrameReassembler(frameLimit: 100)
        #expect(throws: BLEChunkError.malformed(length: 4)) { try reassembler.receive([1, 0, 0, 0]) }
        #expect(throws: BLEChunkError.malformed(length: 7)) { try reassembler.receive([1, 0, 0, 0, 0, 9, 0]) }
        // Announces 10, the last chunk ends at 3.
        #expect(throws: BLEChunkError.lengthMismatch(sequence: 0, announced: 10, received: 3)) {
            try reassembler.receive([0x03, 0, 0, 0, 0, 10, 0, 0, 0, 1, 2, 3])
        }
        // Announces 2, carries 3.
        #expect(throws: BLEChunkError.lengthMismatch(sequence: 0, announced: 2, received: 3)) {
            try reassembler.receive([0x01, 0, 0, 0, 0, 2, 0, 0, 0, 1, 2, 3])
        }
        _ = try reassembler.receive([0x01, 5, 0, 0, 0, 10, 0, 0, 0, 1])
        #expect(throws: BLEChunkError.wrongSequence(expected: 5, got: 6)) { try reassembler.receive([0x00, 6, 0, 1, 0, 2]) }
        #expect(throws: BLEChunkError.tooLarge(length: 101, limit: 100)) { try reassembler.receive([0x01, 7, 0, 0, 0, 101, 0, 0, 0]) }
    }

    @Test("the chunker refuses an MTU with no room and frames over its limit")
    func chunkerLimits() throws {
        #expect(throws: BLEChunkerError.mtuTooSmall(12)) { try BLEFrameChunker(chunkSize: 9) }
        var chunker = try BLEFrameChunker(chunkSize: 20, frameLimit: 1000)
        #expect(throws: BLEChunkerError.frameTooLarge(length: 1001, limit: 1000)) { try chunker.chunks(of: Self.frame(1001)) }
        var tiny = try BLEFrameChunker(chunkSize: 10, frameLimit: .max)
        // 5 body bytes per chunk after the first: more chunks than the u16 index counts.
        let over = 1 + 65_536 * 5
        #expect(throws: BLEChunkerError.frameTooLarge(length: over, limit: .max)) { try tiny.chunks(of: Self.frame(over)) }
        #expect(try tiny.chunks(of: Self.frame(over - 5)).count == 65_536)
    }
}
