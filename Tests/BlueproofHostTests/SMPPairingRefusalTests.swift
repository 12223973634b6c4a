import BlueproofHost
import BlueproofWire
import Testing

@Suite("SMP pairing refusal (Vol 3, Part H §3.5.5)")
struct SMPPairingRefusalTests {
    let pairingNotSupported = L2CAPBasicFrame(channelID: .smp, payload: [0x05, 0x05])

    @Test func pairingAndSecurityRequestsAreRefused() {
        #expect(SMPPairingRefusal.answer(toPayload: [0x01, 0x03, 0x00, 0x2D, 0x10, 0x0F, 0x0F]) == pairingNotSupported)
        #expect(SMPPairingRefusal.answer(toPayload: [0x0B, 0x0D]) == pairingNotSupported)
    }

    @Test func othersGetNoAnswer() {
        #expect(SMPPairingRefusal.answer(toPayload: [0x05, 0x05]) == nil)
        #expect(SMPPairingRefusal.answer(toPayload: [0x02, 0x03, 0x00, 0x01, 0x10, 0x00, 0x00]) == nil)
        #expect(SMPPairingRefusal.answer(toPayload: [0x01, 0x03]) == nil)
        #expect(SMPPairingRefusal.answer(toPayload: []) == nil)
    }
}
