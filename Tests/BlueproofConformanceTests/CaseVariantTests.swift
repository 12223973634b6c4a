import BlueproofCapture
import BlueproofCheck
@testable import BlueproofConformance
import Testing

/// The capture-judged cases against captures of a reference sender and of deliberately broken
/// senders: each verdict fails on its broken variant, naming the frames, and passes on the
/// reference. (The transfer cases' broken variants run on btvirt, in IntegrationTests.)
@Suite("Capture cases on broken variants")
struct CaseVariantTests {
    func judge(_ id: String, _ capture: SenderCapture) throws -> CaseOutcome {
        let item = try #require(CaptureCase.all.first { $0.id.rawValue == id })
        let results = CaptureAnalyser.check(capture.records).map { (capture: "sender.pcap", check: $0) }
        return item.judge(results)
    }

    @Test("the reference sender passes every capture case")
    func reference() throws {
        for item in CaptureCase.all {
            let outcome = try judge(item.id.rawValue, .transfer())
            #expect(outcome.verdict == .pass, "\(item.id): \(outcome.reason)")
        }
    }

    @Test("CBT/FLOW/BI-01 fails on a sender that ignores credits, at the excess packet")
    func credits() throws {
        let broken = SenderCapture.transfer(respectCredits: false)
        let outcome = try judge("CBT/FLOW/BI-01", broken)
        #expect(outcome.verdict == .fail)
        // Buffers 1: frame 4 is the first notification, frame 5 the second, sent without a credit back.
        #expect(outcome.findings.first?.frames.first == 5, "\(outcome.findings)")
        #expect(CreditsCase.judge(CaptureEvidence(path: "sender.pcap", records: broken.records)).verdict == .fail)
        #expect(CreditsCase.judge(CaptureEvidence(path: "sender.pcap", records: SenderCapture.transfer().records)).verdict == .pass)
    }

    @Test("CBT/CHUNK/BV-01 fails on chunks one byte short of ATT_MTU - 3")
    func chunkSize() throws {
        let outcome = try judge("CBT/CHUNK/BV-01", .transfer(chunkSize: 19))
        #expect(outcome.verdict == .fail)
        #expect(outcome.findings.first?.frames.isEmpty == false)
    }

    @Test("CBT/CHUNK/BV-02 fails when data follows the last EOM; without any EOM it cannot judge")
    func endOfMessage() throws {
        var trailing = SenderCapture.transfer()
        trailing.notify(0x40, [9, 9])
        #expect(try judge("CBT/CHUNK/BV-02", trailing).verdict == .fail)
        #expect(try judge("CBT/CHUNK/BV-02", .transfer(withEOM: false)).verdict == .inconclusive)
    }

    @Test("CBT/GATT/BV-03 fails when chunks go out before the receiver subscribed")
    func subscription() throws {
        let outcome = try judge("CBT/GATT/BV-03", .transfer(subscribeFirst: false))
        #expect(outcome.verdict == .fail)
        #expect(outcome.findings.first?.frames.isEmpty == false)
    }

    @Test("CaptureEvidence finds notifications and connection attempts by frame")
    func evidence() {
        let capture = SenderCapture.transfer(chunks: 2)
        let evidence = CaptureEvidence(path: "x.pcap", records: capture.records)
        #expect(evidence.notificationFrames == [4, 6, 8])
        #expect(evidence.createConnectionFrames.isEmpty)
    }
}
