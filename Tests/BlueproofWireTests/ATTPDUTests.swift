import Testing
import BlueproofWire

/// Byte vectors for every ATT PDU this project decodes (Core Vol 3, Part F §3.4).
@Suite("ATT PDUs")
struct ATTPDUTests {
    static let vectors: [(String, ATTPDU)] = [
        ("01 0a 0500 0a", .errorResponse(requestOpcodeInError: .readRequest, attributeHandleInError: 5, errorCode: .attributeNotFound)),
        ("02 0502", .exchangeMTURequest(clientRxMTU: 517)),
        ("03 f700", .exchangeMTUResponse(serverRxMTU: 247)),
        ("04 0100 ffff", .findInformationRequest(startingHandle: 1, endingHandle: 0xFFFF)),
        ("05 01 0100 0028 0200 0328", .findInformationResponse(ATTFindInformationResponse(entries: [
            ATTFindInformationEntry(handle: 1, type: .primaryService),
            ATTFindInformationEntry(handle: 2, type: .characteristic),
        ]))),
        ("05 02 0a00 61a907add1172fa1c44bf573f4390ae2", .findInformationResponse(ATTFindInformationResponse(entries: [
            ATTFindInformationEntry(handle: 10, type: BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961")!),
        ]))),
        ("06 0100 ffff 0028 0d18", .findByTypeValueRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800, attributeValue: [0x0D, 0x18])),
        ("07 0a00 1000 2000 ffff", .findByTypeValueResponse([
            ATTHandlesInformation(foundAttributeHandle: 0x0A, groupEndHandle: 0x10),
            ATTHandlesInformation(foundAttributeHandle: 0x20, groupEndHandle: 0xFFFF),
        ])),
        ("08 0100 ffff 0328", .readByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: .characteristic)),
        ("08 0100 ffff 61a907add1172fa1c44bf573f4390ae2",
         .readByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961")!)),
        ("09 07 0200 020300002a 0400 020500012a", .readByTypeResponse(ATTReadByTypeResponse(entries: [
            ATTHandleValue(handle: 2, value: hexBytes("020300002a")),
            ATTHandleValue(handle: 4, value: hexBytes("020500012a")),
        ]))),
        ("0a 0300", .readRequest(attributeHandle: 3)),
        ("0b 626c75650a", .readResponse(attributeValue: hexBytes("626c75650a"))),
        ("0b", .readResponse(attributeValue: [])),
        ("0c 0300 1600", .readBlobRequest(attributeHandle: 3, valueOffset: 22)),
        ("0d 6566", .readBlobResponse(partAttributeValue: [0x65, 0x66])),
        ("10 0100 ffff 0028", .readByGroupTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: .primaryService)),
        ("11 06 0100 0500 0018 0600 0900 0118", .readByGroupTypeResponse(ATTReadByGroupTypeResponse(entries: [
            ATTGroupData(attributeHandle: 1, endGroupHandle: 5, value: [0x00, 0x18]),
            ATTGroupData(attributeHandle: 6, endGroupHandle: 9, value: [0x01, 0x18]),
        ]))),
        ("12 0900 0200", .writeRequest(attributeHandle: 9, attributeValue: [0x02, 0x00])),
        ("13", .writeResponse),
        ("52 0c00 aabbcc", .writeCommand(attributeHandle: 12, attributeValue: [0xAA, 0xBB, 0xCC])),
        ("1b 0c00 01", .handleValueNotification(attributeHandle: 12, attributeValue: [0x01])),
        ("1d 0800 0100ffff", .handleValueIndication(attributeHandle: 8, attributeValue: [0x01, 0x00, 0xFF, 0xFF])),
        ("1e", .handleValueConfirmation),
        ("0e 0300 0500", .unknown(opcode: .readMultipleRequest, parameters: [0x03, 0x00, 0x05, 0x00])),
        ("d2 0c00 01 000102030405060708090a0b", .unknown(opcode: .signedWriteCommand, parameters: hexBytes("0c0001000102030405060708090a0b"))),
        ("7f", .unknown(opcode: ATTOpcode(rawValue: 0x7F), parameters: [])),
    ]

    @Test("decodes and encodes", arguments: vectors.indices)
    func roundTrip(index: Int) throws {
        let (text, pdu) = Self.vectors[index]
        let bytes = hexBytes(text)
        #expect(try ATTPDU(bytes: bytes) == pdu)
        #expect(pdu.bytes == bytes)
        #expect(pdu.opcode.rawValue == bytes[0])
    }

    @Test func everyKnownCaseHasAVector() {
        let opcodes = Set(Self.vectors.map(\.1.opcode))
        for opcode: ATTOpcode in [
            .errorResponse, .exchangeMTURequest, .exchangeMTUResponse, .findInformationRequest,
            .findInformationResponse, .findByTypeValueRequest, .findByTypeValueResponse, .readByTypeRequest,
            .readByTypeResponse, .readRequest, .readResponse, .readBlobRequest, .readBlobResponse,
            .readByGroupTypeRequest, .readByGroupTypeResponse, .writeRequest, .writeResponse, .writeCommand,
            .handleValueNotification, .handleValueIndication, .handleValueConfirmation,
        ] {
            #expect(opcodes.contains(opcode), "\(opcode)")
        }
    }

    /// A 128-bit entry that aliases a 16-bit UUID keeps the format it came in.
    @Test func findInformationKeepsTheDecodedFormat() throws {
        let bytes = hexBytes("05 02 0100 fb349b5f80000080001000000028 0000")
        let pdu = try ATTPDU(bytes: bytes)
        guard case let .findInformationResponse(response) = pdu else { Issue.record("\(pdu)"); return }
        #expect(response.format == .uuid128)
        #expect(response.entries == [ATTFindInformationEntry(handle: 1, type: .primaryService)])
        #expect(pdu.bytes == bytes)
        // A 16-bit format cannot hold a full UUID: it falls back to 128 bits.
        let mixed = ATTFindInformationResponse(format: .uuid16, entries: [
            ATTFindInformationEntry(handle: 1, type: BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961")!),
        ])
        #expect(mixed.format == .uuid128)
    }

    @Test func readByTypeResponseKeepsTheLeadingRunOfOneLength() {
        let response = ATTReadByTypeResponse(entries: [
            ATTHandleValue(handle: 1, value: [1, 2]),
            ATTHandleValue(handle: 2, value: [3, 4]),
            ATTHandleValue(handle: 3, value: [5]),
            ATTHandleValue(handle: 4, value: [6, 7]),
        ])
        #expect(response.entries.map(\.handle) == [1, 2])
        #expect(response.length == 4)
        let long = ATTReadByTypeResponse(entries: [ATTHandleValue(handle: 1, value: Array(repeating: 0, count: 300))])
        #expect(long.entries[0].value.count == 253)
        #expect(ATTPDU.readByTypeResponse(long).bytes[1] == 255)
        let group = ATTReadByGroupTypeResponse(entries: [
            ATTGroupData(attributeHandle: 1, endGroupHandle: 2, value: Array(repeating: 0, count: 300)),
            ATTGroupData(attributeHandle: 3, endGroupHandle: 4, value: [1]),
        ])
        #expect(group.entries.count == 1)
        #expect(group.length == 255)
    }

    static let malformed: [(String, Int, WireError.Reason)] = [
        ("", 0, .truncated(needed: 1, available: 0)),
        ("01 0a 0500", 4, .truncated(needed: 1, available: 0)),
        ("01 0a 0500 0a 00", 5, .lengthMismatch(declared: 6, actual: 5)),
        ("02 05", 1, .truncated(needed: 2, available: 1)),
        ("03", 1, .truncated(needed: 2, available: 0)),
        ("04 0100 ff", 3, .truncated(needed: 2, available: 1)),
        ("04 0100 ffff 00", 5, .lengthMismatch(declared: 6, actual: 5)),
        ("06 0100 ffff 00", 5, .truncated(needed: 2, available: 1)),
        ("0a 03", 1, .truncated(needed: 2, available: 1)),
        ("0a 0300 00", 3, .lengthMismatch(declared: 4, actual: 3)),
        ("0c 0300 16", 3, .truncated(needed: 2, available: 1)),
        ("12 09", 1, .truncated(needed: 2, available: 1)),
        ("13 00", 1, .lengthMismatch(declared: 2, actual: 1)),
        ("52", 1, .truncated(needed: 2, available: 0)),
        ("1b 0c", 1, .truncated(needed: 2, available: 1)),
        ("1d", 1, .truncated(needed: 2, available: 0)),
        ("1e 00", 1, .lengthMismatch(declared: 2, actual: 1)),
        ("05", 1, .truncated(needed: 1, available: 0)),
        ("08 0100", 3, .truncated(needed: 2, available: 0)),
        ("10 0100 ffff", 5, .invalidValue("a UUID here has 2 or 16 octets, not 0")),
    ]

    @Test("refuses truncated and overlong PDUs", arguments: malformed.indices)
    func refusesMalformed(index: Int) {
        let (text, offset, reason) = Self.malformed[index]
        #expect(throws: WireError.self) { try ATTPDU(bytes: hexBytes(text)) }
        do {
            _ = try ATTPDU(bytes: hexBytes(text))
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(error.reason == reason, "\(text): \(error)")
        }
    }

    @Test("refuses invalid values", arguments: [
        // Find Information: format 0 and 3, pairs that do not divide, no pairs.
        ("05 00 0100 0028", 1),
        ("05 03 0100 0028", 1),
        ("05 01 0100 0028 01", 2),
        ("05 02 0100 0028", 2),
        ("05 01", 2),
        // Find By Type Value Response: not a multiple of 4, empty.
        ("07 0a00 1000 20", 1),
        ("07", 1),
        // Read By Type Response: list does not divide, zero and too small lengths, empty list.
        ("09 04 0200 0203 0400 02", 2),
        ("09 00 0200", 1),
        ("09 01 0200", 1),
        ("09 04", 2),
        // Read By Group Type Response: the same rules with two handles per entry.
        ("11 06 0100 0500 0018 0600", 2),
        ("11 03 0100 05", 1),
        ("11 00", 1),
        // UUIDs that are neither 2 nor 16 octets.
        ("08 0100 ffff 00", 5),
        ("08 0100 ffff 0d180000", 5),
        ("10 0100 ffff 0028 00", 5),
    ])
    func refusesInvalidValues(text: String, offset: Int) {
        do {
            let pdu = try ATTPDU(bytes: hexBytes(text))
            Issue.record("decoded \(text) as \(pdu)")
        } catch {
            guard case .invalidValue = error.reason else {
                Issue.record("\(text): \(error)")
                return
            }
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test func errorsNameThePDU() {
        do {
            _ = try ATTPDU(bytes: hexBytes("0a 03"))
        } catch {
            #expect(error.context == "ATT Read Request: attribute handle")
        }
    }
}
