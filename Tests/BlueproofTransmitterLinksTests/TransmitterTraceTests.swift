import BlueproofTransmitter
import BlueproofTransmitterLinks
import BlueproofWire
import Foundation
import Testing

/// The transmitter's frames decoded in a capture of the BLE link: chunks on the frame
/// characteristic the capture's discovery found, put back into frames (docs/transmitter-links.md
/// "Chunks", docs/transmitter-wire.md).
@Suite("inspect: transmitter frames over GATT")
struct TransmitterTraceTests {
    static let characteristicHandle: UInt16 = 0x0010

    private func att(_ pdu: [UInt8], handle: UInt16 = 0x40) -> H4Packet {
        let l2cap = [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
        return HCIACLPacket(handle: handle, packetBoundary: .firstNonFlushable, data: l2cap).packet
    }

    private func value(_ description: HCIPacketDescription, _ name: String) -> String? {
        description.fields.first { $0.name == name }?.value
    }

    /// A decoder that has seen the central discover the frame characteristic on connection 0x40.
    private func discovered() -> TraceDecoder {
        var decoder = TraceDecoder(application: TransmitterValueDescriber())
        _ = decoder.describe(att([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]), sent: true)
        let declaration = [0x0F, 0x00, 0x16, UInt8(Self.characteristicHandle), 0x00]
            + BLELinkProfile.frameCharacteristic.littleEndian128
        let response = decoder.describe(att([0x09, UInt8(declaration.count)] + declaration), sent: false)
        #expect(value(response, "characteristics") == "0x0010 \(BLELinkProfile.frameCharacteristic)")
        return decoder
    }

    @Test func helloInChunksIsDecoded() throws {
        let user = try #require(UserID("6655a16c-8209-46c4-9c51-21d8df3efb95"))
        let frame = TransmitterFrame.hello(HelloFrame(user: user, displayName: "Ana", deviceType: "iOS")).encoded()
        var chunker = try BLEFrameChunker(chunkSize: 20)
        let chunks = try chunker.chunks(of: frame)
        #expect(chunks.count > 1)
        var decoder = discovered()
        var last = HCIPacketDescription(name: "")
        for chunk in chunks {
            last = decoder.describe(att([0x52, UInt8(Self.characteristicHandle), 0x00] + chunk), sent: true)
            #expect(value(last, "attribute_type") == BLELinkProfile.frameCharacteristic.description)
        }
        #expect(value(last, "transmitter") == "hello")
        #expect(value(last, "user") == "6655a16c-8209-46c4-9c51-21d8df3efb95")
        #expect(value(last, "display_name") == "Ana")
        #expect(value(last, "device_type") == "iOS")
        #expect(value(last, "chunk")?.hasSuffix("last") == true)
        // The other direction reassembles on its own, and another connection learnt nothing.
        let other = decoder.describe(att([0x1B, UInt8(Self.characteristicHandle), 0x00] + chunks[0], handle: 0x41), sent: false)
        #expect(value(other, "chunk") == nil)
    }

    /// Random values on the frame characteristic never trap: a chunk error or an undecodable
    /// frame is said, not guessed.
    @Test func randomValuesAreBounded() {
        var decoder = discovered()
        var generator = SplitMix64(seed: 16)  // seeded: a failure repeats
        for index in 0..<2000 {
            var value = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if index % 3 == 0, !value.isEmpty { value[0] = 0x03 } // first and last: a whole frame
            let description = decoder.describe(att([0x52, UInt8(Self.characteristicHandle), 0x00] + value), sent: index % 2 == 0)
            #expect(description.name == "ACL Data")
        }
    }
}
