import BlueproofCapture
import BlueproofWire
import Foundation
import BlueproofTestSupport
import Testing

/// Wireshark is the reference decoder for link type 201: what we write must decode there.
@Suite("Captures in Wireshark")
struct TsharkTests {
    static let t0: Int64 = 1_718_000_000_000_000

    static let realistic: [CaptureRecord] = [
        CaptureRecord(timestampMicros: t0, direction: .sent, packet: SamplePackets.reset),
        CaptureRecord(timestampMicros: t0 + 2_000, direction: .received, packet: SamplePackets.resetComplete),
        CaptureRecord(timestampMicros: t0 + 150_000, direction: .received, packet: SamplePackets.advertisingReport),
        CaptureRecord(timestampMicros: t0 + 300_000, direction: .sent, packet: SamplePackets.attMTURequest),
    ]

    @Test("tshark reads our capture: same frame count, directions, packet types, no malformed frame",
          .requires(.tshark))
    func tsharkDecodes() throws {
        let tshark = try RequiredComponent.tshark.require()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try writeCapture(Self.realistic, to: folder.path("realistic.pcap"))

        let frames = try tsharkFields(tshark, path, ["frame.number", "hci_h4.direction", "hci_h4.type", "frame.time_epoch"])
        try #require(frames.count == Self.realistic.count, "tshark frames: \(frames)")
        for (fields, record) in zip(frames, Self.realistic) {
            #expect(fields[1] == (record.direction == .sent ? "0x00" : "0x01"), "\(fields)")
            #expect(fields[2] == String(format: "0x%02x", record.packet.type.rawValue), "\(fields)")
            #expect(fields[3].hasPrefix("\(record.timestampMicros / 1_000_000)."), "\(fields)")
        }
        #expect(try malformedFrames(tshark, path) == [])
        // The decoders went all the way down: reset, its completion, the report, the ATT request.
        #expect(try frameNumbers(tshark, path, filter: "bthci_cmd.opcode == 0x0c03").count == 1)
        #expect(try frameNumbers(tshark, path, filter: "bthci_evt.code == 0x0e").count == 1)
        #expect(try frameNumbers(tshark, path, filter: "bthci_evt.le_meta_subevent == 0x02").count == 1)
        #expect(try tsharkFields(tshark, path, ["btatt.client_rx_mtu"], filter: "btatt.opcode == 0x02") == [["247"]])
    }

    @Test("the malformed-frame check can fail: a cut ATT PDU is reported malformed", .requires(.tshark))
    func malformedIsDetected() throws {
        let tshark = try RequiredComponent.tshark.require()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // ATT_EXCHANGE_MTU_REQ without its Client Rx MTU: L2CAP and ACL lengths agree (1 byte).
        let broken = H4Packet(type: .acl, payload: [0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x02])
        let path = try writeCapture([Self.realistic[0], CaptureRecord(timestampMicros: Self.t0 + 1, direction: .sent, packet: broken)],
                                    to: folder.path("broken.pcap"))
        #expect(try malformedFrames(tshark, path) == ["2"])
    }

    @Test("a pcapng conversion of our capture (editcap) reads back the same records",
          .requires(.editcap))
    func pcapngRoundTrip() throws {
        let editcap = try RequiredComponent.editcap.require()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try writeCapture(Self.realistic, to: folder.path("realistic.pcap"))
        let converted = folder.path("realistic.pcapng")
        let result = try run(editcap, ["-F", "pcapng", path, converted])
        try #require(result.status == 0, "editcap: \(result.stderr)")

        let file = try CaptureReader.read(path: converted)
        #expect(file.format == .pcapng)
        #expect(file.linkType == 201)
        #expect(file.records == Self.realistic)
        #expect(file.truncated == nil)
    }
}
