import Testing
@testable import BlueproofWire

@Suite("HCI ACL, SCO and ISO data packets")
struct HCIACLPacketTests {
    @Test func decodesAnATTPDUFromTheController() throws {
        // Handle 0x040, first flushable, point-to-point; L2CAP length 3, CID 4; ATT Read Request.
        let payload: [UInt8] = [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00]
        let acl = try HCIACLPacket(payload: payload)
        #expect(acl.handle == 0x0040)
        #expect(acl.packetBoundary == .firstFlushable)
        #expect(acl.broadcast == .pointToPoint)
        #expect(acl.data == [0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00])
        #expect(acl.packet == H4Packet(type: .acl, payload: payload))
    }

    @Test("boundary and broadcast flags sit in bits 12-13 and 14-15", arguments: [
        (HCIACLPacketBoundary.firstNonFlushable, HCIACLBroadcast.pointToPoint, UInt8(0x01)),
        (.continuing, .pointToPoint, 0x11),
        (.firstFlushable, .pointToPoint, 0x21),
        (.complete, .pointToPoint, 0x31),
        (.continuing, .brEdrBroadcast, 0x51),
        (.firstNonFlushable, HCIACLBroadcast(rawValue: 0b10), 0x81),
        (.complete, HCIACLBroadcast(rawValue: 0b11), 0xF1),
    ])
    func flags(boundary: HCIACLPacketBoundary, broadcast: HCIACLBroadcast, highByte: UInt8) throws {
        let acl = HCIACLPacket(handle: 0x0123, packetBoundary: boundary, broadcast: broadcast, data: [0xEE])
        let payload = acl.packet.payload
        #expect(payload == [0x23, highByte, 0x01, 0x00, 0xEE])
        let decoded = try HCIACLPacket(payload: payload)
        #expect(decoded == acl)
        #expect(decoded.packetBoundary == boundary)
        #expect(decoded.broadcast == broadcast)
    }

    @Test func startsPDU() {
        #expect(HCIACLPacketBoundary.firstNonFlushable.startsPDU)
        #expect(HCIACLPacketBoundary.firstFlushable.startsPDU)
        #expect(!HCIACLPacketBoundary.continuing.startsPDU)
        #expect(!HCIACLPacketBoundary.complete.startsPDU)
    }

    @Test func handleKeepsTwelveBits() throws {
        let acl = HCIACLPacket(handle: 0xFFFF, packetBoundary: .continuing, data: [])
        #expect(acl.handle == 0x0FFF)
        #expect(acl.packet.payload == [0xFF, 0x1F, 0x00, 0x00])
        var changed = acl
        changed.handle = 0xF001
        #expect(changed.packet.payload == [0x01, 0x10, 0x00, 0x00])
    }

    @Test func lengthMismatchThrows() {
        for payload: [UInt8] in [[0x40, 0x20, 0x05, 0x00, 0x01, 0x02, 0x03], [0x40, 0x20, 0x01, 0x00, 0x01, 0x02]] {
            do {
                _ = try HCIACLPacket(payload: payload)
                Issue.record("decoded \(payload)")
            } catch {
                #expect(error.offset == 2)
                #expect(error.reason == .lengthMismatch(declared: Int(payload[2]), actual: payload.count - 4))
            }
        }
    }

    @Test func truncatedHeaderThrows() {
        do {
            _ = try HCIACLPacket(payload: [0x40, 0x20, 0x05])
            Issue.record("decoded a 3-byte header")
        } catch {
            #expect(error.offset == 2)
            #expect(error.reason == .truncated(needed: 2, available: 1))
        }
    }

    @Test func longDataUsesSixteenBitLength() throws {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let acl = HCIACLPacket(handle: 1, packetBoundary: .firstNonFlushable, data: data)
        #expect(Array(acl.packet.payload.prefix(4)) == [0x01, 0x00, 0x2C, 0x01])
        #expect(try HCIACLPacket(payload: acl.packet.payload) == acl)
    }

    @Test func scoHeader() throws {
        let sco = try HCISCOPacket(payload: [0x05, 0x30, 0x02, 0xAA, 0xBB])
        #expect(sco.handle == 0x005)
        #expect(sco.packetStatus == 0b11)
        #expect(sco.data == [0xAA, 0xBB])
        #expect(throws: WireError.self) { try HCISCOPacket(payload: [0x05, 0x00, 0x03, 0xAA]) }
    }

    @Test func isoHeader() throws {
        // Handle 0x061, PB 0b10, TS set; length 0x0002 with the two RFU bits set (ignored).
        let iso = try HCIISOPacket(payload: [0x61, 0x60, 0x02, 0xC0, 0x01, 0x02])
        #expect(iso.handle == 0x061)
        #expect(iso.packetBoundary == 0b10)
        #expect(iso.hasTimestamp)
        #expect(iso.data == [0x01, 0x02])
        #expect(throws: WireError.self) { try HCIISOPacket(payload: [0x61, 0x00, 0x03, 0x00, 0x01]) }
    }
}
