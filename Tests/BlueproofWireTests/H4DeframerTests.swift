import Testing
@testable import BlueproofWire

/// A mixed stream: commands, events, ACL (one longer than 255 bytes), SCO, ISO, empty packets.
let mixedPackets: [H4Packet] = [
    HCICommandPacket(opcode: HCIOpcode(rawValue: 0x0C03), parameters: []).packet,
    HCIEventPacket(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]).packet,
    HCICommandPacket(opcode: HCIOpcode(rawValue: 0x200B), parameters: [0x01, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00]).packet,
    HCIACLPacket(handle: 0x40, packetBoundary: .firstNonFlushable, data: [0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00]).packet,
    HCIEventPacket(code: 0x3E, parameters: hexBytes("02 01 00 01 c6a5b4332211 03 020106 c4")).packet,
    HCIACLPacket(handle: 0x41, packetBoundary: .firstFlushable, data: (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }).packet,
    H4Packet(type: .sco, payload: [0x05, 0x00, 0x03, 0x01, 0x02, 0x03]),
    H4Packet(type: .iso, payload: [0x61, 0x20, 0x04, 0xC0, 0xDE, 0xAD, 0xBE, 0xEF]),
    HCIEventPacket(code: 0x13, parameters: [0x01, 0x40, 0x00, 0x01, 0x00]).packet,
    HCIEventPacket(code: 0xFF, parameters: []).packet,
    HCIACLPacket(handle: 0x42, packetBoundary: .continuing, data: []).packet,
    HCIEventPacket(code: 0x0E, parameters: Array(repeating: 0x5A, count: 255)).packet,
]

let mixedStream: [UInt8] = mixedPackets.flatMap(\.h4Bytes)

/// Feeds `chunks` in order and collects every packet, draining after each chunk.
func deframe(_ chunks: [[UInt8]]) throws(WireError) -> [H4Packet] {
    var deframer = H4Deframer()
    var out: [H4Packet] = []
    for chunk in chunks {
        deframer.append(chunk)
        while let packet = try deframer.next() { out.append(packet) }
    }
    return out
}

/// `bytes` cut at random points: chunks of 0...max bytes.
func randomSplits(_ bytes: [UInt8], seed: UInt64, max: Int) -> [[UInt8]] {
    var generator = SplitMix64(seed: seed)
    var chunks: [[UInt8]] = []
    var index = 0
    while index < bytes.count {
        let size = Int.random(in: 0...max, using: &generator)
        let end = Swift.min(bytes.count, index + size)
        chunks.append(Array(bytes[index..<end]))
        index = end
    }
    return chunks
}

@Suite("H4 deframer")
struct H4DeframerTests {
    @Test func wholeStream() throws {
        #expect(try deframe([mixedStream]) == mixedPackets)
    }

    @Test func oneByteAtATime() throws {
        #expect(try deframe(mixedStream.map { [$0] }) == mixedPackets)
    }

    @Test("random splits", arguments: [1, 2, 3, 42, 0xDEAD_BEEF, 0x1234_5678_9ABC_DEF0] as [UInt64])
    func randomSplit(seed: UInt64) throws {
        for max in [3, 17, 300] {
            let chunks = randomSplits(mixedStream, seed: seed &+ UInt64(max), max: max)
            #expect(chunks.flatMap { $0 } == mixedStream)
            #expect(try deframe(chunks) == mixedPackets)
        }
    }

    @Test func partialPacketYieldsNilUntilComplete() throws {
        let bytes = mixedPackets[3].h4Bytes // ACL, 12 bytes
        var deframer = H4Deframer()
        for (index, byte) in bytes.enumerated() {
            #expect(try deframer.next() == nil)
            deframer.append([byte])
            if index < bytes.count - 1 {
                #expect(try deframer.next() == nil)
                #expect(deframer.pendingByteCount == index + 1)
            }
        }
        #expect(try deframer.next() == mixedPackets[3])
        #expect(deframer.pendingByteCount == 0)
        #expect(try deframer.next() == nil)
    }

    @Test func unknownIndicatorThrowsWithStreamOffsetAndKeepsThrowing() throws {
        let good = mixedPackets[0].h4Bytes + mixedPackets[1].h4Bytes
        var deframer = H4Deframer()
        deframer.append(good + [0x07, 0x00, 0x00])
        #expect(try deframer.next() == mixedPackets[0])
        #expect(try deframer.next() == mixedPackets[1])
        for round in 0..<3 {
            do {
                _ = try deframer.next()
                Issue.record("no error in round \(round)")
            } catch {
                #expect(error.offset == good.count)
                #expect(error.reason == .unknownPacketType(0x07))
            }
            deframer.append(mixedPackets[0].h4Bytes)
        }
    }

    @Test func streamOffsetsSurviveCompaction() throws {
        // Each round leaves two bytes of the next packet pending, so once more than 4 KiB are
        // consumed the deframer drops them while keeping the partial packet.
        let filler = HCIEventPacket(code: 0x0E, parameters: Array(repeating: 1, count: 200)).packet
        let bytes = filler.h4Bytes
        var deframer = H4Deframer()
        deframer.append(bytes.prefix(2))
        var count = 0
        for _ in 0..<40 {
            deframer.append(bytes.dropFirst(2) + bytes.prefix(2))
            while let packet = try deframer.next() {
                #expect(packet == filler)
                count += 1
            }
            #expect(deframer.pendingByteCount == 2)
        }
        #expect(count == 40)
        deframer.append(bytes.dropFirst(2) + [0x00])
        #expect(try deframer.next() == filler)
        do {
            _ = try deframer.next()
            Issue.record("indicator 0x00 accepted")
        } catch {
            #expect(error.offset == 41 * bytes.count)
        }
    }

    @Test func h4PacketDecodesOneFrame() throws {
        for packet in mixedPackets {
            #expect(try H4Packet(h4Bytes: packet.h4Bytes) == packet)
        }
        do {
            _ = try H4Packet(h4Bytes: [0x04, 0x0E, 0x02, 0x01])
            Issue.record("short event accepted")
        } catch {
            #expect(error.offset == 2)
            #expect(error.reason == .lengthMismatch(declared: 2, actual: 1))
        }
        do {
            _ = try H4Packet(h4Bytes: [0x02, 0x40])
            Issue.record("short ACL header accepted")
        } catch {
            #expect(error.reason == .truncated(needed: 4, available: 1))
        }
        #expect(throws: WireError.self) { try H4Packet(h4Bytes: [0x09, 0x00]) }
        #expect(throws: WireError.self) { try H4Packet(h4Bytes: []) }
    }
}
