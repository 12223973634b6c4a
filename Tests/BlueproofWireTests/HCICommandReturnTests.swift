import Testing
import BlueproofWire

private func returnBytes<R: HCIReturnParameters>(_ value: R) -> [UInt8] {
    var writer = ByteWriter()
    value.encode(into: &writer)
    return writer.bytes
}

private func decodesBack<R: HCIReturnParameters>(_ value: R, from bytes: [UInt8]) throws(WireError) -> Bool {
    var reader = ByteReader(bytes, context: "test")
    return try R(returnParameters: &reader) == value
}

private func decodeError<R: HCIReturnParameters>(as value: R, _ bytes: [UInt8]) -> WireError? {
    var reader = ByteReader(bytes, context: "test")
    do {
        _ = try R(returnParameters: &reader)
        return nil
    } catch {
        return error
    }
}

@Suite("HCI command return parameters")
struct HCICommandReturnTests {
    @Test("encodes to the spec layout", arguments: returnVectors)
    func encodes(_ vector: ReturnVector) {
        #expect(hex(returnBytes(vector.value)) == hex(vector.bytes))
        #expect(vector.bytes.count == vector.widths.reduce(0, +))
    }

    @Test("decodes back to the same value", arguments: returnVectors)
    func decodes(_ vector: ReturnVector) throws {
        #expect(try decodesBack(vector.value, from: vector.bytes))
    }

    @Test("octets a newer controller appends are tolerated", arguments: returnVectors)
    func trailingTolerated(_ vector: ReturnVector) throws {
        #expect(try decodesBack(vector.value, from: vector.bytes + [0xAA, 0xBB]))
        let fields = HCICommandCatalogue.describeReturn(of: vector.opcode, vector.bytes + [0xAA, 0xBB])
        #expect(fields.last == HCIPacketDescription.Field("extra", "aabb"))
    }

    @Test("short return parameters throw at the missing field", arguments: returnVectors)
    func truncated(_ vector: ReturnVector) {
        for prefix in 0..<vector.bytes.count {
            let expected = expectedTruncation(widths: vector.widths, prefix: prefix)
            let error = decodeError(as: vector.value, Array(vector.bytes.prefix(prefix)))
            #expect(error?.offset == expected?.offset, "prefix \(prefix)")
            #expect(error?.reason == expected?.reason, "prefix \(prefix)")
        }
    }

    @Test("the catalogue describes them, status first", arguments: returnVectors)
    func described(_ vector: ReturnVector) {
        let fields = HCICommandCatalogue.describeReturn(of: vector.opcode, vector.bytes)
        #expect(fields.first == HCIPacketDescription.Field("status", "Success (0x00)"))
        #expect(fields.count == vector.widths.count)
        #expect(!fields.contains { $0.name == "malformed" })
    }

    @Test func readLocalVersionInformationValues() throws {
        var reader = ByteReader(hexBytes("00 0d 0100 0d 5d00 2301"), context: "test")
        let value = try HCIReadLocalVersionInformation.ReturnParameters(returnParameters: &reader)
        #expect(value.status == .success)
        #expect(value.hciVersion == 0x0D)
        #expect(value.hciSubversion == 0x0001)
        #expect(value.lmpVersion == 0x0D)
        #expect(value.companyIdentifier == 0x005D)
        #expect(value.lmpSubversion == 0x0123)
        let fields = HCICommandCatalogue.describeReturn(of: .readLocalVersionInformation, hexBytes("00 0d 0100 0d 5d00 2301"))
        #expect(fields.contains(.init("hci_version", "0x0d (5.4)")))
        #expect(fields.contains(.init("company_identifier", "0x005d")))
    }

    @Test func readRSSIIsSigned() throws {
        var reader = ByteReader(hexBytes("00 4000 c4"), context: "test")
        let value = try HCIReadRSSI.ReturnParameters(returnParameters: &reader)
        #expect(value.handle == 0x0040)
        #expect(value.rssi == -60)
        #expect(HCICommandCatalogue.describeReturn(of: .readRSSI, hexBytes("00 4000 c4")).last
                == .init("rssi", "-60 dBm"))
    }

    @Test func leReadBufferSizeOfTheVirtualControllers() throws {
        // btvirt: 192 octets x 1 packet; Rootcanal 1.10: 27 x 20 (docs/design.md).
        var btvirt = ByteReader(hexBytes("00 c000 01"), context: "test")
        let small = try HCILEReadBufferSize.ReturnParameters(returnParameters: &btvirt)
        #expect(small.leACLDataPacketLength == 192)
        #expect(small.totalNumLEACLDataPackets == 1)
        var rootcanal = ByteReader(hexBytes("00 1b00 14"), context: "test")
        let many = try HCILEReadBufferSize.ReturnParameters(returnParameters: &rootcanal)
        #expect(many.leACLDataPacketLength == 27)
        #expect(many.totalNumLEACLDataPackets == 20)
    }

    @Test func readBDADDRPrintsMostSignificantFirst() throws {
        var reader = ByteReader(hexBytes("00 23000001aa00"), context: "test")
        let value = try HCIReadBDADDR.ReturnParameters(returnParameters: &reader)
        #expect(value.bdAddr.description == "00:AA:01:00:00:23")
    }

    @Test func lmpFeaturesLESupportedBit() throws {
        var reader = ByteReader(hexBytes("00 fffe8ffed83f5b87"), context: "test")
        #expect(try HCIReadLocalSupportedFeatures.ReturnParameters(returnParameters: &reader).leSupportedController)
        var without = ByteReader(hexBytes("00 fffe8ffe983f5b87"), context: "test")
        #expect(try !HCIReadLocalSupportedFeatures.ReturnParameters(returnParameters: &without).leSupportedController)
    }
}
