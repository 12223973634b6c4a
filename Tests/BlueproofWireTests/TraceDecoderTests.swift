import Testing
@testable import BlueproofWire

private func att(_ handle: UInt16, _ text: String) -> H4Packet {
    let pdu = hexBytes(text)
    let l2cap = [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
    return HCIACLPacket(handle: handle, packetBoundary: .firstNonFlushable, data: l2cap).packet
}

private func value(_ description: HCIPacketDescription, _ name: String) -> String? {
    description.fields.first { $0.name == name }?.value
}

/// The stateful decoder: frames rebuilt from fragments, and what a connection's own GATT
/// discovery revealed named in its later PDUs (Core Vol 3, Part A §7.2; Part F; Part G §4).
@Suite("TraceDecoder: per-connection state")
struct TraceDecoderTests {
    @Test func mtuAndDiscoveredNames() {
        var decoder = TraceDecoder()
        _ = decoder.describe(att(0x40, "02 f700"), sent: true)
        #expect(value(decoder.describe(att(0x40, "03 b900"), sent: false), "att_mtu") == "185")
        _ = decoder.describe(att(0x40, "10 0100 ffff 0028"), sent: true)
        let services = decoder.describe(att(0x40, "11 06 0100 0500 0018 0600 0900 0d18"), sent: false)
        #expect(value(services, "services") == "0x0001-0x0005 1800; 0x0006-0x0009 180D")
        _ = decoder.describe(att(0x40, "08 0600 0900 0328"), sent: true)
        let characteristics = decoder.describe(att(0x40, "09 07 0700 10 0800 372a"), sent: false)
        #expect(value(characteristics, "characteristics") == "0x0008 2A37")
        _ = decoder.describe(att(0x40, "04 0900 0900"), sent: true)
        #expect(value(decoder.describe(att(0x40, "05 01 0900 0229"), sent: false), "descriptors") == "0x0009 2902")
        // Later PDUs name their attribute by what discovery found.
        #expect(value(decoder.describe(att(0x40, "1b 0800 0640"), sent: false), "attribute_type") == "2A37")
        #expect(value(decoder.describe(att(0x40, "12 0900 0100"), sent: true), "attribute_type") == "2902")
        #expect(value(decoder.describe(att(0x40, "0a 0100"), sent: true), "attribute_type") == "service 1800")
        // Another connection learnt nothing; a disconnection forgets what this one learnt.
        #expect(value(decoder.describe(att(0x41, "0a 0800"), sent: true), "attribute_type") == nil)
        _ = decoder.describe(H4Packet(type: .event, payload: hexBytes("0504 00 4000 13")), sent: false)
        #expect(value(decoder.describe(att(0x40, "0a 0800"), sent: true), "attribute_type") == nil)
    }

    @Test func longValuesAreJoined() {
        var decoder = TraceDecoder()
        let first = (0..<22).map { UInt8($0) }
        _ = decoder.describe(att(0x40, "0a 0300"), sent: true)
        _ = decoder.describe(att(0x40, "0b " + hex(first)), sent: false)
        _ = decoder.describe(att(0x40, "0c 0300 1600"), sent: true)
        let last = decoder.describe(att(0x40, "0d 1617 1819 1a"), sent: false)
        #expect(value(last, "joined_attribute") == "0x0003")
        #expect(value(last, "joined_length") == "27")
        #expect(value(last, "joined_value") == hex((0..<27).map { UInt8($0) }))
    }

    @Test func fragmentsAreRebuilt() {
        var decoder = TraceDecoder()
        // A 30-octet notification in two ACL fragments.
        let pdu = [0x1B, 0x2A, 0x00] + [UInt8](repeating: 0xAB, count: 27)
        let frame = [0x1E, 0x00, 0x04, 0x00] + pdu
        let start = HCIACLPacket(handle: 0x40, packetBoundary: .firstNonFlushable, data: Array(frame.prefix(20))).packet
        let rest = HCIACLPacket(handle: 0x40, packetBoundary: .continuing, data: Array(frame.dropFirst(20))).packet
        #expect(value(decoder.describe(start, sent: false), "fragment") == "1 (20 of 34 octets)")
        let end = decoder.describe(rest, sent: false)
        #expect(end.malformed == nil)
        #expect(value(end, "reassembled") == "2 fragments, 30 octets")
        #expect(value(end, "pdu") == "Handle Value Notification")
        #expect(value(end, "attribute") == "0x002a")
        // A continuation overrunning the declared length drops the frame.
        _ = decoder.describe(start, sent: true)
        let overrun = HCIACLPacket(handle: 0x40, packetBoundary: .continuing, data: [UInt8](repeating: 0, count: 40)).packet
        #expect(value(decoder.describe(overrun, sent: true), "fragment")?.contains("dropped") == true)
    }

    /// Random packets on many handles never trap and the state stays within its bounds.
    @Test("random packets keep the decoder bounded", arguments: [21, 22] as [UInt64])
    func fuzz(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var decoder = TraceDecoder()
        for _ in 0..<4000 {
            let handle = UInt16.random(in: 0...300, using: &generator)
            var data = (0..<Int.random(in: 0...30, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if data.count >= 4 && Bool.random(using: &generator) { data[2] = 0x04; data[3] = 0 }
            let boundary: HCIACLPacketBoundary = Bool.random(using: &generator) ? .firstNonFlushable : .continuing
            let packet = HCIACLPacket(handle: handle, packetBoundary: boundary, data: data).packet
            #expect(decoder.describe(packet, sent: Bool.random(using: &generator)).name == "ACL Data")
        }
        #expect(decoder.connections.count <= TraceDecoder.maximumConnections)
        #expect(decoder.partial.count <= TraceDecoder.maximumConnections * 2)
    }
}
