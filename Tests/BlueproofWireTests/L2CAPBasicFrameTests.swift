import Testing
import BlueproofWire

@Suite("L2CAP basic frames and channel ids (Vol 3, Part A §2.1, §3.1)")
struct L2CAPBasicFrameTests {
    @Test func decodesAndEncodesAnATTPDU() throws {
        let bytes = hexBytes("0300 0400 0a0100")
        let frame = try L2CAPBasicFrame(bytes: bytes)
        #expect(frame.channelID == .att)
        #expect(frame.payload == [0x0A, 0x01, 0x00])
        #expect(try frame.encoded() == bytes)
        #expect(L2CAPBasicFrame.expectedLength(ofPrefix: [0x03]) == nil)
        #expect(L2CAPBasicFrame.expectedLength(ofPrefix: [0x03, 0x00]) == 7)
    }

    @Test func emptyPayload() throws {
        let frame = try L2CAPBasicFrame(bytes: hexBytes("0000 4000"))
        #expect(frame == L2CAPBasicFrame(channelID: L2CAPChannelID(0x40), payload: []))
    }

    @Test func lengthMustMatchThePayload() {
        expectWireError(offset: 0, .lengthMismatch(declared: 5, actual: 1)) { try L2CAPBasicFrame(bytes: hexBytes("0500 0400 0a")) }
        expectWireError(offset: 0, .lengthMismatch(declared: 1, actual: 2)) { try L2CAPBasicFrame(bytes: hexBytes("0100 0400 0a01")) }
    }

    @Test func truncatedHeaderThrows() {
        expectWireError(offset: 2, .truncated(needed: 2, available: 1)) { try L2CAPBasicFrame(bytes: hexBytes("0300 04")) }
        expectWireError(offset: 0, .truncated(needed: 2, available: 0)) { try L2CAPBasicFrame(bytes: []) }
    }

    @Test func oversizedPayloadCannotBeFramed() {
        let frame = L2CAPBasicFrame(channelID: .att, payload: [UInt8](repeating: 0, count: 65536))
        expectWireError(offset: 0, .invalidValue("65536 octets, at most 65535 fit")) { try frame.encoded() }
    }

    @Test func channelIDs() {
        #expect(L2CAPChannelID.att.rawValue == 0x0004)
        #expect(L2CAPChannelID.leSignaling.rawValue == 0x0005)
        #expect(L2CAPChannelID.smp.rawValue == 0x0006)
        #expect(L2CAPChannelID(0x0040).isLEDynamic)
        #expect(L2CAPChannelID(0x007F).isLEDynamic)
        #expect(!L2CAPChannelID(0x0080).isLEDynamic)
        #expect(!L2CAPChannelID(0x003F).isLEDynamic)
        #expect(L2CAPChannelID.leSignaling.description == "LE signaling (0x0005)")
        #expect(L2CAPChannelID(0x0041).description == "dynamic (0x0041)")
        #expect(L2CAPChannelID(0x0100).description == "0x0100")
    }
}

@Suite("L2CAP K-frames (Vol 3, Part A §3.4.3)")
struct L2CAPKFrameTests {
    @Test func firstFrameCarriesTheSDULengthWithinTheMPS() throws {
        let payloads = try L2CAPKFrame.segment(sdu: [1, 2, 3, 4, 5], mps: 4)
        #expect(payloads == [[0x05, 0x00, 1, 2], [3, 4, 5]])
        let frames = try L2CAPKFrame.frames(sdu: [1, 2, 3, 4, 5], destination: L2CAPChannelID(0x41), mps: 4)
        #expect(try frames.map { try $0.encoded() } == [hexBytes("0400 4100 05000102"), hexBytes("0300 4100 030405")])
    }

    @Test func sduThatFitsOneFrame() throws {
        #expect(try L2CAPKFrame.segment(sdu: [9, 8], mps: 23) == [[0x02, 0x00, 9, 8]])
        #expect(try L2CAPKFrame.segment(sdu: [], mps: 23) == [[0x00, 0x00]])
    }

    @Test func exactMultipleOfMPS() throws {
        let sdu = [UInt8](repeating: 7, count: 44)
        let payloads = try L2CAPKFrame.segment(sdu: sdu, mps: 23)
        #expect(payloads.map(\.count) == [23, 23])
    }

    @Test func refusesWhatCannotBeSegmented() {
        expectWireError(offset: 0, .invalidValue("MPS 1 cannot carry the SDU length field")) {
            try L2CAPKFrame.segment(sdu: [1], mps: 1)
        }
        expectWireError(offset: 0, .invalidValue("65536 octets, at most 65535 fit")) {
            try L2CAPKFrame.segment(sdu: [UInt8](repeating: 0, count: 65536), mps: 100)
        }
    }

    @Test func splitsTheFirstFrame() throws {
        let (length, data) = try L2CAPKFrame.splitFirst([0x10, 0x00, 0xAA])
        #expect(length == 16)
        #expect(data == [0xAA])
        expectWireError(offset: 0, .truncated(needed: 2, available: 1)) { try L2CAPKFrame.splitFirst([0x10]) }
    }
}
