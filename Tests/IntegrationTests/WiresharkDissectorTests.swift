import BlueproofCapture
import BlueproofTestSupport
import BlueproofTransmitter
@testable import BlueproofTransmitterLinks
import BlueproofWire
import Foundation
import Testing

/// tools/wireshark/blueproof.lua in tshark, on captures of the transmitter's own frames: the
/// reference encoder's frames, cut by the BLE link's chunker into GATT Write Commands and
/// notifications, and framed by the TCP link's messages (issue 16).
@Suite("Wireshark dissector for transmitter frames")
struct WiresharkDissectorTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/wireshark/blueproof.lua").path
    static let ana = UserID("6655a16c-8209-46c4-9c51-21d8df3efb95")!
    static let bo = UserID("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")!
    static let t0: Int64 = 1_718_000_000_000_000

    /// hello, keyRequest, a broadcast data frame, a direct one and a sealed (encrypted) one.
    static var frames: [TransmitterFrame] {
        let key = [UInt8](repeating: 0x11, count: DataFrame.senderKeySize)
        let signature = [UInt8](repeating: 0x22, count: DataFrame.signatureSize)
        let payload = Array(#"{"d":{"text":"hi"}}"#.utf8) + [UInt8](repeating: 0x33, count: 300)
        return [
            .hello(HelloFrame(user: ana, displayName: "Ana", deviceType: "iOS")),
            .keyRequest(KeyExchangeFrame(user: ana, publicKey: "QUJD", signature: signature)),
            .data(DataFrame(flags: [.broadcast, .mesh, .hasDictionary], hopsRemaining: 4, packetID: UUID(),
                            sender: ana, receiver: nil, expiry: 1_900_000_000_000, senderKey: key, payload: payload,
                            signature: signature)),
            .data(DataFrame(flags: [.hasBinary], hopsRemaining: 0, packetID: UUID(), sender: ana, receiver: bo,
                            expiry: 1_900_000_000_000, senderKey: key, payload: [1, 2, 3], signature: signature)),
            // Sealed: no sender, key or signature in clear (docs/transmitter-wire.md, "data").
            .data(DataFrame(flags: [.mesh, .encrypted, .hasDictionary], hopsRemaining: 2, packetID: UUID(), sender: nil, receiver: bo,
                            expiry: 1_900_000_000_000, senderKey: [], payload: [UInt8](repeating: 0x44, count: 40))),
        ]
    }

    @Test("GATT: chunks on the frame characteristic join into frames, every field decoded, none malformed",
          .requires(.tshark))
    func overGATT() throws {
        let tshark = try RequiredComponent.tshark.require()
        let folder = try WorkFolder("dissector-gatt")
        defer { folder.cleanUp() }
        let path = folder.file("gatt.pcap")
        let writer = try PcapWriter(path: path)
        var time = Self.t0
        func add(_ packet: H4Packet, _ direction: CaptureDirection) {
            time += 1000
            writer.record(CaptureRecord(timestampMicros: time, direction: direction, packet: packet))
        }
        // LE Connection Complete, handle 0x0040.
        add(H4Packet(type: .event, payload: [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5, 6,
                                             24, 0, 0, 0, 72, 0, 0]), .received)
        var chunker = try BLEFrameChunker(chunkSize: BLEFrameChunk.chunkSize(forATTMTU: 100))
        for (index, frame) in Self.frames.enumerated() {
            // Even frames written by the central, odd ones notified by the peripheral.
            let opcode: UInt8 = index % 2 == 0 ? 0x52 : 0x1B
            for chunk in try chunker.chunks(of: frame.encoded()) {
                let att = [opcode, 0x12, 0x00] + chunk
                let l2cap = [UInt8(att.count & 0xFF), UInt8(att.count >> 8), 0x04, 0x00] + att
                add(HCIACLPacket(handle: 0x40, packetBoundary: .firstNonFlushable, data: l2cap).packet,
                    index % 2 == 0 ? .sent : .received)
            }
        }
        writer.close()
        try Self.expectDecoded(tshark, path, options: ["-o", "blueproof_chunk.handles:0x0012"])
    }

    @Test("TCP: length-prefixed messages, split and joined across segments, found by the heuristic", .requires(.tshark))
    func overTCP() throws {
        let tshark = try RequiredComponent.tshark.require()
        let folder = try WorkFolder("dissector-tcp")
        defer { folder.cleanUp() }
        let messages: [TCPMessage] = [.hello(Self.ana), .open] + Self.frames.map { .frame($0.encoded()) } + [.close]
        let encoded = messages.map(\.encoded)
        // hello and open in one segment; the broadcast data frame cut over two; the last
        // frame and close in one.
        let big = encoded[4]
        let segments = [encoded[0] + encoded[1], encoded[2], encoded[3], Array(big.prefix(100)), Array(big.dropFirst(100)),
                        encoded[5], encoded[6] + encoded[7]]
        var file = Self.words([0xA1B2_C3D4, 0x0004_0002, 0, 0, 65_535, 101])
        var sequence: UInt32 = 1000
        for (index, segment) in segments.enumerated() {
            let packet = Self.ipv4TCP(segment, sequence: sequence)
            sequence &+= UInt32(segment.count)
            let micros = Self.t0 + Int64(index) * 1000
            file += Self.words([UInt32(micros / 1_000_000), UInt32(micros % 1_000_000), UInt32(packet.count), UInt32(packet.count)])
            file += packet
        }
        let path = folder.file("tcp.pcap")
        try Data(file).write(to: URL(fileURLWithPath: path))
        try Self.expectDecoded(tshark, path, options: [])
        let kinds = try tsharkFields(tshark, path, ["blueproof_tcp.kind"], options: ["-X", "lua_script:\(Self.script)"])
        let each: [String] = kinds.flatMap { row in row.flatMap { $0.split(separator: ",").map(String.init) } }
        #expect(each == ["0", "1", "3", "3", "3", "3", "3", "2"])
    }

    /// The five frames decode with their fields; nothing is malformed.
    static func expectDecoded(_ tshark: String, _ path: String, options: [String]) throws {
        let lua = ["-X", "lua_script:\(script)"] + options
        let kinds = try tsharkFields(tshark, path, ["blueproof.kind"], filter: "blueproof", options: lua)
        #expect(kinds == [["1"], ["2"], ["4"], ["4"], ["4"]], "\(kinds)")
        let hello = try tsharkFields(tshark, path, ["blueproof.user", "blueproof.hello.name", "blueproof.hello.device"],
                                     filter: "blueproof.kind == 1", options: lua)
        #expect(hello == [["6655a16c-8209-46c4-9c51-21d8df3efb95", "Ana", "iOS"]])
        let data = try tsharkFields(tshark, path, ["blueproof.data.sender", "blueproof.data.receiver", "blueproof.data.payload_length",
                                                   "blueproof.data.hops", "blueproof.data.flags.broadcast"],
                                    filter: "blueproof.kind == 4", options: lua)
        let ana = "6655a16c-8209-46c4-9c51-21d8df3efb95", bo = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
        #expect(data == [[ana, "", "319", "4", "1"], [ana, bo, "3", "0", "0"], ["", bo, "40", "2", "0"]], "\(data)")
        let broken = try tsharkFields(tshark, path, ["frame.number"], filter: "_ws.malformed || blueproof.malformed || _ws.expert.severity >= error",
                                      options: lua)
        #expect(broken.isEmpty, "malformed frames: \(broken)")
    }

    /// An IPv4 + TCP packet (link type 101, raw IP) from 10.0.0.1:40000 to 10.0.0.2:9000.
    static func ipv4TCP(_ payload: [UInt8], sequence: UInt32) -> [UInt8] {
        let total = 40 + payload.count
        var ip: [UInt8] = [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), 0, 1, 0x40, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]
        var sum: UInt32 = 0
        for index in stride(from: 0, to: 20, by: 2) { sum += UInt32(ip[index]) << 8 | UInt32(ip[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        ip[10] = UInt8((~sum >> 8) & 0xFF)
        ip[11] = UInt8(~sum & 0xFF)
        let tcp: [UInt8] = [0x9C, 0x40, 0x23, 0x28] + words([sequence, 1], bigEndian: true) + [0x50, 0x18, 0xFF, 0xFF, 0, 0, 0, 0]
        return ip + tcp + payload
    }

    static func words(_ values: [UInt32], bigEndian: Bool = false) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init) }
    }
}
