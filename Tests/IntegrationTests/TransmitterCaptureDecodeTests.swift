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
        #expect(values("link_hello").count == 1)
        #expect(values("transmitter") == ["hello", "hello"])
        #expect(values("chunk_error").isEmpty)
        // Each side's hello names a user, and the central's link hello names the same user as its frame.
        let users = values("user")
        #expect(users.count == 2 && Set(users).count == 2)
        #expect(values("link_hello").allSatisfy(users.contains))
    }
}
