import BlueproofCapture
import BlueproofCheck
@testable import BlueproofConformance
@testable import BlueproofTransfer
import BlueproofWire
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

    /// A sender on another host stack may put an oversize notification on the air (ours refuses
    /// to): the capture check fails it for its size, at ATT_MTU 23 a 21-byte chunk.
    @Test("CBT/CHUNK/BV-01 fails on chunks one byte over ATT_MTU - 3 on the air")
    func chunkTooBig() throws {
        let outcome = try judge("CBT/CHUNK/BV-01", .transfer(chunkSize: 21))
        #expect(outcome.verdict == .fail)
        #expect(outcome.findings.first?.frames.isEmpty == false)
    }

    /// CBT/ROLE/BV-02 on synthetic central captures: the Write Command must come after the EOM
    /// notification, to the handle it came from, carrying the write-back.
    @Test("CBT/ROLE/BV-02 needs a Write Command after EOM, to the value handle, carrying the write-back")
    func writeCommand() throws {
        let eom = Array("EOM".utf8)
        let writeBack: [UInt8] = [1, 2, 3]
        func capture(_ build: (inout SenderCapture) -> Void) -> CaptureEvidence {
            var capture = SenderCapture.transfer(chunks: 0, withEOM: false)
            build(&capture)
            return CaptureEvidence(path: "central.pcap", records: capture.records)
        }
        func judge(_ evidence: CaptureEvidence) -> CaseOutcome {
            WriteCommandCase.judge(evidence, marker: eom, writeBack: writeBack, central: .failure(.gatt("n/a")))
        }
        let good = capture {
            $0.receiveNotification(0x40, [9, 9])
            $0.receiveNotification(0x40, eom)
            $0.writeCommand(0x40, writeBack)
        }
        #expect(judge(good).verdict == .pass, "\(judge(good).reason)")
        let before = capture {
            $0.writeCommand(0x40, writeBack)
            $0.receiveNotification(0x40, eom)
            $0.writeCommand(0x40, writeBack)
        }
        #expect(judge(before).verdict == .fail)
        let elsewhere = capture {
            $0.receiveNotification(0x40, eom)
            $0.writeCommand(0x40, attribute: 0x000F, writeBack)
        }
        #expect(judge(elsewhere).verdict == .fail)
        #expect(judge(elsewhere).reason.contains("0x000f"), "\(judge(elsewhere).reason)")
        let wrongValue = capture {
            $0.receiveNotification(0x40, eom)
            $0.writeCommand(0x40, [1, 2])
        }
        #expect(judge(wrongValue).verdict == .fail)
        let noEnd = capture { $0.writeCommand(0x40, writeBack) }
        #expect(judge(noEnd).verdict == .fail)
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

    /// CBT/CHUNK/BV-04 on the outcomes of broken variants (no switch of the reference makes
    /// them; the case runs on btvirt in RunCaseTests): a sender that lets a lone "EOM" data
    /// chunk end the message (the central completes it short), one that never ends it (the
    /// central stalls), and a central that never got ready.
    @Test("CBT/CHUNK/BV-04 fails when a payload ending in a lone marker chunk arrives short or never completes")
    func markerPayload() throws {
        let marker = Array("EOM".utf8)
        let payloads = MarkerPayloadCase.payloads(marker: marker, chunkSize: 20)
        #expect(payloads.map(\.count) == [3, 43])
        #expect(payloads.allSatisfy { $0.suffix(3).elementsEqual(marker) })
        func exchange(_ central: Result<[UInt8], TransferError>, ready: Bool = true) -> TransferExchange {
            let summary = { (payload: [UInt8]) in
                TransferSummary(role: .central, direction: .peripheralToCentral, sent: false, bytes: payload.count, mtu: 23,
                                chunkSize: 20, chunks: 3, largestChunk: 20, elapsed: .seconds(1), sha256: "", payload: payload,
                                reply: nil, peer: BDAddress(littleEndian: [1, 2, 3, 4, 5, 6]))
            }
            return TransferExchange(peripheral: .failure(.gatt("not judged")), central: central.map(summary),
                                    peripheralEvents: [], centralEvents: ready ? [.ready(mtu: 23, chunkSize: 20)] : [])
        }
        let payload = payloads[1]
        #expect(MarkerPayloadCase.judge(exchange(.success(payload)), payload: payload, marker: marker) == nil)
        let short = MarkerPayloadCase.judge(exchange(.success(Array(payload.dropLast(3)))), payload: payload, marker: marker)
        #expect(short?.verdict == .fail)
        #expect(short?.reason.contains("43 bytes were sent and 40 received") == true, "\(String(describing: short))")
        let stalled = MarkerPayloadCase.judge(exchange(.failure(.stalled(bytes: 40, limit: .seconds(4)))), payload: payload, marker: marker)
        #expect(stalled?.verdict == .fail)
        let alone = MarkerPayloadCase.judge(exchange(.success([])), payload: marker, marker: marker)
        #expect(alone?.verdict == .fail)
        #expect(alone?.reason.contains("the payload that is the marker itself") == true)
        #expect(MarkerPayloadCase.judge(exchange(.success(payload), ready: false), payload: payload, marker: marker)?.verdict == .error)
    }

    @Test("CaptureEvidence finds notifications and connection attempts by frame")
    func evidence() {
        let capture = SenderCapture.transfer(chunks: 2)
        let evidence = CaptureEvidence(path: "x.pcap", records: capture.records)
        #expect(evidence.notificationFrames == [4, 6, 8])
        #expect(evidence.createConnectionFrames.isEmpty)
    }
}
