import Testing
@testable import BlueproofWire

private func field(_ description: HCIPacketDescription, _ name: String) -> String? {
    description.fields.first { $0.name == name }?.value
}

private func event(_ hex: String) -> H4Packet {
    H4Packet(type: .event, payload: hexBytes(hex))
}

@Suite("H4Packet.describe()")
struct DescribeTests {
    @Test func commandCompleteForLEReadBufferSize() {
        let opcode = HCIOpcode(ogf: 0x08, ocf: 0x0002)
        let returned: [UInt8] = [0x00, 0x1B, 0x00, 0x14]
        let description = event("0e07 01 0220 00 1b00 14").describe()
        #expect(description.name == "Command Complete")
        #expect(description.malformed == nil)
        #expect(Array(description.fields.prefix(3)) == [
            .init("ncmd", "1"),
            .init("opcode", "0x08|0x0002"),
            .init("command", HCICommandCatalogue.name(of: opcode) ?? "Unknown"),
        ])
        #expect(Array(description.fields.dropFirst(3)) == HCICommandCatalogue.describeReturn(of: opcode, returned))
        #expect(description.line.hasPrefix("Command Complete ncmd=1 opcode=0x08|0x0002 command="))
    }

    @Test func creditUpdate() {
        let description = event("0e03 02 0000").describe()
        #expect(description.name == "Command Complete")
        #expect(description.fields == [.init("ncmd", "2"), .init("opcode", "0x00|0x0000"),
                                       .init("command", "none (credit update)")])
    }

    @Test func leAdvertisingReport() {
        let description = event("3e0f 02 01 00 01 c6a5b4332211 03 020106 c4").describe()
        #expect(description.name == "LE Advertising Report")
        #expect(description.malformed == nil)
        #expect(description.fields == [
            .init("num_reports", "1"),
            .init("event_type", "ADV_IND"),
            .init("address", "11:22:33:B4:A5:C6 (random)"),
            .init("data", "020106"),
            .init("rssi", "-60 dBm"),
        ])
    }

    @Test func twoReportsAreIndexedAndRSSI127IsNotAvailable() {
        let description = H4Packet(type: .event, payload: HCIEventAdvertisingReportTests.twoReports).describe()
        #expect(field(description, "rssi[0]") == "-60 dBm")
        #expect(field(description, "rssi[1]") == "n/a")
        #expect(field(description, "address[1]") == "01:02:03:04:05:06 (public)")
        #expect(field(description, "rssi") == nil)
    }

    @Test func otherEventsByName() {
        #expect(event("0504 00 4000 13").describe().line
            == "Disconnect Complete status=Success (0x00) handle=64 reason=Remote User Terminated Connection (0x13)")
        #expect(event("1309 02 4000 0300 4100 0100").describe().line
            == "Number of Completed Packets num_handles=2 handle[0]=64 count[0]=3 handle[1]=65 count[1]=1")
        #expect(event("3e13 01 00 4000 01 01 230000 01aa00 2800 0000 c800 05").describe().line
            == "LE Connection Complete status=Success (0x00) handle=64 role=peripheral "
            + "peer_address=00:AA:01:00:00:23 (random) interval=0x0028 (50 ms) latency=0 "
            + "supervision_timeout=0x00c8 (2000 ms) clock_accuracy=50 ppm (0x05)")
        #expect(event("3e1f 0a 00 4100 00 00 060504030201 000000000000 112233445566 1800 0100 4800 01").describe().line
            == "LE Enhanced Connection Complete status=Success (0x00) handle=65 role=central "
            + "peer_address=01:02:03:04:05:06 (public) local_rpa=00:00:00:00:00:00 peer_rpa=66:55:44:33:22:11 "
            + "interval=0x0018 (30 ms) latency=1 supervision_timeout=0x0048 (720 ms) clock_accuracy=250 ppm (0x01)")
        #expect(event("3e0a 03 00 4000 1800 0000 2c01").describe().line
            == "LE Connection Update Complete status=Success (0x00) handle=64 interval=0x0018 (30 ms) latency=0 "
            + "supervision_timeout=0x012c (3000 ms)")
        let remoteFeatures = event("3e0c 04 00 4000 ff49010000000000").describe()
        #expect(remoteFeatures.name == "LE Read Remote Used Features")
        // The peer's features print as LE Read Local Supported Features prints the local ones.
        #expect(field(remoteFeatures, "features") == HCILEFeatures(rawValue: 0x0001_49FF).description)
        #expect(event("3e0b 07 4000 fb00 4808 1b00 4801").describe().name == "LE Data Length Change")
        #expect(event("1a01 01").describe().line == "Data Buffer Overflow link_type=ACL (0x01)")
    }

    @Test func unknownEventAndSubevent() {
        // 0xFE is no event code of Core 5.4; 0x7F no LE subevent.
        let unknown = event("fe02 abcd").describe()
        #expect(unknown.name == "Unknown Event (0xfe)")
        #expect(unknown.fields == [.init("parameters", "abcd")])
        #expect(unknown.malformed == nil)
        #expect(event("3e02 7f01").describe().name == "Unknown LE Subevent (0x7f)")
    }

    @Test func malformedKnownEventKeepsItsName() throws {
        // LE Connection Complete missing its last byte.
        let description = event("3e12 01 00 4000 01 01 230000 01aa00 2800 0000 c800").describe()
        #expect(description.name == "LE Connection Complete")
        let error = try #require(description.malformed)
        #expect(error.offset == 20)
        #expect(description.line.contains("[malformed: "))
    }

    @Test func eventWhoseLengthDisagreesIsMalformed() throws {
        let description = event("0509 00 4000").describe()
        #expect(description.name == "Disconnect Complete")
        let error = try #require(description.malformed)
        #expect(error.reason == .lengthMismatch(declared: 9, actual: 3))
        #expect(event("").describe().malformed != nil)
    }

    @Test func acl() {
        let packet = HCIACLPacket(handle: 0x40, packetBoundary: .firstNonFlushable,
                                  data: [0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00]).packet
        #expect(packet.describe().line
            == "ACL Data handle=64 pb=first non-flushable (0x00) bc=point-to-point (0x00) dlen=7 l2cap_len=3 cid=0x0004 "
            + "layer=att pdu=Read Request attribute=0x0001")
        // A reserved broadcast flag prints its value once.
        let reserved = HCIACLPacket(handle: 0x40, packetBoundary: .continuing, broadcast: HCIACLBroadcast(rawValue: 0b10),
                                    data: []).packet
        #expect(field(reserved.describe(), "bc") == "0x02")
        let continuing = HCIACLPacket(handle: 0x40, packetBoundary: .continuing, data: [1, 2, 3, 4, 5]).packet
        #expect(field(continuing.describe(), "cid") == nil)
        let broken = H4Packet(type: .acl, payload: [0x40, 0x00, 0x09, 0x00, 0x01]).describe()
        #expect(broken.name == "ACL Data")
        #expect(broken.malformed?.reason == .lengthMismatch(declared: 9, actual: 1))
        #expect(field(broken, "handle") == "64")
    }

    @Test func commandsGoThroughTheCatalogue() throws {
        let command = HCICommandPacket(opcode: HCIOpcode(rawValue: 0x0C03), parameters: [])
        #expect(command.packet.describe() == HCICommandCatalogue.describe(command))
        let broken = H4Packet(type: .command, payload: [0x03, 0x0C, 0x05]).describe()
        #expect(broken.name == (HCICommandCatalogue.name(of: HCIOpcode(rawValue: 0x0C03)) ?? "Unknown Command"))
        #expect(broken.malformed != nil)
    }

    @Test func unknownPacketType() {
        let description = H4Packet(type: H4PacketType(rawValue: 0x09), payload: [1, 2]).describe()
        #expect(description.name == "Unknown Packet (type 0x09)")
    }

    /// Random bytes must never crash; where a decoder accepts the bytes, the description is
    /// not malformed and the bytes re-encode exactly; where it refuses them, so does describe.
    @Test("random bytes never crash describe", arguments: [7, 99, 2024] as [UInt64])
    func fuzz(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let knownCodes: [UInt8] = [0x05, 0x0E, 0x0F, 0x10, 0x13, 0x1A, 0x3E, 0x3E, 0x3E, 0x3E]
        var decodedEvents = 0
        for _ in 0..<1500 {
            let type = H4PacketType(rawValue: UInt8.random(in: 0...6, using: &generator))
            let length = Int.random(in: 0...40, using: &generator)
            var payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let wellFramed = Bool.random(using: &generator)
            if type == .event && payload.count >= 2 {
                payload[0] = knownCodes.randomElement(using: &generator) ?? 0x3E
                if payload[0] == 0x3E && payload.count >= 3 { payload[2] = UInt8.random(in: 0...0x0B, using: &generator) }
                if wellFramed { payload[1] = UInt8(payload.count - 2) }
            }
            let packet = H4Packet(type: type, payload: payload)
            let description = packet.describe()
            #expect(!description.name.isEmpty)
            guard type == .event else { continue }
            do {
                let event = try HCIEvent(payload: payload)
                decodedEvents += 1
                // Events without a typed codec are described from their layout, which may
                // find them short; typed ones describe exactly when they decode.
                switch event {
                case .unknown, .le(.unknown): break
                default: #expect(description.malformed == nil, "\(hex(payload))")
                }
                #expect(event.packet.packet.payload == payload, "\(hex(payload))")
            } catch {
                #expect(description.malformed == error, "\(hex(payload))")
            }
        }
        #expect(decodedEvents > 20)
    }

    @Test("random ACL bytes", arguments: [5, 6] as [UInt64])
    func fuzzACL(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<1000 {
            let length = Int.random(in: 0...12, using: &generator)
            var payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if payload.count >= 4 && Bool.random(using: &generator) {
                payload[2] = UInt8(payload.count - 4)
                payload[3] = 0
            }
            let description = H4Packet(type: .acl, payload: payload).describe()
            #expect(description.name == "ACL Data")
            do {
                let acl = try HCIACLPacket(payload: payload)
                #expect(description.malformed == nil)
                #expect(acl.packet.payload == payload)
            } catch {
                #expect(description.malformed == error)
            }
        }
    }
}
