import BlueproofHost
import BlueproofWire
import Testing

@Suite struct HCICommandFlowTests {
    let reset = HCICommandPacket(opcode: HCIOpcode(ogf: 0x03, ocf: 0x0003), parameters: [])
    let readAddress = HCICommandPacket(opcode: HCIOpcode(ogf: 0x04, ocf: 0x0009), parameters: [])
    let createConnection = HCICommandPacket(opcode: HCIOpcode(ogf: 0x08, ocf: 0x000D), parameters: [1, 2])

    @Test func sendsOneCommandAfterResetAndQueuesTheRest() {
        var flow = HCICommandFlow()
        let (first, a1) = flow.submit(reset)
        let (_, a2) = flow.submit(readAddress)
        #expect(a1 == [.send(first, reset)])
        #expect(a2.isEmpty)
        #expect(flow.queuedCount == 1)
        #expect(flow.credits == 0)
    }

    @Test func completeAnswersTheCommandAndReleasesTheQueue() {
        var flow = HCICommandFlow()
        let (first, _) = flow.submit(reset)
        let (second, _) = flow.submit(readAddress)
        let actions = flow.commandComplete(opcode: reset.opcode, numHCICommandPackets: 1, returnParameters: [0])
        #expect(actions == [.answer(first, .complete(returnParameters: [0])), .send(second, readAddress)])
        #expect(flow.outstandingCount == 1)
    }

    @Test func allowanceComesFromTheControllerNotFromCounting() {
        var flow = HCICommandFlow()
        _ = flow.submit(reset)
        let tickets = (0..<3).map { _ in flow.submit(readAddress).0 }
        // The controller grants 3 at once: the three queued commands go out together.
        let actions = flow.commandComplete(opcode: reset.opcode, numHCICommandPackets: 3, returnParameters: [0])
        #expect(actions.filter { if case .send = $0 { true } else { false } }.count == 3)
        #expect(flow.credits == 0)
        // A zero allowance holds new commands back even with nothing outstanding.
        _ = flow.commandComplete(opcode: readAddress.opcode, numHCICommandPackets: 0, returnParameters: [0])
        _ = flow.commandComplete(opcode: readAddress.opcode, numHCICommandPackets: 0, returnParameters: [0])
        _ = flow.commandComplete(opcode: readAddress.opcode, numHCICommandPackets: 0, returnParameters: [0])
        let (late, held) = flow.submit(reset)
        #expect(held.isEmpty)
        let released = flow.commandComplete(opcode: HCIOpcode(rawValue: 0), numHCICommandPackets: 1, returnParameters: [])
        #expect(released == [.send(late, reset)])
        #expect(tickets.count == 3)
    }

    @Test func statusAnswersACommandToo() {
        var flow = HCICommandFlow()
        let (ticket, _) = flow.submit(createConnection)
        let actions = flow.commandStatus(opcode: createConnection.opcode, numHCICommandPackets: 1, status: .success)
        #expect(actions == [.answer(ticket, .status(.success))])
    }

    @Test func sameOpcodeIsAnsweredOldestFirst() {
        var flow = HCICommandFlow()
        _ = flow.commandComplete(opcode: HCIOpcode(rawValue: 0), numHCICommandPackets: 2, returnParameters: [])
        let (first, _) = flow.submit(readAddress)
        let (second, _) = flow.submit(readAddress)
        let a1 = flow.commandComplete(opcode: readAddress.opcode, numHCICommandPackets: 1, returnParameters: [1])
        let a2 = flow.commandComplete(opcode: readAddress.opcode, numHCICommandPackets: 1, returnParameters: [2])
        #expect(a1 == [.answer(first, .complete(returnParameters: [1]))])
        #expect(a2 == [.answer(second, .complete(returnParameters: [2]))])
    }

    @Test func unsolicitedAnswerIsAViolationButItsAllowanceCounts() {
        var flow = HCICommandFlow()
        _ = flow.submit(reset)
        let (queued, _) = flow.submit(readAddress)
        let actions = flow.commandStatus(opcode: createConnection.opcode, numHCICommandPackets: 5, status: .success)
        #expect(actions == [
            .violation(HCICommandFlow.Violation(opcode: createConnection.opcode, event: "Command Status")),
            .send(queued, readAddress),
        ])
        #expect(flow.credits == 4)
    }

    @Test func abandonAndResetForgetCommands() {
        var flow = HCICommandFlow()
        let (first, _) = flow.submit(reset)
        let (second, _) = flow.submit(readAddress)
        flow.abandon(first)
        #expect(flow.outstandingCount == 0)
        let late = flow.commandComplete(opcode: reset.opcode, numHCICommandPackets: 1, returnParameters: [0])
        #expect(late == [.violation(HCICommandFlow.Violation(opcode: reset.opcode, event: "Command Complete")), .send(second, readAddress)])
        // The late answer still returned a credit, so the queued command went out.
        #expect(flow.outstandingCount == 1)
        #expect(flow.reset() == [second])
        #expect(flow.credits == 1)
    }
}
