import BlueproofCapture
import BlueproofCheck
import BlueproofWire
import Testing

@Suite("Check: capture analyser")
struct CaptureAnalyserTests {
    let eom: [UInt8] = Array("EOM".utf8)

    func verdict(_ id: String, in capture: SyntheticCapture, options: CheckOptions = CheckOptions()) throws -> CaptureCheck {
        try #require(CaptureAnalyser.check(capture.records, options: options).first { $0.id == id })
    }

    /// A clean sender's view: buffers read, connected, MTU 185, payload in full chunks, EOM.
    func cleanTransfer(payload: [UInt8]) -> SyntheticCapture {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 4)
        capture.connect(0x40)
        capture.exchangeMTU(0x40, request: 185, response: 517)
        capture.subscribe(0x40)
        var offset = 0
        while offset < payload.count {
            let end = min(offset + 182, payload.count)
            capture.notify(0x40, Array(payload[offset..<end]))
            capture.completed(0x40, 1)
            offset = end
        }
        capture.notify(0x40, eom)
        capture.completed(0x40, 1)
        capture.disconnect(0x40)
        return capture
    }

    @Test func cleanStreamPasses() throws {
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let checks = CaptureAnalyser.check(cleanTransfer(payload: payload).records,
                                           options: CheckOptions(payload: payload, plaintext: [0xDE, 0xAD, 0xBE, 0xEF]))
        for check in checks { #expect(check.verdict == .pass, "\(check.id): \(check.reason)") }
        #expect(Set(checks.map(\.id)) == ["CBT/FLOW/BI-01", "CAP/CONN/BV-01", "CAP/ACL/BV-01", "CAP/ATT/BV-01",
                                          "CBT/CHUNK/BV-01", "CBT/CHUNK/BV-02", "CBT/GATT/BV-03", "CAP/XFER/BV-01",
                                          "BFT/SEC/BV-04"])
    }

    @Test func creditsExceededFailsAtTheExcessPacket() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 27, count: 2)
        capture.connect(0x40)
        capture.notify(0x40, [1])
        capture.notify(0x40, [2])
        let excess = capture.nextFrame
        capture.notify(0x40, [3])
        capture.completed(0x40, 3)
        capture.notify(0x40, [4])
        let check = try verdict("CBT/FLOW/BI-01", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [excess])
    }

    @Test func creditsWithoutBufferSizeAreInconclusive() throws {
        var capture = SyntheticCapture()
        capture.connect(0x40)
        capture.notify(0x40, [1])
        #expect(try verdict("CBT/FLOW/BI-01", in: capture).verdict == .inconclusive)
        #expect(try verdict("CAP/ACL/BV-01", in: capture).verdict == .inconclusive)
    }

    @Test func notificationOverMTUMinus3Fails() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        capture.connect(0x40)
        capture.notify(0x40, Array(repeating: 1, count: 20))
        let over = capture.nextFrame
        capture.notify(0x40, Array(repeating: 1, count: 21))
        let check = try verdict("CAP/ATT/BV-01", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [over])
    }

    @Test func fragmentOverBufferLengthFails() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 27, count: 8)
        capture.connect(0x40)
        capture.exchangeMTU(0x40, request: 100, response: 100)
        let over = capture.nextFrame
        capture.notify(0x40, Array(repeating: 1, count: 21))
        let check = try verdict("CAP/ACL/BV-01", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [over])
    }

    @Test func dataBeforeConnectionAndAfterDisconnectionFails() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        let early = capture.nextFrame
        capture.notify(0x40, [1])
        capture.connect(0x40)
        capture.notify(0x40, [2])
        capture.disconnect(0x40)
        let late = capture.nextFrame
        capture.notify(0x40, [3])
        let check = try verdict("CAP/CONN/BV-01", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [early, late])
    }

    // issue 16: a BR/EDR link (classic Connection Complete, event 0x03) is a connection, and its
    // ACL data uses the shared ACL buffers, not the LE ones.
    @Test func classicLinkIsJudgedOnTheSharedBuffers() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 27, count: 2)
        // Read Buffer Size: ACL 1021 octets x 4, SCO 96 x 6 (Vol 4, Part E §7.4.5).
        capture.add(H4Packet(type: .event, payload: hexBytes("0e0b 01 0510 00 fd03 60 0400 0600")), .received)
        // Connect Complete: handle 11, ACL, unencrypted.
        capture.add(H4Packet(type: .event, payload: hexBytes("030b 00 0b00 7c9a1c21a0c8 01 00")), .received)
        for _ in 0..<3 {
            let l2cap = [0x60, 0x00, 0x40, 0x00] + [UInt8](repeating: 0xAB, count: 96)
            capture.add(HCIACLPacket(handle: 11, packetBoundary: .firstNonFlushable, data: l2cap).packet, .sent)
        }
        for id in ["CAP/CONN/BV-01", "CBT/FLOW/BI-01", "CAP/ACL/BV-01"] {
            let check = try verdict(id, in: capture)
            #expect(check.verdict == .pass, "\(id): \(check.reason)")
        }
        // The fourth packet in flight overruns the four shared buffers.
        let excess = capture.nextFrame
        capture.add(HCIACLPacket(handle: 11, packetBoundary: .firstNonFlushable, data: [0, 0, 0x40, 0]).packet, .sent)
        capture.add(HCIACLPacket(handle: 11, packetBoundary: .firstNonFlushable, data: [0, 0, 0x40, 0]).packet, .sent)
        #expect(try verdict("CBT/FLOW/BI-01", in: capture).frames == [excess + 1])
    }

    @Test func underfilledChunkFails() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        capture.connect(0x40)
        let short = capture.nextFrame
        capture.notify(0x40, Array(repeating: 1, count: 19))
        capture.notify(0x40, Array(repeating: 1, count: 20))
        capture.notify(0x40, [1])
        capture.notify(0x40, eom)
        let check = try verdict("CBT/CHUNK/BV-01", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [short])
        #expect(try verdict("CBT/CHUNK/BV-02", in: capture).verdict == .pass)
    }

    @Test func splitMarkerIsNotUnderfilled() throws {
        var capture = SyntheticCapture()
        capture.connect(0x40)
        capture.notify(0x40, Array(repeating: 1, count: 20))
        capture.notify(0x40, Array("EO".utf8))
        capture.notify(0x40, Array("M".utf8))
        capture.notify(0x40, eom)
        #expect(try verdict("CBT/CHUNK/BV-01", in: capture).verdict == .pass)
        let payload = Array(repeating: UInt8(1), count: 20) + eom
        #expect(try verdict("CAP/XFER/BV-01", in: capture, options: CheckOptions(payload: payload)).verdict == .pass)
    }

    @Test func streamWithoutFinalMarkerFails() throws {
        var capture = SyntheticCapture()
        capture.connect(0x40)
        capture.notify(0x40, [1])
        capture.notify(0x40, eom)
        let left = capture.nextFrame
        capture.notify(0x40, [2])
        let check = try verdict("CBT/CHUNK/BV-02", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [left])
    }

    @Test func noStreamIsInconclusive() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        capture.connect(0x40)
        capture.notify(0x40, [1, 2, 3, 4])
        for id in ["CBT/CHUNK/BV-01", "CBT/CHUNK/BV-02", "CAP/XFER/BV-01"] {
            #expect(try verdict(id, in: capture, options: CheckOptions(payload: [1])).verdict == .inconclusive)
        }
        #expect(try verdict("CBT/CHUNK/BV-01", in: SyntheticCapture()).verdict == .inconclusive)
    }

    @Test func notificationsBeforeSubscriptionFail() throws {
        var capture = SyntheticCapture()
        capture.connect(0x40)
        let first = capture.nextFrame
        capture.notify(0x40, [1])
        capture.subscribe(0x40)
        capture.notify(0x40, eom)
        let check = try verdict("CBT/GATT/BV-03", in: capture)
        #expect(check.verdict == .fail)
        #expect(check.frames == [first])
    }

    @Test func wrongPayloadFails() throws {
        let capture = cleanTransfer(payload: Array(repeating: 7, count: 400))
        let check = try verdict("CAP/XFER/BV-01", in: capture, options: CheckOptions(payload: Array(repeating: 8, count: 400)))
        #expect(check.verdict == .fail)
        #expect(check.frames == [capture.records.count - 2])
    }

    @Test func plaintextInClearFails() throws {
        let capture = cleanTransfer(payload: Array("hello secret world".utf8))
        let check = try verdict("BFT/SEC/BV-04", in: capture, options: CheckOptions(plaintext: Array("secret".utf8)))
        #expect(check.verdict == .fail)
        #expect(check.frames == [6])
    }

    @Test func plaintextSplitAcrossFragmentsIsFound() throws {
        var capture = SyntheticCapture()
        capture.connect(0x40)
        let pdu: [UInt8] = [0x1B, 0x10, 0x00] + Array("abcsecretxyz".utf8)
        let l2cap = [UInt8(pdu.count), 0, 0x04, 0x00] + pdu
        capture.add(HCIACLPacket(handle: 0x40, packetBoundary: .firstNonFlushable, data: Array(l2cap[..<12])).packet, .sent)
        capture.add(HCIACLPacket(handle: 0x40, packetBoundary: .continuing, data: Array(l2cap[12...])).packet, .sent)
        let check = try verdict("BFT/SEC/BV-04", in: capture, options: CheckOptions(plaintext: Array("secret".utf8)))
        #expect(check.verdict == .fail)
        #expect(check.frames == [3])
    }
}

/// Hex text to bytes; a malformed literal is a bug in the test.
private func hexBytes(_ text: String) -> [UInt8] {
    guard let value = bytes(fromHex: text) else { fatalError("bad hex literal in test: \(text)") }
    return value
}

// issue 16: files and views
@Suite("Check: captures that start mid-connection, frames of non-packet records")
struct CaptureJoinedMidwayTests {
    @Test func attWithoutConnectionOrMTUExchangeIsInconclusive() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        capture.notify(0x40, Array(repeating: 1, count: 100))  // fits an ATT_MTU exchanged before the capture
        let check = try #require(CaptureAnalyser.check(capture.records).first { $0.id == "CAP/ATT/BV-01" })
        #expect(check.verdict == .inconclusive, "\(check.reason)")
        #expect(check.reason.contains("mid-connection"))
    }

    @Test func theSameValueAfterAConnectionCompleteFails() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 8)
        capture.connect(0x40)
        capture.notify(0x40, Array(repeating: 1, count: 100))
        let check = try #require(CaptureAnalyser.check(capture.records).first { $0.id == "CAP/ATT/BV-01" })
        #expect(check.verdict == .fail)
    }

    @Test func anMTUExchangeSeenMidwayIsJudged() throws {
        var capture = SyntheticCapture()
        capture.exchangeMTU(0x41, request: 50, response: 50)
        capture.notify(0x41, Array(repeating: 1, count: 48))
        let check = try #require(CaptureAnalyser.check(capture.records).first { $0.id == "CAP/ATT/BV-01" })
        #expect(check.verdict == .fail)
        #expect(check.frames == [3])
    }

    @Test func skippedRecordsTakeFrameNumbers() throws {
        var capture = SyntheticCapture()
        capture.connect(0x40)
        capture.notify(0x40, Array(repeating: 1, count: 21))
        var analyser = CaptureAnalyser()
        analyser.skipRecord()  // btmon's New Index
        analyser.consume(capture.records[0])
        analyser.skipRecord()  // a system note
        analyser.consume(capture.records[1])
        let check = try #require(analyser.checks().first { $0.id == "CAP/ATT/BV-01" })
        #expect(check.frames == [4])

        // The same capture read whole: its note frames number the packets alike.
        var file = CaptureFile(path: "btmon.log", format: .btsnoop, linkType: 2001, records: capture.records, skipped: 2)
        file.noteFrames = [1, 3]
        #expect(CaptureAnalyser.check(file).first { $0.id == "CAP/ATT/BV-01" }?.frames == [4])
    }
}

// issue 16: views
@Suite("inspect views: packet layers and handles, the per-connection summary")
struct CaptureViewTests {
    @Test func layersAndHandlesFollowFragments() {
        var capture = SyntheticCapture()
        capture.connect(0x41)
        capture.exchangeMTU(0x41, request: 100, response: 60)
        // An SMP Pairing Failed, then an ATT value fragmented: its continuation is ATT too.
        capture.add(HCIACLPacket(handle: 0x41, packetBoundary: .firstNonFlushable, data: [2, 0, 6, 0, 0x05, 0x08]).packet, .received)
        capture.add(HCIACLPacket(handle: 0x41, packetBoundary: .firstNonFlushable, data: [6, 0, 4, 0, 0x1B, 0x10, 0x00]).packet, .sent)
        capture.add(HCIACLPacket(handle: 0x41, packetBoundary: .continuing, data: [1, 2, 3]).packet, .sent)
        capture.disconnect(0x41)
        var classifier = PacketClassifier()
        let contexts = capture.records.map { classifier.classify($0) }
        #expect(contexts.map(\.handle) == [0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41])
        #expect(contexts[0].layers == [.hci])
        #expect(contexts[1].layers == [.acl, .l2cap, .att])
        #expect(contexts[3].layers == [.acl, .l2cap, .smp])
        #expect(contexts[5].layers == [.acl, .l2cap, .att])
    }

    @Test func summaryCountsPerConnection() throws {
        var capture = SyntheticCapture()
        capture.leBuffers(length: 251, count: 4)
        capture.connect(0x40)
        capture.exchangeMTU(0x40, request: 185, response: 517)
        capture.notify(0x40, [1, 2, 3])
        capture.notify(0x40, [4, 5, 6])
        capture.completed(0x40, 2)
        capture.att(0x40, [0x01, 0x0A, 0x10, 0x00, 0x0A], .received)  // Error Response: attribute not found
        capture.disconnect(0x40)
        capture.notify(0x42, [9])  // a link the capture joined mid-way
        var summary = CaptureSummary()
        for (index, record) in capture.records.enumerated() { summary.consume(record, frame: index + 1) }
        #expect(summary.buffers?.count == 4)
        #expect(summary.connections.map(\.handle) == [0x40, 0x42])
        let first = try #require(summary.connections.first)
        #expect(first.connectedFrame == 2)
        #expect(first.attMTU == 185)
        #expect(first.role == "peripheral")
        #expect(first.aclSent == 3 && first.aclReceived == 2)
        #expect(first.mostInFlight == 3)
        #expect(first.attErrors == 1)
        #expect(first.disconnectedFrame == 9)
        #expect(first.disconnectionReason?.contains("0x13") == true)
        #expect(summary.connections[1].connectedFrame == nil)
    }
}
