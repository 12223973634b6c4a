import BlueproofHost
import BlueproofWire
import Testing

/// A B-frame of `payload` octets on `cid`: basic header then a counting payload.
private func frame(_ payload: Int, cid: UInt16 = 0x0004, seed: UInt8 = 0) -> [UInt8] {
    [UInt8(payload & 0xFF), UInt8(payload >> 8), UInt8(cid & 0xFF), UInt8(cid >> 8)]
        + (0..<payload).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }
}

private func start(_ data: [UInt8], handle: UInt16 = 0x0040,
                   flag: HCIACLPacketBoundary = .firstFlushable) -> HCIACLPacket {
    HCIACLPacket(handle: handle, packetBoundary: flag, data: data)
}

private func more(_ data: [UInt8], handle: UInt16 = 0x0040) -> HCIACLPacket {
    HCIACLPacket(handle: handle, packetBoundary: .continuing, data: data)
}

/// The error `receive` throws, nil when it does not throw.
private func receiveError(_ recombiner: inout L2CAPRecombiner, _ packet: HCIACLPacket) -> L2CAPRecombinationError? {
    do {
        _ = try recombiner.receive(packet)
        return nil
    } catch {
        return error
    }
}

@Suite struct L2CAPRecombinerTests {
    @Test("a whole PDU in one start fragment, with either start flag",
          arguments: [HCIACLPacketBoundary.firstFlushable, .firstNonFlushable])
    func singleFragment(_ flag: HCIACLPacketBoundary) throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(7)
        #expect(try recombiner.receive(start(pdu, flag: flag)) == pdu)
    }

    @Test func fromH4BytesOfAnATTReadResponse() throws {
        // ACL handle 0x0001, PB 0b10: L2CAP length 5, CID 0x0004 (ATT), Read Response "hello"[0..3].
        let packet = try HCIACLPacket(payload: #require(bytes(fromHex: "0120 0900 0500 0400 0b 68656c6c")))
        var recombiner = L2CAPRecombiner()
        #expect(try recombiner.receive(packet) == bytes(fromHex: "0500 0400 0b 68656c6c"))
    }

    @Test("fragments of the controller's buffer size recombine", arguments: [27, 192, 251])
    func manyFragments(_ size: Int) throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(1000)
        var results: [[UInt8]?] = []
        var offset = 0
        while offset < pdu.count {
            let piece = Array(pdu[offset..<min(pdu.count, offset + size)])
            results.append(try recombiner.receive(offset == 0 ? start(piece) : more(piece)))
            offset += size
        }
        #expect(results.dropLast().allSatisfy { $0 == nil })
        #expect(results.last == .some(pdu))
    }

    @Test("the basic header split across fragments", arguments: [1, 2, 3])
    func splitHeader(_ firstLength: Int) throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(10)
        #expect(try recombiner.receive(start(Array(pdu.prefix(firstLength)))) == nil)
        #expect(try recombiner.receive(more(Array(pdu[firstLength..<5]))) == nil)
        #expect(try recombiner.receive(more(Array(pdu[5...]))) == pdu)
    }

    @Test func headerInSingleOctets() throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(0)
        #expect(try recombiner.receive(start([pdu[0]])) == nil)
        #expect(try recombiner.receive(more([pdu[1]])) == nil)
        #expect(try recombiner.receive(more([pdu[2]])) == nil)
        #expect(try recombiner.receive(more([pdu[3]])) == pdu)
    }

    @Test func emptyFragmentsChangeNothing() throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(3)
        #expect(try recombiner.receive(start([])) == nil)
        #expect(try recombiner.receive(more(Array(pdu.prefix(4)))) == nil)
        #expect(try recombiner.receive(more([])) == nil)
        #expect(try recombiner.receive(more(Array(pdu.dropFirst(4)))) == pdu)
    }

    @Test func handlesAreIndependent() throws {
        var recombiner = L2CAPRecombiner()
        let a = frame(40, seed: 1)
        let b = frame(30, seed: 2)
        #expect(try recombiner.receive(start(Array(a.prefix(27)), handle: 1)) == nil)
        #expect(try recombiner.receive(start(Array(b.prefix(27)), handle: 2)) == nil)
        #expect(try recombiner.receive(more(Array(b.dropFirst(27)), handle: 2)) == b)
        #expect(try recombiner.receive(more(Array(a.dropFirst(27)), handle: 1)) == a)
    }

    @Test func continuationWithoutStartIsDropped() throws {
        var recombiner = L2CAPRecombiner()
        let error = receiveError(&recombiner, more([1, 2, 3], handle: 0x0041))
        #expect(error == .continuationWithoutStart(handle: 0x0041, length: 3))
        #expect(error?.handle == 0x0041)
        #expect(error?.description == "handle 0x0041: continuing fragment of 3 octet(s) with no PDU started; dropped")
        // Still usable.
        #expect(try recombiner.receive(start(frame(2), handle: 0x0041)) == frame(2))
    }

    @Test func newStartWhileIncompleteKeepsTheNewStart() throws {
        var recombiner = L2CAPRecombiner()
        let old = frame(40, seed: 1)
        let new = frame(40, seed: 2)
        #expect(try recombiner.receive(start(Array(old.prefix(27)))) == nil)
        let error = receiveError(&recombiner, start(Array(new.prefix(27))))
        #expect(error == .startWhileIncomplete(handle: 0x0040, receivedBytes: 27, expectedBytes: 44, newStart: .incomplete))
        #expect(error?.completedPDU == nil)
        #expect(error?.description == "handle 0x0040: a new PDU started while one was incomplete (27 of 44 octets); the incomplete PDU was dropped, the new PDU was kept")
        // The new start was kept: its continuation completes it.
        #expect(try recombiner.receive(more(Array(new.dropFirst(27)))) == new)
    }

    @Test func newStartThatIsWholeIsCarriedByTheError() throws {
        var recombiner = L2CAPRecombiner()
        #expect(try recombiner.receive(start([0x28])) == nil)  // one octet: length unknown
        let whole = frame(5)
        let error = receiveError(&recombiner, start(whole))
        #expect(error == .startWhileIncomplete(handle: 0x0040, receivedBytes: 1, expectedBytes: nil, newStart: .complete(whole)))
        #expect(error?.completedPDU == whole)
        // Nothing left behind.
        #expect(receiveError(&recombiner, more([0])) == .continuationWithoutStart(handle: 0x0040, length: 1))
    }

    @Test func newStartThatIsBadIsReportedWithTheInterruption() throws {
        var recombiner = L2CAPRecombiner()
        #expect(try recombiner.receive(start(Array(frame(40).prefix(10)))) == nil)
        // Declares 2 payload octets, carries 3.
        let error = receiveError(&recombiner, start([0x02, 0x00, 0x04, 0x00, 1, 2, 3]))
        #expect(error == .startWhileIncomplete(
            handle: 0x0040, receivedBytes: 10, expectedBytes: 44,
            newStart: .refused(.longerThanDeclared(handle: 0x0040, declaredBytes: 6, receivedBytes: 7))))
        #expect(error?.description.hasSuffix("the new PDU was refused too: 7 octets received where the basic header declares 6; PDU dropped") == true)
        #expect(try recombiner.receive(start(frame(1))) == frame(1))
    }

    @Test func moreBytesThanDeclaredDropsThePDU() throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(30)
        #expect(try recombiner.receive(start(Array(pdu.prefix(27)))) == nil)
        let error = receiveError(&recombiner, more(Array(pdu.dropFirst(27)) + [0xEE]))
        #expect(error == .longerThanDeclared(handle: 0x0040, declaredBytes: 34, receivedBytes: 35))
        #expect(error?.description == "handle 0x0040: 35 octets received where the basic header declares 34; PDU dropped")
        // Clean: a continuation now has no start, and a new PDU goes through.
        #expect(receiveError(&recombiner, more([1])) == .continuationWithoutStart(handle: 0x0040, length: 1))
        #expect(try recombiner.receive(start(pdu)) == pdu)
    }

    @Test func startLongerThanDeclaredIsDropped() {
        var recombiner = L2CAPRecombiner()
        let error = receiveError(&recombiner, start([0x00, 0x00, 0x04, 0x00, 0xFF]))
        #expect(error == .longerThanDeclared(handle: 0x0040, declaredBytes: 4, receivedBytes: 5))
    }

    @Test func pduAboveTheMaximumIsDroppedWithItsContinuations() throws {
        var recombiner = L2CAPRecombiner(maximumPDU: 4 + 64)
        let big = frame(100)
        let error = receiveError(&recombiner, start(Array(big.prefix(27))))
        #expect(error == .exceedsMaximum(handle: 0x0040, declaredBytes: 104, maximumBytes: 68))
        #expect(error?.description == "handle 0x0040: the basic header declares 104 octets, above the maximum of 68; PDU dropped")
        // The rest of the refused PDU passes quietly.
        #expect(try recombiner.receive(more(Array(big[27..<54]))) == nil)
        #expect(try recombiner.receive(more(Array(big[54...]))) == nil)
        // Then the handle is idle again.
        #expect(receiveError(&recombiner, more([1])) == .continuationWithoutStart(handle: 0x0040, length: 1))
        #expect(try recombiner.receive(start(frame(64))) == frame(64))
    }

    @Test func newStartEndsADiscardQuietly() throws {
        var recombiner = L2CAPRecombiner(maximumPDU: 20)
        #expect(receiveError(&recombiner, start(Array(frame(100).prefix(27)))) != nil)
        #expect(try recombiner.receive(start(frame(10))) == frame(10))
    }

    @Test func maximumCheckedOnceTheLengthIsKnown() {
        var recombiner = L2CAPRecombiner(maximumPDU: 10)
        #expect(receiveError(&recombiner, start([0x20])) == nil)
        #expect(receiveError(&recombiner, more([0x00])) == .exceedsMaximum(handle: 0x0040, declaredBytes: 36, maximumBytes: 10))
    }

    @Test func completePacketBoundaryIsNotUsedOnLE() throws {
        var recombiner = L2CAPRecombiner()
        let pdu = frame(30)
        #expect(try recombiner.receive(start(Array(pdu.prefix(27)))) == nil)
        let error = receiveError(&recombiner, start(frame(1), flag: .complete))
        #expect(error == .unsupportedPacketBoundary(handle: 0x0040, packetBoundary: .complete))
        #expect(error?.description == "handle 0x0040: packet boundary complete (0x03) is not used on LE-U; fragment dropped")
        // The PDU in progress survives.
        #expect(try recombiner.receive(more(Array(pdu.dropFirst(27)))) == pdu)
    }

    @Test func closeForgetsAPartialPDU() throws {
        var recombiner = L2CAPRecombiner()
        #expect(try recombiner.receive(start(Array(frame(40).prefix(27)))) == nil)
        recombiner.close(handle: 0x0040)
        // No "interrupted" error: the old connection's data is gone.
        #expect(try recombiner.receive(start(frame(2))) == frame(2))
        recombiner.close(handle: 0x0999)  // unknown: nothing happens
    }

    @Test func survivesRandomFragmentsWithoutTrapping() {
        var recombiner = L2CAPRecombiner(maximumPDU: 300)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        for _ in 0..<5000 {
            let length = Int(next() % 40)
            let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            let flag = HCIACLPacketBoundary(rawValue: UInt8(next() % 4))
            let packet = HCIACLPacket(handle: UInt16(next() % 3), packetBoundary: flag, data: data)
            do {
                if let pdu = try recombiner.receive(packet) { #expect(pdu.count >= 4) }
            } catch {
                if let pdu = error.completedPDU { #expect(pdu.count >= 4) }
            }
        }
        // Recovery holds: after the noise, each handle takes a fresh PDU.
        for handle: UInt16 in 0..<3 {
            var got: [UInt8]?
            do { got = try recombiner.receive(start(frame(5), handle: handle)) } catch { got = error.completedPDU }
            #expect(got == frame(5))
            #expect(receiveError(&recombiner, start(frame(6), handle: handle)) == nil)
        }
    }
}
