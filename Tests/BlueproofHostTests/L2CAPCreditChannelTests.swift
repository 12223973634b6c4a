import BlueproofHost
import BlueproofWire
import Testing

@Suite("L2CAP LE credit-based channel (Vol 3, Part A §10.1)")
struct L2CAPCreditChannelTests {
    /// Local: CID 0x40, MTU 100, MPS 30, grants `localCredits`. Remote: CID 0x41, MTU 200, MPS 25, grants `remoteCredits`.
    func channel(localCredits: UInt16 = 4, remoteCredits: UInt16 = 2) -> L2CAPCreditChannel {
        L2CAPCreditChannel(
            spsm: L2CAPSPSM(0x80),
            local: .init(cid: L2CAPChannelID(0x40), mtu: 100, mps: 30, initialCredits: localCredits),
            remote: .init(cid: L2CAPChannelID(0x41), mtu: 200, mps: 25, initialCredits: remoteCredits))
    }

    @Test func sendSegmentsByRemoteMPSAndQueuesBeyondCredits() throws {
        var channel = channel()
        let sdu = (0..<60).map { UInt8($0) }
        let sent = try channel.send(sdu: sdu)
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.channelID == L2CAPChannelID(0x41) })
        #expect(sent[0].payload.count == 25)
        #expect(Array(sent[0].payload.prefix(3)) == [60, 0, 0])
        #expect(sent[1].payload == Array(sdu[23..<48]))
        #expect(channel.sendCredits == 0)
        #expect(channel.queuedFrameCount == 1)
        let released = try channel.receiveCredits(5)
        #expect(released.map(\.payload) == [Array(sdu[48...])])
        #expect(channel.sendCredits == 4)
        #expect(channel.queuedFrameCount == 0)
    }

    @Test func sduAboveTheRemoteMTUIsRefusedWhole() {
        var channel = channel()
        #expect(throws: L2CAPRequestError.sduExceedsRemoteMTU(size: 201, mtu: 200)) {
            try channel.send(sdu: [UInt8](repeating: 0, count: 201))
        }
        #expect(channel.queuedFrameCount == 0)
        #expect(channel.sendCredits == 2)
    }

    @Test func creditsPastSixtyFiveThousandFiveHundredThirtyFiveAreAViolation() throws {
        var channel = channel()
        #expect(throws: L2CAPCreditChannelViolation.creditOverflow(current: 2, added: 65534)) {
            try channel.receiveCredits(65534)
        }
        _ = try channel.receiveCredits(65533)
        #expect(channel.sendCredits == 65535)
    }

    @Test func reassemblesAndReturnsCreditsAtHalfTheGrant() throws {
        var channel = channel()
        let first = try channel.receive(payload: [0x05, 0x00, 1, 2, 3])
        #expect(first.sdu == nil)
        #expect(first.creditsToReturn == 0)
        #expect(channel.isReassembling)
        let second = try channel.receive(payload: [4, 5])
        #expect(second.sdu == [1, 2, 3, 4, 5])
        #expect(second.creditsToReturn == 2)
        #expect(channel.peerCredits == 4)
        #expect(!channel.isReassembling)
    }

    @Test func emptySDU() throws {
        var channel = channel()
        #expect(try channel.receive(payload: [0, 0]).sdu == [])
    }

    @Test func aSteadyStreamNeverStalls() throws {
        for grant in [UInt16(1), 2, 3, 10] {
            var channel = channel(localCredits: grant)
            var peerCredits = Int(grant)
            var delivered = 0
            for index in 0..<200 {
                try #require(peerCredits > 0, "stalled at SDU \(index) with grant \(grant)")
                peerCredits -= 1
                let reception = try channel.receive(payload: [1, 0, UInt8(truncatingIfNeeded: index)])
                if reception.sdu != nil { delivered += 1 }
                peerCredits += Int(reception.creditsToReturn)
            }
            #expect(delivered == 200)
        }
    }

    @Test func violations() throws {
        var noCredit = channel(localCredits: 0)
        #expect(throws: L2CAPCreditChannelViolation.frameWithoutCredit) { try noCredit.receive(payload: [1, 0, 1]) }

        var big = channel()
        #expect(throws: L2CAPCreditChannelViolation.frameExceedsMPS(size: 31, mps: 30)) {
            try big.receive(payload: [UInt8](repeating: 0, count: 31))
        }
        var overMTU = channel()
        #expect(throws: L2CAPCreditChannelViolation.sduExceedsMTU(sduLength: 101, mtu: 100)) {
            try overMTU.receive(payload: [101, 0, 1])
        }
        var overrunFirst = channel()
        #expect(throws: L2CAPCreditChannelViolation.sduOverrun(sduLength: 3, received: 4)) {
            try overrunFirst.receive(payload: [3, 0, 1, 2, 3, 4])
        }
        var overrunLater = channel()
        _ = try overrunLater.receive(payload: [3, 0, 1])
        #expect(throws: L2CAPCreditChannelViolation.sduOverrun(sduLength: 3, received: 4)) {
            try overrunLater.receive(payload: [2, 3, 4])
        }
        var short = channel()
        #expect(throws: L2CAPCreditChannelViolation.missingSDULength(size: 1)) { try short.receive(payload: [5]) }
    }

    @Test func returnsCreditsAsSoonAsHalfTheGrantIsUsed() throws {
        var channel = channel(localCredits: 2)
        let reception = try channel.receive(payload: [50, 0, 1])
        #expect(reception.creditsToReturn == 1)
        #expect(channel.peerCredits == 2)
        var ten = self.channel(localCredits: 10)
        var returned: [UInt16] = []
        for _ in 0..<10 { returned.append(try ten.receive(payload: [1, 0, 7]).creditsToReturn) }
        #expect(returned == [0, 0, 0, 0, 5, 0, 0, 0, 0, 5])
    }

    @Test func withheldCreditsStayWithThisSideUntilResumed() throws {
        var channel = channel(localCredits: 4)
        #expect(channel.withholdCredits(true) == 0)
        var returned: [UInt16] = []
        for _ in 0..<4 { returned.append(try channel.receive(payload: [1, 0, 7]).creditsToReturn) }
        #expect(returned == [0, 0, 0, 0])
        #expect(channel.peerCredits == 0)
        #expect(throws: L2CAPCreditChannelViolation.frameWithoutCredit) { try channel.receive(payload: [1, 0, 7]) }
        var resumed = self.channel(localCredits: 4)
        _ = resumed.withholdCredits(true)
        for _ in 0..<3 { _ = try resumed.receive(payload: [1, 0, 7]) }
        #expect(resumed.withholdCredits(false) == 3)
        #expect(resumed.peerCredits == 4)
        #expect(resumed.withholdCredits(false) == 0)
    }
}
