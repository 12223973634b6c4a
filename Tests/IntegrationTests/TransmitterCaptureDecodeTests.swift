import BlueproofCapture
import BlueproofTransmitterLinks
import BlueproofWire
import Foundation
import Testing

/// The transmitter's frames in a capture the suite made (Tests/Fixtures/captures/README.md):
/// `TraceDecoder` with `TransmitterValueDescriber` finds the frame characteristic by the
/// capture's own discovery and decodes the link hello and both hello frames (issue 16).
@Suite("inspect: transmitter frames in a suite capture")
struct TransmitterCaptureDecodeTests {
    @Test func helloFramesDecode() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures/suite-transmitter-hello.pcap").path
        let records = try CaptureReader.read(path: path).records
        var decoder = TraceDecoder.withTransmitterFrames()
        let descriptions = records.map { decoder.describe($0.packet, sent: $0.direction == .sent) }
        #expect(descriptions.allSatisfy { $0.malformed == nil && !$0.name.hasPrefix("Unknown") })
        func values(_ name: String) -> [String] { descriptions.flatMap { $0.fields.filter { $0.name == name }.map(\.value) } }
        // Each side names itself once on the link (docs/transmitter-links.md), the peripheral
        // also tells the central it keeps the connection (an adopt chunk, no frame).
        #expect(values("link_hello").count == 2)
        #expect(values("chunk").filter { $0.hasSuffix(" adopt") }.count == 1)
        // Each side's challenge, then each side's answer to the other's (docs/transmitter-wire.md "hello").
        #expect(values("transmitter") == ["hello", "hello", "hello", "hello"])
        #expect(values("hello").sorted() == ["answer", "answer", "challenge", "challenge"])
        #expect(values("chunk_error").isEmpty)
        // Each side's hellos name its user, and the link hellos name the same two.
        let users = values("user")
        #expect(users.count == 4 && Set(users).count == 2)
        #expect(Set(values("link_hello")) == Set(users))
    }
}
