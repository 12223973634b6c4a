import Testing
import BlueproofWire

@Suite("L2CAP LE signaling commands (Vol 3, Part A §4)")
struct L2CAPSignalTests {
    /// Decodes `text`, checks the command, and checks it encodes back to the same bytes.
    func roundTrip(_ text: String, _ identifier: UInt8, _ command: L2CAPSignalCommand,
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = hexBytes(text)
        let signal = try L2CAPSignal(payload: bytes)
        #expect(signal == L2CAPSignal(identifier: identifier, command: command), sourceLocation: sourceLocation)
        #expect(signal.encoded == bytes, sourceLocation: sourceLocation)
    }

    @Test func commandRejects() throws {
        try roundTrip("01 01 0200 0000", 1, .commandReject(.notUnderstood))
        try roundTrip("01 02 0400 0100 1700", 2, .commandReject(.signalingMTUExceeded(actualMTU: 23)))
        try roundTrip("01 03 0600 0200 4000 4100", 3,
                      .commandReject(.invalidCID(local: L2CAPChannelID(0x40), remote: L2CAPChannelID(0x41))))
        try roundTrip("01 04 0400 0300 aabb", 4, .commandReject(L2CAPCommandReject(reason: L2CAPCommandRejectReason(rawValue: 3), data: [0xAA, 0xBB])))
        let reject = L2CAPCommandReject.invalidCID(local: L2CAPChannelID(0x40), remote: L2CAPChannelID(0x41))
        #expect(reject.invalidCIDs?.local == L2CAPChannelID(0x40))
        #expect(reject.invalidCIDs?.remote == L2CAPChannelID(0x41))
        #expect(reject.actualMTU == nil)
        #expect(L2CAPCommandReject.signalingMTUExceeded(actualMTU: 23).actualMTU == 23)
    }

    @Test func commandRejectDataMustFitTheReason() {
        expectWireError(offset: 6, .lengthMismatch(declared: 0, actual: 2)) { try L2CAPSignal(payload: hexBytes("01 01 0400 0000 aabb")) }
        expectWireError(offset: 6, .lengthMismatch(declared: 2, actual: 0)) { try L2CAPSignal(payload: hexBytes("01 01 0200 0100")) }
        expectWireError(offset: 6, .lengthMismatch(declared: 4, actual: 2)) { try L2CAPSignal(payload: hexBytes("01 01 0400 0200 4000")) }
        expectWireError(offset: 4, .truncated(needed: 2, available: 1)) { try L2CAPSignal(payload: hexBytes("01 01 0100 00")) }
    }

    @Test func disconnection() throws {
        let cids = (destination: L2CAPChannelID(0x40), source: L2CAPChannelID(0x41))
        try roundTrip("06 05 0400 4000 4100", 5, .disconnectionRequest(L2CAPDisconnectionRequest(destinationCID: cids.destination, sourceCID: cids.source)))
        try roundTrip("07 05 0400 4000 4100", 5, .disconnectionResponse(L2CAPDisconnectionResponse(destinationCID: cids.destination, sourceCID: cids.source)))
    }

    @Test func connectionParameterUpdate() throws {
        let request = L2CAPConnectionParameterUpdateRequest(
            intervalMin: LEConnectionInterval(rawValue: 6), intervalMax: LEConnectionInterval(rawValue: 12),
            latency: 0, timeout: LESupervisionTimeout(rawValue: 3200))
        try roundTrip("12 01 0800 0600 0c00 0000 800c", 1, .connectionParameterUpdateRequest(request))
        try roundTrip("13 01 0200 0100", 1, .connectionParameterUpdateResponse(L2CAPConnectionParameterUpdateResponse(result: .rejected)))
        try roundTrip("13 02 0200 0000", 2, .connectionParameterUpdateResponse(L2CAPConnectionParameterUpdateResponse(result: .accepted)))
        #expect(request.isValid)
    }

    @Test("connection parameter validity (§4.20)", arguments: [
        (UInt16(6), UInt16(12), UInt16(0), UInt16(3200), true),
        (24, 40, 4, 400, true),
        (5, 12, 0, 3200, false),      // interval below 7.5 ms
        (6, 3201, 0, 3200, false),    // interval above 4 s
        (40, 24, 0, 3200, false),     // min above max
        (6, 12, 500, 3200, false),    // latency above 499
        (6, 12, 0, 9, false),         // timeout below 100 ms
        (6, 12, 0, 3201, false),      // timeout above 32 s
        (3200, 3200, 0, 100, false),  // timeout shorter than two intervals
        (40, 40, 9, 100, false),      // (1 + 9) * 40 = 400 is not less than 4 * 100
        (40, 40, 8, 100, true),
    ])
    func connectionParameterValidity(min: UInt16, max: UInt16, latency: UInt16, timeout: UInt16, valid: Bool) {
        let request = L2CAPConnectionParameterUpdateRequest(
            intervalMin: LEConnectionInterval(rawValue: min), intervalMax: LEConnectionInterval(rawValue: max),
            latency: latency, timeout: LESupervisionTimeout(rawValue: timeout))
        #expect(request.isValid == valid)
    }

    @Test func leCreditBasedConnection() throws {
        try roundTrip("14 01 0a00 8000 4000 0002 f700 0a00", 1, .leCreditBasedConnectionRequest(
            L2CAPLECreditBasedConnectionRequest(spsm: L2CAPSPSM(0x80), sourceCID: L2CAPChannelID(0x40), mtu: 512, mps: 247, initialCredits: 10)))
        try roundTrip("15 01 0a00 4100 0002 f700 0a00 0000", 1, .leCreditBasedConnectionResponse(
            L2CAPLECreditBasedConnectionResponse(destinationCID: L2CAPChannelID(0x41), mtu: 512, mps: 247, initialCredits: 10, result: .successful)))
        try roundTrip("15 02 0a00 0000 0000 0000 0000 0200", 2, .leCreditBasedConnectionResponse(.refused(.spsmNotSupported)))
        try roundTrip("15 03 0a00 0000 0000 0000 0000 0b00", 3, .leCreditBasedConnectionResponse(.refused(.unacceptableParameters)))
        try roundTrip("15 04 0a00 0000 0000 0000 0000 ff00", 4, .leCreditBasedConnectionResponse(.refused(L2CAPLECreditBasedConnectionResult(rawValue: 0xFF))))
        #expect(L2CAPLECreditBasedConnectionResult.sourceCIDAlreadyAllocated.rawValue == 0x000A)
        #expect(L2CAPLECreditBasedConnectionResult.invalidSourceCID.rawValue == 0x0009)
        #expect(L2CAPLECreditBasedConnectionResult.noResourcesAvailable.rawValue == 0x0004)
        #expect(L2CAPLECreditBasedConnectionResult(rawValue: 0xFF).description == "0x00ff")
    }

    @Test func flowControlCreditIndication() throws {
        try roundTrip("16 07 0400 4000 0500", 7, .flowControlCreditIndication(L2CAPFlowControlCreditIndication(cid: L2CAPChannelID(0x40), credits: 5)))
    }

    @Test func unknownCodesArePreserved() throws {
        try roundTrip("0a 09 0200 0200", 9, .unknown(code: .informationRequest, data: [0x02, 0x00]))
        try roundTrip("17 01 0000", 1, .unknown(code: .creditBasedConnectionRequest, data: []))
        try roundTrip("ee 01 0100 55", 1, .unknown(code: L2CAPSignalCode(rawValue: 0xEE), data: [0x55]))
        #expect(L2CAPSignalCode(rawValue: 0xEE).description == "0xee")
    }

    @Test func oneCommandPerPacket() {
        // Two Flow Control Credit Indications in one C-frame: LE allows only one (§4).
        expectWireError(offset: 2, .lengthMismatch(declared: 4, actual: 12)) {
            try L2CAPSignal(payload: hexBytes("16 07 0400 4000 0500 16 08 0400 4000 0500"))
        }
        expectWireError(offset: 2, .lengthMismatch(declared: 4, actual: 5)) {
            try L2CAPSignal(payload: hexBytes("16 07 0400 4000 0500 00"))
        }
    }

    @Test func truncatedPackets() {
        expectWireError(offset: 2, .lengthMismatch(declared: 4, actual: 2)) { try L2CAPSignal(payload: hexBytes("06 05 0400 4000")) }
        expectWireError(offset: 2, .truncated(needed: 2, available: 1)) { try L2CAPSignal(payload: hexBytes("06 05 04")) }
        expectWireError(offset: 0, .truncated(needed: 1, available: 0)) { try L2CAPSignal(payload: []) }
    }

    @Test func dataThatDoesNotFitTheCommand() {
        expectWireError(offset: 6, .truncated(needed: 2, available: 0)) { try L2CAPSignal(payload: hexBytes("06 05 0200 4000")) }
        expectWireError(offset: 6, .lengthMismatch(declared: 3, actual: 2)) { try L2CAPSignal(payload: hexBytes("13 01 0300 0000 ff")) }
        expectWireError(offset: 12, .truncated(needed: 2, available: 0)) { try L2CAPSignal(payload: hexBytes("14 01 0800 8000 4000 0002 f700")) }
    }

    @Test func identifierZeroIsInvalid() {
        expectWireError(offset: 1, .invalidValue("0x00 is never a valid identifier")) {
            try L2CAPSignal(payload: hexBytes("06 00 0400 4000 4100"))
        }
    }

    @Test func signalsTravelOnCIDFive() throws {
        let signal = L2CAPSignal(identifier: 1, command: .commandReject(.notUnderstood))
        #expect(try signal.frame.encoded() == hexBytes("0600 0500 01 01 0200 0000"))
        #expect(signal.command.isResponse)
        #expect(!L2CAPSignalCommand.flowControlCreditIndication(L2CAPFlowControlCreditIndication(cid: .null, credits: 1)).isResponse)
    }
}
