import BlueproofCapture
import BlueproofCheck
import BlueproofWire
import Foundation
import Testing

/// The analyser fed from disk one record at a time, and its bounded frame lists.
@Suite("Check: streamed captures")
struct StreamingCheckTests {
    let eom: [UInt8] = Array("EOM".utf8)

    /// A transfer of `messages` messages of `chunks` full 244-byte chunks each, ATT_MTU 247:
    /// about 285 bytes of pcap per chunk.
    func transfer(messages: Int, chunks: Int) -> SyntheticCapture {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        capture.connect(0x40)
        capture.exchangeMTU(0x40, request: 247, response: 247)
        capture.subscribe(0x40)
        for message in 0..<messages {
            for chunk in 0..<chunks {
                capture.notify(0x40, Array(repeating: UInt8(truncatingIfNeeded: message * chunks + chunk), count: 244))
                capture.completed(0x40, 1)
            }
            capture.notify(0x40, eom)
            capture.completed(0x40, 1)
        }
        capture.disconnect(0x40)
        return capture
    }

    @Test("a capture of a few MB streamed from disk: every record in order, the same verdicts as in memory")
    func streamedEqualsInMemory() throws {
        let capture = transfer(messages: 10, chunks: 1_000)
        let path = try write(capture)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 3_000_000)

        var seen = 0
        let stream = try CaptureReader.open(path: path)
        var analyser = CaptureAnalyser()
        for record in stream {
            #expect(record == capture.records[seen])
            seen += 1
            analyser.consume(record)
        }
        #expect(seen == capture.records.count && stream.truncated == nil)
        let streamed = analyser.checks()
        #expect(streamed == CaptureAnalyser.check(capture.records))
        for check in streamed { #expect(check.verdict == .pass, "\(check.id): \(check.reason)") }
        let chunks = try #require(streamed.first { $0.id == "CBT/CHUNK/BV-01" })
        #expect(chunks.reason == "10000 chunk(s) in 10 message(s), chunk size 244")

        let payload = (0..<1_000).flatMap { Array(repeating: UInt8(truncatingIfNeeded: 3_000 + $0), count: 244) }
        let match = try #require(CaptureAnalyser.check(try CaptureReader.open(path: path), options: CheckOptions(payload: payload))
            .first { $0.id == "CAP/XFER/BV-01" })
        #expect(match.verdict == .pass, "\(match.reason)")
        // Message 3 (0-based) is the payload: 5 set-up frames, then 2002 frames per message.
        #expect(match.reason.hasSuffix("EOM in frame \(5 + 3 * 2_002 + 2_001)"))
    }

    @Test("thousands of violations: all counted, the first frames reported")
    func violationsAreCountedNotKept() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 27, count: 1)
        capture.connect(0x40)
        let first = capture.nextFrame
        for _ in 0..<5_000 { capture.notify(0x40, [1]) }  // never completed: every one but the first over credit
        let check = try #require(CaptureAnalyser.check(capture.records).first { $0.id == "CBT/FLOW/BI-01" })
        #expect(check.verdict == .fail)
        #expect(check.reason.hasPrefix("4999 ACL packet(s)"))
        #expect(check.frames == Array((first + 1)...(first + CaptureCheck.maximumFrames)))
    }

    @Test("data before connection merges with later violations in frame order")
    func mergedFramesStayOrdered() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        let early = capture.nextFrame
        for _ in 0..<1_500 { capture.notify(0x40, [1]) }
        capture.connect(0x40)
        capture.disconnect(0x40)
        capture.notify(0x40, [2])
        let check = try #require(CaptureAnalyser.check(capture.records).first { $0.id == "CAP/CONN/BV-01" })
        #expect(check.verdict == .fail)
        #expect(check.reason.hasPrefix("1501 ACL packet(s)"))
        #expect(check.frames == Array(early..<(early + CaptureCheck.maximumFrames)))
    }

    private func write(_ capture: SyntheticCapture) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("blueproof-stream-\(UUID().uuidString).pcap").path
        let writer = try PcapWriter(path: path)
        for record in capture.records { writer.record(record) }
        writer.close()
        return path
    }
}
