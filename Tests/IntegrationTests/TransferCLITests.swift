import BlueproofBackend
import BlueproofCapture
import BlueproofTestSupport
import BlueproofTransfer
import Foundation
import Testing

/// `blueproof transfer demo --file X`: 1 MB byte-exact on each backend, with captures tshark
/// decodes.
@Suite("blueproof transfer demo", .serialized)
struct TransferCLITests {
    @Test("btvirt: transfer demo moves a 1 MB file byte-exact", .requires(.cli, .btvirt, .preload, .tshark),
          .timeLimit(.minutes(2)))
    func demoBTVirt() throws {
        try RequiredComponent.require(.cli, .btvirt, .preload, .tshark)
        try demo("btvirt")
    }

    @Test("Rootcanal: transfer demo moves a 1 MB file byte-exact", .requires(.cli, .rootcanal, .preload, .tshark),
          .timeLimit(.minutes(2)))
    func demoRootcanal() throws {
        try RequiredComponent.require(.cli, .rootcanal, .preload, .tshark)
        try demo("rootcanal")
    }

    private func demo(_ controller: String) throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let folder = try WorkFolder("cli-transfer-\(controller)")
        defer { folder.cleanUp() }
        let payload = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let input = folder.file("input.bin")
        try Data(payload).write(to: URL(fileURLWithPath: input))
        let result = try run(cli, ["transfer", "demo", "--file", input, "--controller", controller, "--json",
                                   "--capture", folder.file("demo.pcap"), "--output", folder.file("output.bin")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["intact"] as? Bool == true, "\(result.stdout)")
        #expect(json?["receivedSHA256"] as? String == SHA256.hex(payload))
        #expect(json?["receivedBytes"] as? Int == payload.count)
        #expect(FileManager.default.contents(atPath: folder.file("output.bin")) == Data(payload))
        #expect(result.stderr.contains("100%"), "progress shown: \(result.stderr)")
        for node in 0..<2 {
            let path = folder.file("demo-node\(node).pcap")
            try checkCapture(path, expectedCount: try CaptureReader.read(path: path).records.count)
        }
        print("\(controller): \(json?["bytesPerSecond"] ?? "?") B/s over \(json?["seconds"] ?? "?") s")
    }
}
