import Testing
@testable import BlueproofWire

/// `inspect`'s fast path for the bulk of a transfer (issue 16): on a random stream of ACL
/// packets (whole ATT PDUs, fragments, discovery that names attributes, MTU exchanges,
/// disconnections), a decoder that takes ``TraceDecoder/plainATT(_:sent:)`` where it
/// can writes, packet for packet, what one that describes every packet says.
@Suite("TraceDecoder: the plain ATT path writes what describe says")
struct TraceDecoderPlainATTTests {
    static func text(_ description: HCIPacketDescription) -> String {
        " " + ([description.name] + description.fields.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
            + (description.malformed.map { "  [malformed: \($0)]" } ?? "")
    }

    static func acl(_ handle: UInt16, boundary: UInt16, broadcast: UInt16, data: [UInt8]) -> H4Packet {
        let header = handle | boundary << 12 | broadcast << 14
        return H4Packet(type: .acl, payload: [UInt8(header & 0xFF), UInt8(header >> 8),
                                              UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data)
    }

    static func frame(_ pdu: [UInt8], cid: UInt16 = 0x0004) -> [UInt8] {
        [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), UInt8(cid & 0xFF), UInt8(cid >> 8)] + pdu
    }

    @Test func sameLinesAsDescribe() async {
        var random = SplitMix64(seed: 16)  // fixed, so a failure repeats
        var described = TraceDecoder()
        var mixed = TraceDecoder()
        var plain = 0
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }  // a long loop: leave the test pool to others now and then
            let handle: UInt16 = [0x40, 0x41, 0x42].randomElement(using: &random) ?? 0x40
            let sent = Bool.random(using: &random)
            let value: [UInt8] = (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let attribute: UInt16 = [0x0008, 0x0010, UInt16.random(in: 0...0xFFFF, using: &random)].randomElement(using: &random) ?? 8
            let opcode: UInt8 = [0x1B, 0x1D, 0x52, 0x12, 0x0A, 0x1C].randomElement(using: &random) ?? 0x1B
            let pdu: [UInt8] = [opcode, UInt8(attribute & 0xFF), UInt8(attribute >> 8)] + value
            var boundary: UInt16 = [0, 2].randomElement(using: &random) ?? 0
            let broadcast = UInt16.random(in: 0...3, using: &random)
            var data: [UInt8]
            switch Int.random(in: 0..<20, using: &random) {
            case 0: data = Self.frame(hexBytes("02 f700"))                          // Exchange MTU Request
            case 1: data = Self.frame(hexBytes("03 b900"))                          // Exchange MTU Response
            case 2: data = Self.frame(hexBytes("08 0600 0900 0328"))                // Read By Type: characteristics
            case 3: data = Self.frame(hexBytes("09 07 0700 10 0800 372a"))          // names 0x0008
            case 4: data = Array(Self.frame(pdu).prefix(5 + value.count / 2))     // a first fragment
            case 5: boundary = 1; data = value                                     // a continuing fragment
            case 6: boundary = 3; data = Self.frame(pdu)                           // reserved boundary
            case 7: data = Self.frame(pdu, cid: 0x0005)
            case 8:
                let event = H4Packet(type: .event, payload: [0x05, 0x04, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x13])
                #expect(Self.text(described.describe(event, sent: false)) == Self.text(mixed.describe(event, sent: false)))
                continue
            case 9: data = Self.frame(pdu) + [0x00]                                // L2CAP length short by one
            default: data = Self.frame(pdu)
            }
            let packet = Self.acl(handle, boundary: boundary, broadcast: broadcast, data: data)
            let expected = Self.text(described.describe(packet, sent: sent))
            if let fields = mixed.plainATT(packet, sent: sent) {
                plain += 1
                var out: [UInt8] = []
                fields.appendText(to: &out)
                #expect(String(decoding: out, as: UTF8.self) == expected)
            } else {
                #expect(Self.text(mixed.describe(packet, sent: sent)) == expected)
            }
        }
        #expect(plain > 2000, "the plain path was taken \(plain) times")
    }
}
