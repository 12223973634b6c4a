import Testing
import BlueproofTransmitter

@Suite("Transmitter errors")
struct TransmitterErrorTests {
    @Test("codes are unique, in 50000-50024, in order; names unique")
    func codes() {
        let codes = TransmitterError.all.map(\.code)
        #expect(codes == Array(50000..<(50000 + codes.count)))
        #expect(codes.allSatisfy { (50000...50024).contains($0) })
        #expect(Set(TransmitterError.all.map(\.name)).count == codes.count)
    }

    @Test("the codes issue 5 lists first keep their order")
    func issueOrder() {
        #expect(TransmitterError.noDataToSend.code == 50000)
        #expect(TransmitterError.encryptedBroadcast.code == 50001)
        #expect(TransmitterError.binaryInMesh.code == 50002)
        #expect(TransmitterError.directReceiverNotInRange.code == 50003)
        #expect(TransmitterError.noSecureConnection.code == 50004)
        #expect(TransmitterError.functionNotAvailableInMode.code == 50005)
    }

    @Test("equality is by code; detail shows in the description")
    func equality() {
        let detailed = TransmitterError.binaryTooLarge.with(detail: "122881 > 122880 bytes on ble")
        #expect(detailed == .binaryTooLarge)
        #expect(detailed.description == "50014 binaryTooLarge: the binary data exceeds the size limit of the link (122881 > 122880 bytes on ble)")
        let custom = TransmitterError(code: 50024, name: "deviceSpecific", summary: "from a profile",
                                      origin: .inferred(reason: "test"))
        #expect(custom != .noDataToSend)
    }

    @Test("inferred rules say so")
    func origins() {
        #expect(TransmitterError.conflictingTransmissionOptions.origin != .document(section: "Sending options"))
        if case .document(let section) = TransmitterError.binaryInMesh.origin {
            #expect(section == "Mesh")
        } else {
            Issue.record("binaryInMesh should cite the Mesh section")
        }
    }
}
