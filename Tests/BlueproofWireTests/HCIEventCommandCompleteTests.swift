import Testing
@testable import BlueproofWire

/// A command defined here only, so the tests do not depend on the catalogue's codecs.
private struct TestLEReadBufferSize: HCICommand {
    struct ReturnParameters: HCIReturnParameters {
        var status: HCIStatus
        var leACLDataPacketLength: UInt16
        var totalNumLEACLDataPackets: UInt8

        init(status: HCIStatus, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        }

        init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            leACLDataPacketLength = try reader.u16("LE ACL data packet length")
            totalNumLEACLDataPackets = try reader.u8("total num LE ACL data packets")
        }

        func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(leACLDataPacketLength)
            writer.u8(totalNumLEACLDataPackets)
        }
    }

    static let opcode = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    static let name = "LE Read Buffer Size"
    init() {}
    init(parameters reader: inout ByteReader) throws(WireError) {}
    func encodeParameters(into writer: inout ByteWriter) {}
}

@Suite("HCI events: Command Complete")
struct HCIEventCommandCompleteTests {
    @Test func returnParametersDecodeWithTheCommandsType() throws {
        let event = try HCICommandCompleteEvent(HCIEventPacket(payload: hexBytes("0e07 01 0220 00 1b00 14")))
        let returned = try event.decodeReturnParameters(as: TestLEReadBufferSize.self)
        #expect(returned == .init(status: .success, leACLDataPacketLength: 27, totalNumLEACLDataPackets: 20))
        #expect(!event.isCreditUpdateOnly)
    }

    @Test func encodesFromTypedReturnParameters() {
        let event = HCICommandCompleteEvent(
            numHCICommandPackets: 1, command: TestLEReadBufferSize.self,
            returnParameters: .init(status: .success, leACLDataPacketLength: 192, totalNumLEACLDataPackets: 1))
        #expect(event.packet.packet.payload == hexBytes("0e07 01 0220 00 c000 01"))
    }

    @Test func truncatedReturnParametersThrowWithPacketOffsets() throws {
        let event = try HCICommandCompleteEvent(HCIEventPacket(payload: hexBytes("0e06 01 0220 00 1b00")))
        do {
            _ = try event.decodeReturnParameters(as: TestLEReadBufferSize.self)
            Issue.record("short return parameters decoded")
        } catch {
            #expect(error.offset == 8)
            #expect(error.reason == .truncated(needed: 1, available: 0))
        }
    }

    @Test func returnParametersOfAnotherCommandAreRefused() throws {
        let event = try HCICommandCompleteEvent(HCIEventPacket(payload: hexBytes("0e04 01 030c 00")))
        do {
            _ = try event.decodeReturnParameters(as: TestLEReadBufferSize.self)
            Issue.record("Reset's return decoded as LE Read Buffer Size's")
        } catch {
            #expect(error.offset == 3)
            guard case .invalidValue = error.reason else {
                Issue.record("unexpected reason \(error.reason)")
                return
            }
        }
    }

    @Test func extraReturnBytesAreToleratedByTheCommandDecoder() throws {
        let event = try HCICommandCompleteEvent(HCIEventPacket(payload: hexBytes("0e09 01 0220 00 1b00 14 aabb")))
        #expect(event.returnParameters == [0x00, 0x1B, 0x00, 0x14, 0xAA, 0xBB])
        #expect(try event.decodeReturnParameters(as: TestLEReadBufferSize.self).totalNumLEACLDataPackets == 20)
    }

    @Test func opcodeZeroIsACreditUpdate() throws {
        let payload: [UInt8] = [0x0E, 0x03, 0x05, 0x00, 0x00]
        guard case let .commandComplete(event) = try HCIEvent(payload: payload) else {
            Issue.record("not a Command Complete")
            return
        }
        #expect(event.isCreditUpdateOnly)
        #expect(event.numHCICommandPackets == 5)
        #expect(event.returnParameters.isEmpty)
        #expect(HCIEvent.commandComplete(event).packet.packet.payload == payload)
    }

    @Test func commandStatusOpcodeZeroIsNotAnError() throws {
        #expect(try HCIEvent(payload: [0x0F, 0x04, 0x00, 0x02, 0x00, 0x00])
            == .commandStatus(.init(status: .success, numHCICommandPackets: 2, commandOpcode: HCIOpcode(rawValue: 0))))
    }
}
