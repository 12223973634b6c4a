import Testing
import BlueproofWire

@Suite("SMP commands (Vol 3, Part H §3.3)")
struct SMPCommandTests {
    @Test func pairingRequestAndResponse() throws {
        let request = try SMPCommand(payload: hexBytes("01 03 00 2d 10 0f 0f"))
        let features = SMPPairingFeatures(ioCapability: .noInputNoOutput, oobDataFlag: 0,
                                          authReq: [.bonding, .mitm, .secureConnections, .ct2],
                                          maximumEncryptionKeySize: 16,
                                          initiatorKeyDistribution: [.encKey, .idKey, .signKey, .linkKey],
                                          responderKeyDistribution: [.encKey, .idKey, .signKey, .linkKey])
        #expect(request == .pairingRequest(features))
        #expect(request.encoded == hexBytes("01 03 00 2d 10 0f 0f"))
        #expect(features.authReq.bondingFlags == 0b01)
        let response = try SMPCommand(payload: hexBytes("02 04 01 00 07 00 01"))
        guard case let .pairingResponse(answer) = response else { Issue.record("\(response)"); return }
        #expect(answer.ioCapability == .keyboardDisplay)
        #expect(answer.oobDataFlag == 1)
        #expect(answer.authReq == [])
        #expect(answer.maximumEncryptionKeySize == 7)
        #expect(answer.responderKeyDistribution == .encKey)
        #expect(response.encoded == hexBytes("02 04 01 00 07 00 01"))
    }

    @Test func pairingFailedAndSecurityRequest() throws {
        #expect(try SMPCommand(payload: [0x05, 0x05]) == .pairingFailed(.pairingNotSupported))
        #expect(try SMPCommand(payload: [0x05, 0x42]) == .pairingFailed(SMPPairingFailedReason(rawValue: 0x42)))
        #expect(try SMPCommand(payload: [0x0B, 0x0D]) == .securityRequest([.bonding, .mitm, .secureConnections]))
        #expect(SMPCommand.pairingFailed(.pairingNotSupported).encoded == [0x05, 0x05])
        #expect(try SMPCommand.pairingFailed(.pairingNotSupported).frame.encoded() == hexBytes("0200 0600 0505"))
        #expect(SMPPairingFailedReason.pairingNotSupported.description == "Pairing Not Supported (0x05)")
    }

    @Test func otherCodesArePreserved() throws {
        let confirm = [0x03] + [UInt8](repeating: 0xAB, count: 16)
        #expect(try SMPCommand(payload: confirm) == .unknown(code: .pairingConfirm, data: [UInt8](repeating: 0xAB, count: 16)))
        #expect(try SMPCommand(payload: confirm).encoded == confirm)
        #expect(try SMPCommand(payload: [0x7F]) == .unknown(code: SMPCode(rawValue: 0x7F), data: []))
    }

    @Test func malformedCommands() {
        expectWireError(offset: 3, .truncated(needed: 1, available: 0)) { try SMPCommand(payload: hexBytes("01 03 00")) }
        expectWireError(offset: 2, .lengthMismatch(declared: 3, actual: 2)) { try SMPCommand(payload: hexBytes("05 05 00")) }
        expectWireError(offset: 7, .lengthMismatch(declared: 8, actual: 7)) { try SMPCommand(payload: hexBytes("02 04 01 00 07 00 01 ff")) }
        expectWireError(offset: 1, .truncated(needed: 1, available: 0)) { try SMPCommand(payload: [0x0B]) }
        expectWireError(offset: 0, .truncated(needed: 1, available: 0)) { try SMPCommand(payload: []) }
    }
}
