import Testing
import BlueproofWire

@Suite("ATT opcodes and error codes")
struct ATTOpcodeTests {
    @Test func flagsSplitTheOpcode() {
        #expect(ATTOpcode.writeCommand.isCommand)
        #expect(!ATTOpcode.writeCommand.hasSignature)
        #expect(ATTOpcode.writeCommand.method == 0x12)
        #expect(ATTOpcode.signedWriteCommand.isCommand)
        #expect(ATTOpcode.signedWriteCommand.hasSignature)
        #expect(ATTOpcode.signedWriteCommand.method == 0x12)
        #expect(!ATTOpcode.writeRequest.isCommand)
    }

    @Test func kinds() {
        #expect(ATTOpcode.readRequest.kind == .request)
        #expect(ATTOpcode.errorResponse.kind == .response)
        #expect(ATTOpcode.readByGroupTypeResponse.kind == .response)
        #expect(ATTOpcode.writeCommand.kind == .command)
        #expect(ATTOpcode.handleValueNotification.kind == .notification)
        #expect(ATTOpcode.multipleHandleValueNotification.kind == .notification)
        #expect(ATTOpcode.handleValueIndication.kind == .indication)
        #expect(ATTOpcode.handleValueConfirmation.kind == .confirmation)
        // Unknown opcodes: requests unless the command flag says otherwise.
        #expect(ATTOpcode(rawValue: 0x3F).kind == .request)
        #expect(ATTOpcode(rawValue: 0x7F).kind == .command)
        #expect(ATTOpcode(rawValue: 0xFF).kind == .command)
    }

    @Test func responseOpcodes() {
        #expect(ATTOpcode.exchangeMTURequest.responseOpcode == .exchangeMTUResponse)
        #expect(ATTOpcode.readByGroupTypeRequest.responseOpcode == .readByGroupTypeResponse)
        #expect(ATTOpcode.writeRequest.responseOpcode == .writeResponse)
        #expect(ATTOpcode.readMultipleVariableRequest.responseOpcode == .readMultipleVariableResponse)
        #expect(ATTOpcode.writeCommand.responseOpcode == nil)
        #expect(ATTOpcode.readResponse.responseOpcode == nil)
        #expect(ATTOpcode(rawValue: 0x3F).responseOpcode == nil)
    }

    @Test func descriptions() {
        #expect(ATTOpcode.readRequest.description == "Read Request (0x0a)")
        #expect(ATTOpcode(rawValue: 0x3F).description == "0x3f")
        #expect(ATTErrorCode.invalidHandle.description == "Invalid Handle (0x01)")
        #expect(ATTErrorCode(rawValue: 0x85).description == "Application Error (0x85)")
        #expect(ATTErrorCode(rawValue: 0xE0).description == "Common Profile and Service Error (0xe0)")
        #expect(ATTErrorCode(rawValue: 0x14).description == "Reserved (0x14)")
        #expect(ATTErrorCode.outOfRange.description == "Out of Range (0xff)")
    }

    @Test func everySpecErrorCodeHasAName() {
        for code in UInt8(0x01)...0x13 {
            #expect(ATTErrorCode(rawValue: code).name != nil, "0x\(hex(code))")
        }
        #expect(ATTErrorCode(rawValue: 0x00).name == nil)
        #expect(ATTErrorCode.valueNotAllowed.rawValue == 0x13)
        #expect(ATTErrorCode.databaseOutOfSync.rawValue == 0x12)
        #expect(ATTErrorCode(rawValue: 0x80).isApplicationError)
        #expect(ATTErrorCode(rawValue: 0x9F).isApplicationError)
        #expect(!ATTErrorCode(rawValue: 0xA0).isApplicationError)
        #expect(ATTErrorCode(rawValue: 0xFC).isCommonProfileAndServiceError)
    }
}
