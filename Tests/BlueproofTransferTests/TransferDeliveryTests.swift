@testable import BlueproofTransfer
import Testing

@Suite("TransferDelivery")
struct TransferDeliveryTests {
    @Test("a chunk counts only once the controller completed its PDU, in order")
    func completion() {
        var ledger = TransferDelivery()
        ledger.handedOver(pdu: 1, dataBytes: 20)
        ledger.handedOver(pdu: 2, dataBytes: 12)
        ledger.handedOver(pdu: 3, dataBytes: nil)
        #expect(ledger.bytes == 0 && ledger.nextPending == 1)
        let first = ledger.completed(through: 1)
        #expect(first)
        #expect(ledger.bytes == 20 && ledger.chunks == 1 && !ledger.markerSent)
        let again = ledger.completed(through: 1)
        #expect(!again, "nothing new completed")
        let rest = ledger.completed(through: 3)
        #expect(rest)
        #expect(ledger.bytes == 32 && ledger.chunks == 2 && ledger.largestChunk == 20 && ledger.markerSent)
        #expect(ledger.nextPending == nil)
    }

    @Test("a confirmed indication counts at once")
    func confirmation() {
        var ledger = TransferDelivery()
        ledger.confirmed(dataBytes: 7)
        ledger.confirmed(dataBytes: nil)
        #expect(ledger.bytes == 7 && ledger.chunks == 1 && ledger.markerSent && ledger.nextPending == nil)
    }
}
