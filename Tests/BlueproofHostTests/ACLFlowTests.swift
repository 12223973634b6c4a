import BlueproofHost
import BlueproofWire
import Testing

/// A B-frame of `payload` octets on `cid`: basic header (length, CID) then a counting payload.
private func bFrame(_ payload: Int, cid: UInt16 = 0x0004, seed: UInt8 = 0) -> [UInt8] {
    [UInt8(payload & 0xFF), UInt8(payload >> 8), UInt8(cid & 0xFF), UInt8(cid >> 8)]
        + (0..<payload).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }
}

private func dataLengths(_ packets: [HCIACLPacket]) -> [Int] { packets.map(\.data.count) }

@Suite struct ACLFlowTests {
    @Test("fragments to the buffer size, first non-flushable then continuing",
          arguments: [(27, [27, 27, 27, 23]), (192, [104]), (251, [104])] as [(Int, [Int])])
    func fragmentsToBufferSize(_ size: Int, _ expected: [Int]) throws {
        var flow = ACLFlow(bufferSize: size, bufferCount: 8)
        flow.open(handle: 0x0040)
        let pdu = bFrame(100)
        let packets = try flow.send(pdu, on: 0x0040)
        #expect(dataLengths(packets) == expected)
        #expect(packets.first?.packetBoundary == .firstNonFlushable)
        #expect(packets.dropFirst().allSatisfy { $0.packetBoundary == .continuing })
        #expect(packets.allSatisfy { $0.handle == 0x0040 && $0.broadcast == .pointToPoint })
        #expect(packets.flatMap(\.data) == pdu)
        #expect(flow.inFlight(on: 0x0040) == expected.count)
        #expect(flow.freeBuffers == 8 - expected.count)
        #expect(flow.queuedPDUs(on: 0x0040) == 0)
    }

    @Test("a PDU of exactly n buffers, and one octet more",
          arguments: [27, 192, 251])
    func exactMultiples(_ size: Int) throws {
        var flow = ACLFlow(bufferSize: size, bufferCount: 10)
        flow.open(handle: 1)
        let exact = bFrame(3 * size - 4)
        #expect(dataLengths(try flow.send(exact, on: 1)) == [size, size, size])
        let oneMore = bFrame(3 * size - 3)
        #expect(dataLengths(try flow.send(oneMore, on: 1)) == [size, size, size, 1])
    }

    @Test func wireBytesOfAFirstFragment() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 0x0001)
        let packets = try flow.send(bFrame(1, cid: 0x0004), on: 0x0001)
        // Handle 0x001 with PB 0b00, BC 0b00; length 5; then the B-frame.
        #expect(packets.map { hex($0.packet.h4Bytes) } == ["020100050001000400" + "00"])
    }

    @Test func creditsExhaustedThenReturned() throws {
        // btvirt: 192 octets x 1 buffer.
        var flow = ACLFlow(bufferSize: 192, bufferCount: 1)
        flow.open(handle: 0x0042)
        let first = try flow.send(bFrame(300), on: 0x0042)
        #expect(dataLengths(first) == [192])
        let second = try flow.send(bFrame(10, seed: 7), on: 0x0042)
        #expect(second.isEmpty)
        #expect(flow.freeBuffers == 0)
        #expect(flow.queuedPDUs(on: 0x0042) == 2)

        let (afterOne, v1) = flow.completed(1, on: 0x0042)
        #expect(v1 == nil)
        #expect(dataLengths(afterOne) == [112])
        #expect(afterOne.first?.packetBoundary == .continuing)
        #expect(flow.queuedPDUs(on: 0x0042) == 1)

        let (afterTwo, _) = flow.completed(1, on: 0x0042)
        #expect(dataLengths(afterTwo) == [14])
        #expect(afterTwo.first?.packetBoundary == .firstNonFlushable)
        #expect(afterTwo.first?.data == bFrame(10, seed: 7))

        let (afterThree, _) = flow.completed(1, on: 0x0042)
        #expect(afterThree.isEmpty)
        #expect(flow.freeBuffers == 1)
        #expect(flow.inFlight(on: 0x0042) == 0)
        #expect(flow.queuedPDUs(on: 0x0042) == 0)
    }

    @Test func rootcanalBurstReturnsSeveralCredits() throws {
        // Rootcanal: 27 octets x 20 buffers, completions in bursts.
        var flow = ACLFlow(bufferSize: 27, bufferCount: 20)
        flow.open(handle: 1)
        let sent = try flow.send(bFrame(600), on: 1)
        #expect(sent.count == 20)
        let (more, violation) = flow.completed(15, on: 1)
        #expect(violation == nil)
        #expect(more.count == 3)
        #expect(dataLengths(more) == [27, 27, 10])
        #expect(flow.freeBuffers == 12)
        #expect((sent + more).flatMap(\.data) == bFrame(600))
    }

    @Test func twoHandlesTakeTurns() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 0x0A)
        flow.open(handle: 0x0B)
        let a = bFrame(60, seed: 0)   // 64 octets: 27, 27, 10
        let b = bFrame(60, seed: 100)
        #expect(try flow.send(a, on: 0x0A).count == 1)
        #expect(try flow.send(b, on: 0x0B).isEmpty)

        var order: [HCIACLPacket] = []
        for _ in 0..<6 {
            let (packets, violation) = flow.completed(1, on: order.last?.handle ?? 0x0A)
            #expect(violation == nil)
            order += packets
        }
        // B's first fragment goes before A's second: turns alternate per packet.
        #expect(order.map(\.handle) == [0x0B, 0x0A, 0x0B, 0x0A, 0x0B])
        #expect(order.filter { $0.handle == 0x0B }.map(\.packetBoundary) == [.firstNonFlushable, .continuing, .continuing])
        #expect(order.filter { $0.handle == 0x0B }.flatMap(\.data) == b)
        #expect(order.filter { $0.handle == 0x0A }.flatMap(\.data) == Array(a.dropFirst(27)))
    }

    @Test func roundRobinSharesABurstFairly() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 3)
        for handle: UInt16 in [1, 2, 3] { flow.open(handle: handle) }
        _ = try flow.send(bFrame(200), on: 1)  // takes all three buffers
        _ = try flow.send(bFrame(200), on: 2)
        _ = try flow.send(bFrame(200), on: 3)
        let (burst, _) = flow.completed(3, on: 1)
        // Handle 1 just had its turns; 2 and 3 go first, then 1.
        #expect(burst.map(\.handle) == [2, 3, 1])
        // One buffer back at a time: the turn goes on from where it stopped.
        var next: [HCIACLPacket] = []
        for handle: UInt16 in [2, 3, 1] {
            let (packets, violation) = flow.completed(1, on: handle)
            #expect(violation == nil)
            next += packets
        }
        #expect(next.map(\.handle) == [2, 3, 1])
    }

    @Test func pdusOfOneHandleStayInOrder() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 5)
        let pdus = (0..<4).map { bFrame(30 + $0, seed: UInt8($0 * 40)) }
        var out: [HCIACLPacket] = []
        for pdu in pdus { out += try flow.send(pdu, on: 5) }
        while flow.inFlight(on: 5) > 0 { out += flow.completed(1, on: 5).packets }
        // Reassemble by PB flag.
        var rebuilt: [[UInt8]] = []
        for packet in out {
            if packet.packetBoundary == .firstNonFlushable { rebuilt.append(packet.data) } else { rebuilt[rebuilt.count - 1] += packet.data }
        }
        #expect(rebuilt == pdus)
    }

    @Test func sendOnUnknownHandleThrows() {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 4)
        #expect(throws: ACLFlowViolation.unknownHandle(0x0040)) { try flow.send(bFrame(4), on: 0x0040) }
        flow.open(handle: 0x0040)
        _ = flow.close(handle: 0x0040)
        #expect(throws: ACLFlowViolation.unknownHandle(0x0040)) { try flow.send(bFrame(4), on: 0x0040) }
        #expect(flow.freeBuffers == 4)
    }

    @Test func zeroLengthPDUIsRefusedAndSpendsNothing() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 2)
        flow.open(handle: 1)
        #expect(throws: ACLFlowViolation.emptyPDU(handle: 1)) { try flow.send([], on: 1) }
        #expect(flow.freeBuffers == 2)
        #expect(flow.queuedPDUs(on: 1) == 0)
        // A PDU of a bare header (zero-length payload) is a real PDU: one 4-octet fragment.
        let packets = try flow.send(bFrame(0), on: 1)
        #expect(packets == [HCIACLPacket(handle: 1, packetBoundary: .firstNonFlushable, data: [0, 0, 4, 0])])
    }

    @Test func tooManyCompletedIsReportedAndTheExcessIgnored() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 4)
        flow.open(handle: 1)
        flow.open(handle: 2)
        _ = try flow.send(bFrame(40), on: 1)   // 2 packets
        _ = try flow.send(bFrame(10), on: 2)   // 1 packet
        let (packets, violation) = flow.completed(5, on: 1)
        #expect(packets.isEmpty)
        #expect(violation == .tooManyCompleted(handle: 1, reported: 5, inFlight: 2))
        // Handle 2's packet is still counted in flight: the excess did not leak credits.
        #expect(flow.freeBuffers == 3)
        #expect(flow.inFlight(on: 2) == 1)
        #expect(violation?.description == "handle 0x0001: Number Of Completed Packets reported 5 packet(s) with only 2 in flight; the excess was ignored")
    }

    @Test func completedForUnknownHandleIsReported() {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 2)
        let (packets, violation) = flow.completed(1, on: 0x0123)
        #expect(packets.isEmpty)
        #expect(violation == .completedForUnknownHandle(0x0123))
        #expect(flow.freeBuffers == 2)
        #expect(flow.completed(0, on: 0x0123).violation == nil)
    }

    @Test func negativeCompletedIsReported() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 2)
        flow.open(handle: 1)
        _ = try flow.send(bFrame(10), on: 1)
        #expect(flow.completed(-1, on: 1).violation == .negativeCompleted(handle: 1, reported: -1))
        #expect(flow.inFlight(on: 1) == 1)
    }

    @Test func closeFreesInFlightCreditsAndDropsTheQueue() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 2)
        flow.open(handle: 1)
        flow.open(handle: 2)
        _ = try flow.send(bFrame(100), on: 1)        // 2 of 4 fragments out
        _ = try flow.send(bFrame(10), on: 1)
        _ = try flow.send(bFrame(30, seed: 9), on: 2) // queued
        #expect(flow.freeBuffers == 0)
        #expect(flow.queuedPDUs(on: 1) == 2)

        let (dropped, packets) = flow.close(handle: 1)
        #expect(dropped == 2)   // the half-sent PDU and the one behind it
        #expect(packets.map(\.handle) == [2, 2])
        #expect(packets.flatMap(\.data) == bFrame(30, seed: 9))
        #expect(flow.freeBuffers == 0)
        #expect(flow.inFlight(on: 1) == 0)
        #expect(flow.queuedPDUs(on: 1) == 0)
        // A late completion for the closed handle frees nothing and is reported.
        #expect(flow.completed(2, on: 1).violation == .completedForUnknownHandle(1))
        #expect(flow.freeBuffers == 0)
        #expect(flow.close(handle: 1) == (0, []))
    }

    @Test func closeKeepsTheTurnOrderOfTheOthers() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        for handle: UInt16 in [1, 2, 3] { flow.open(handle: handle) }
        _ = try flow.send(bFrame(100), on: 1)
        _ = try flow.send(bFrame(100), on: 2)
        _ = try flow.send(bFrame(100), on: 3)
        #expect(flow.completed(1, on: 1).packets.map(\.handle) == [2])
        // Closing 2 (in flight) frees its buffer; 3 was next and keeps its turn.
        #expect(flow.close(handle: 2).packets.map(\.handle) == [3])
        #expect(flow.completed(1, on: 3).packets.map(\.handle) == [1])
    }

    @Test func reopenedHandleStartsClean() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 7)
        _ = try flow.send(bFrame(100), on: 7)
        _ = flow.close(handle: 7)
        flow.open(handle: 7)
        flow.open(handle: 7)  // opening twice changes nothing
        #expect(flow.queuedPDUs(on: 7) == 0)
        let packets = try flow.send(bFrame(1), on: 7)
        #expect(packets.count == 1)
        #expect(packets.first?.packetBoundary == .firstNonFlushable)
    }

    @Test func handlesUseTheTwelveWireBits() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 0xF001)
        #expect(try flow.send(bFrame(1), on: 0x0001).first?.handle == 0x0001)
        #expect(flow.inFlight(on: 0x1001) == 1)
    }

    @Test func degenerateBufferSizesNeverTrap() throws {
        var flow = ACLFlow(bufferSize: 0, bufferCount: -3)
        #expect(flow.bufferSize == 1)
        #expect(flow.bufferCount == 0)
        flow.open(handle: 1)
        #expect(try flow.send(bFrame(2), on: 1).isEmpty)
        #expect(flow.queuedPDUs(on: 1) == 1)
        #expect(flow.freeBuffers == 0)
    }

    @Test func manyPDUsDrainCompletely() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 3)
        flow.open(handle: 1)
        flow.open(handle: 2)
        var sent: [UInt16: [UInt8]] = [1: [], 2: []]
        var expected: [UInt16: [UInt8]] = [1: [], 2: []]
        var rng = 0x2545F491
        var written: [HCIACLPacket] = []
        for index in 0..<200 {
            let handle: UInt16 = index % 3 == 0 ? 2 : 1
            rng = (rng &* 1103515245 &+ 12345) & 0x7FFF_FFFF
            let pdu = bFrame(rng % 120, seed: UInt8(index & 0xFF))
            expected[handle, default: []] += pdu
            written += try flow.send(pdu, on: handle)
            if index % 5 == 0, let busy = ([1, 2] as [UInt16]).first(where: { flow.inFlight(on: $0) > 0 }) {
                let (packets, violation) = flow.completed(1, on: busy)
                #expect(violation == nil)
                written += packets
            }
        }
        while flow.inFlight(on: 1) + flow.inFlight(on: 2) > 0 {
            for handle: UInt16 in [1, 2] where flow.inFlight(on: handle) > 0 {
                written += flow.completed(flow.inFlight(on: handle), on: handle).packets
            }
        }
        for packet in written { sent[packet.handle, default: []] += packet.data }
        #expect(sent == expected)
        #expect(written.allSatisfy { $0.data.count <= 27 })
        #expect(flow.freeBuffers == 3)
    }

    /// A PDU has left only when the controller completed its last fragment (Vol 4, Part E
    /// §7.7.19); a sender that counts PDUs handed over instead reports data the controller may
    /// still drop (issue 14: a transfer reported whole after a disconnection at 60 %).
    @Test("PDUs count as completed once every fragment is, in order; none after a close")
    func completedPDUs() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 2)
        flow.open(handle: 0x0040)
        _ = try flow.send(bFrame(46), on: 0x0040)   // 50 octets: 2 fragments
        _ = try flow.send(bFrame(10), on: 0x0040)   // 1 fragment, queued
        #expect(flow.pdusQueued(on: 0x0040) == 2)
        #expect(flow.pdusCompleted(on: 0x0040) == 0)
        #expect(flow.completed(1, on: 0x0040).packets.count == 1)
        #expect(flow.pdusCompleted(on: 0x0040) == 0, "one fragment of two completed")
        _ = flow.completed(1, on: 0x0040)
        #expect(flow.pdusCompleted(on: 0x0040) == 1)
        _ = flow.completed(1, on: 0x0040)
        #expect(flow.pdusCompleted(on: 0x0040) == 2)
        // An excess count completes nothing that was not sent.
        _ = flow.completed(3, on: 0x0040)
        #expect(flow.pdusCompleted(on: 0x0040) == 2)
        _ = try flow.send(bFrame(10), on: 0x0040)
        #expect(flow.pdusQueued(on: 0x0040) == 3)
        _ = flow.close(handle: 0x0040)
        #expect(flow.pdusQueued(on: 0x0040) == 0 && flow.pdusCompleted(on: 0x0040) == 0)
    }

    @Test("a paused handle keeps its fragments queued and lets others take the buffers; resumed, it goes on")
    func pauseAndResume() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 1)
        flow.open(handle: 2)
        #expect(dataLengths(try flow.send(bFrame(56), on: 1)) == [27])
        #expect(try flow.send(bFrame(10), on: 2).isEmpty)
        flow.pause(handle: 1, for: .disconnecting)
        #expect(flow.completed(1, on: 1).packets.map(\.handle) == [2])
        #expect(flow.completed(1, on: 2).packets.isEmpty)
        #expect(flow.freeBuffers == 1)
        #expect(flow.queuedPDUs(on: 1) == 1)
        #expect(flow.resume(handle: 2, from: .disconnecting).isEmpty)
        #expect(dataLengths(flow.resume(handle: 1, from: .disconnecting)) == [27])
        #expect(flow.resume(handle: 1, from: .disconnecting).isEmpty)
        flow.pause(handle: 9, for: .disconnecting)
        #expect(flow.resume(handle: 9, from: .disconnecting).isEmpty)
    }

    @Test("a handle held for two reasons stays held until both are resumed")
    func holdReasons() throws {
        var flow = ACLFlow(bufferSize: 27, bufferCount: 1)
        flow.open(handle: 1)
        flow.pause(handle: 1, for: .disconnecting)
        flow.pause(handle: 1, for: .endRead)
        #expect(try flow.send(bFrame(10), on: 1).isEmpty)
        #expect(flow.resume(handle: 1, from: .disconnecting).isEmpty, "released while its end was read")
        #expect(flow.freeBuffers == 1 && flow.queuedPDUs(on: 1) == 1)
        #expect(dataLengths(flow.resume(handle: 1, from: .endRead)) == [14])
    }
}
