import Testing
import BlueproofWire

/// The error decoding `parameters` as `command`'s type throws, nil if it decodes.
private func decodeError<C: HCICommand>(as command: C, _ parameters: [UInt8]) -> WireError? {
    do {
        _ = try HCICommandPacket(opcode: C.opcode, parameters: parameters).decode(as: C.self)
        return nil
    } catch {
        return error
    }
}

private func sameCommand<C: HCICommand>(_ command: C, _ parameters: [UInt8]) -> Bool {
    (try? HCICommandPacket(opcode: C.opcode, parameters: parameters).decode(as: C.self)) == command
}

private func returnBytes<R: HCIReturnParameters>(_ value: R) -> [UInt8] {
    var writer = ByteWriter()
    value.encode(into: &writer)
    return writer.bytes
}

private func returnDecodeError<R: HCIReturnParameters>(as value: R, _ bytes: [UInt8]) -> WireError? {
    var reader = ByteReader(bytes, context: "test")
    do {
        let decoded = try R(returnParameters: &reader)
        return decoded == value ? nil : WireError(offset: -1, context: "test", reason: .invalidValue("differs"))
    } catch {
        return error
    }
}

@Suite("HCI extended advertising, scanning and connection commands")
struct HCIExtendedCommandTests {
    @Test("encode, decode, truncation, trailing bytes and catalogue", arguments: extendedCommandVectors)
    func codec(_ vector: CommandVector) {
        let packet = vector.command.commandPacket
        let name = type(of: vector.command).name
        #expect(hex(packet.parameters) == hex(vector.parameters))
        #expect(vector.parameters.count == vector.widths.reduce(0, +))
        let decodesBack = sameCommand(vector.command, vector.parameters)
        #expect(decodesBack)
        for prefix in 0..<vector.parameters.count {
            let error = decodeError(as: vector.command, Array(vector.parameters.prefix(prefix)))
            let expected = vector.expectedTruncationPoint(prefix: prefix)
            #expect(error?.offset == expected?.offset, "prefix \(prefix)")
            #expect(error?.reason == expected?.reason, "prefix \(prefix)")
        }
        let trailing = decodeError(as: vector.command, vector.parameters + [0x00])
        #expect(trailing?.offset == 3 + vector.parameters.count)
        #expect(trailing?.reason == .lengthMismatch(declared: vector.parameters.count + 1, actual: vector.parameters.count))
        #expect(HCICommandCatalogue.name(of: packet.opcode) == name)
        let description = HCICommandCatalogue.describe(packet)
        #expect(description.name == name)
        #expect(description.malformed == nil)
        #expect(description.fields.count == vector.widths.count)
        #expect(packet.packet.describe().name == name)
    }

    @Test("return parameters: layout, truncation, description", arguments: extendedReturnVectors)
    func returns(_ vector: ReturnVector) {
        #expect(hex(returnBytes(vector.value)) == hex(vector.bytes))
        #expect(returnDecodeError(as: vector.value, vector.bytes) == nil)
        for prefix in 0..<vector.bytes.count {
            let expected = expectedTruncation(widths: vector.widths, prefix: prefix)
            let error = returnDecodeError(as: vector.value, Array(vector.bytes.prefix(prefix)))
            #expect(error?.offset == expected?.offset, "prefix \(prefix)")
            #expect(error?.reason == expected?.reason, "prefix \(prefix)")
        }
        let fields = HCICommandCatalogue.describeReturn(of: vector.opcode, vector.bytes)
        #expect(fields.first == HCIPacketDescription.Field("status", "Success (0x00)"))
        #expect(fields.count == vector.widths.count)
    }

    @Test("opcodes are the spec's OGF|OCF", arguments: [
        (HCILESetAdvertisingSetRandomAddress.opcode, 0x2035), (HCILESetExtendedAdvertisingParameters.opcode, 0x2036),
        (HCILESetExtendedAdvertisingData.opcode, 0x2037), (HCILESetExtendedScanResponseData.opcode, 0x2038),
        (HCILESetExtendedAdvertisingEnable.opcode, 0x2039), (HCILEReadMaximumAdvertisingDataLength.opcode, 0x203A),
        (HCILERemoveAdvertisingSet.opcode, 0x203C), (HCILESetExtendedScanParameters.opcode, 0x2041),
        (HCILESetExtendedScanEnable.opcode, 0x2042), (HCILEExtendedCreateConnection.opcode, 0x2043),
    ] as [(HCIOpcode, UInt16)])
    func opcodes(_ opcode: HCIOpcode, _ raw: UInt16) {
        #expect(opcode.rawValue == raw)
    }

    @Test func onlyExtendedCreateConnectionIsAnsweredByCommandStatus() {
        #expect(HCILEExtendedCreateConnection.answeredByCommandStatus)
        #expect(!HCILESetExtendedScanEnable.answeredByCommandStatus)
        #expect(!HCILESetExtendedAdvertisingEnable.answeredByCommandStatus)
        #expect(!HCILESetExtendedAdvertisingParameters.answeredByCommandStatus)
    }

    @Test func describesExtendedAdvertisingParameters() {
        let description = HCICommandCatalogue.describe(extendedCommandVectors[1].command.commandPacket)
        #expect(description.name == "LE Set Extended Advertising Parameters [v1]")
        #expect(Array(description.fields.prefix(4)) == [
            .init("advertising_handle", "0"),
            .init("advertising_event_properties", "0x0013 (connectable,scannable,legacy)"),
            .init("primary_advertising_interval_min", "0x0000a0 (100 ms)"),
            .init("primary_advertising_interval_max", "0x0000f0 (150 ms)"),
        ])
        #expect(description.fields.contains(.init("advertising_tx_power", "no preference")))
        #expect(description.fields.contains(.init("primary_advertising_phy", "LE 1M (0x01)")))
        let coded = HCICommandCatalogue.describe(extendedCommandVectors[2].command.commandPacket)
        #expect(coded.fields.contains(.init("advertising_tx_power", "-8 dBm")))
        #expect(coded.fields.contains(.init("primary_advertising_phy", "LE Coded (0x03)")))
        #expect(coded.fields.contains(.init("primary_advertising_interval_max", "0x010000 (40960 ms)")))
        #expect(coded.fields.contains(.init("scan_request_notification_enable", "true")))
    }

    @Test func describesPerPHYAndPerSetFields() throws {
        let scan = HCICommandCatalogue.describe(HCICommandPacket(
            opcode: .leSetExtendedScanParameters, parameters: hexBytes("00 00 05 01 1200 1200 00 3600 2400")))
        #expect(scan.fields == [
            .init("own_address_type", "public (0x00)"),
            .init("scanning_filter_policy", "basic-unfiltered (0x00)"),
            .init("scanning_phys", "0x05 (1M,Coded)"),
            .init("scan_type[1M]", "active (0x01)"),
            .init("scan_interval[1M]", "0x0012 (11.25 ms)"),
            .init("scan_window[1M]", "0x0012 (11.25 ms)"),
            .init("scan_type[Coded]", "passive (0x00)"),
            .init("scan_interval[Coded]", "0x0036 (33.75 ms)"),
            .init("scan_window[Coded]", "0x0024 (22.5 ms)"),
        ])
        let enable = HCICommandCatalogue.describe(HCICommandPacket(
            opcode: .leSetExtendedAdvertisingEnable, parameters: hexBytes("01 02 01 f401 00 02 0000 0a")))
        #expect(enable.fields == [
            .init("enable", "true"), .init("num_sets", "2"),
            .init("advertising_handle[0]", "1"), .init("duration[0]", "0x01f4 (5000 ms)"),
            .init("max_extended_advertising_events[0]", "0"),
            .init("advertising_handle[1]", "2"), .init("duration[1]", "0x0000 (0 ms)"),
            .init("max_extended_advertising_events[1]", "10"),
        ])
        let scanEnable = HCICommandCatalogue.describe(HCICommandPacket(
            opcode: .leSetExtendedScanEnable, parameters: hexBytes("01 02 f401 0300")))
        #expect(scanEnable.fields == [
            .init("enable", "true"), .init("filter_duplicates", "reset-each-period (0x02)"),
            .init("duration", "0x01f4 (5000 ms)"), .init("period", "0x0003 (3840 ms)"),
        ])
        let data = HCICommandCatalogue.describe(leSetExtendedAdvertisingData.commandPacket)
        #expect(data.fields == [
            .init("advertising_handle", "1"), .init("operation", "complete (0x03)"),
            .init("fragment_preference", "should-not-fragment (0x01)"),
            .init("advertising_data_length", "7"), .init("advertising_data", "0201060303aafe"),
        ])
        let create = HCICommandCatalogue.describe(try #require(extendedCommandVectors.last).command.commandPacket)
        #expect(create.fields.contains(.init("initiating_phys", "0x05 (1M,Coded)")))
        #expect(create.fields.contains(.init("supervision_timeout[Coded]", "0x0190 (4000 ms)")))
        #expect(create.fields.contains(.init("connection_interval_min[1M]", "0x0018 (30 ms)")))
    }

    @Test func perPHYParametersAreFoundByPHY() throws {
        var reader = ByteReader(hexBytes("00 00 05 01 1200 1200 00 3600 2400"), context: "test")
        let scan = try HCILESetExtendedScanParameters(parameters: &reader)
        #expect(scan.scanningPHYs == [.le1M, .leCoded])
        #expect(scan.parameters(for: .leCoded)?.scanWindow == LEScanInterval(rawValue: 0x0024))
        #expect(scan.parameters(for: .le2M) == nil)
        let create = HCILEExtendedCreateConnection(peerAddressType: .publicDevice, peerAddress: .zero,
                                                   le1M: nil, le2M: extendedCreateConnection1M)
        #expect(create.initiatingPHYs == .le2M)
        #expect(create.parameters(for: .le2M) == extendedCreateConnection1M)
        #expect(create.parameters(for: .le1M) == nil)
    }

    @Test func reservedPHYBitsKeepTheirBlocks() throws {
        // Bit 3 is reserved: its block is still read and written back, and described by bit.
        let parameters = hexBytes("00 00 09 01 1200 1200 00 3600 2400")
        var reader = ByteReader(parameters, context: "test")
        let scan = try HCILESetExtendedScanParameters(parameters: &reader)
        #expect(scan.phyParameters.count == 2)
        #expect(scan.commandPacket.parameters == parameters)
        let description = HCICommandCatalogue.describe(scan.commandPacket)
        #expect(description.fields.contains(.init("scanning_phys", "0x09 (1M,bit3)")))
        #expect(description.fields.contains(.init("scan_type[bit3]", "passive (0x00)")))
    }

    @Test func missingPHYBlockThrowsAtItsFirstField() {
        // Scanning_PHYs names two PHYs, only one block follows.
        let error = decodeError(as: HCILESetExtendedScanParameters(le1M: nil),
                                hexBytes("00 00 05 01 1200 1200"))
        #expect(error?.offset == 3 + 8)
        #expect(error?.reason == .truncated(needed: 1, available: 0))
        #expect(error?.context == "HCI LE Set Extended Scan Parameters: scan_type[Coded]")
    }

    @Test func moreSetsClaimedThanPresentThrows() {
        let error = decodeError(as: HCILESetExtendedAdvertisingEnable(enable: true, sets: []),
                                hexBytes("01 03 01 f401 00 02 0000 0a"))
        #expect(error?.offset == 3 + 10)
        #expect(error?.context == "HCI LE Set Extended Advertising Enable: advertising_handle[2]")
    }

    @Test func extendedDataUpTo251Octets() throws {
        #expect(throws: WireError.self) {
            try HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: [UInt8](repeating: 1, count: 252))
        }
        #expect(throws: WireError.self) {
            try HCILESetExtendedScanResponseData(advertisingHandle: 0, scanResponseData: [UInt8](repeating: 1, count: 300))
        }
        let full = try HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: [UInt8](repeating: 7, count: 251))
        let packet = full.commandPacket
        #expect(packet.parameters.count == 255)
        #expect(packet.packet.h4Bytes[3] == 255)
        #expect(try HCICommandPacket(payload: packet.packet.payload).decode(as: HCILESetExtendedAdvertisingData.self) == full)
    }

    @Test func dataLengthPastTheEndThrowsAtTheData() {
        let error = decodeError(as: leSetExtendedAdvertisingData, hexBytes("01 03 00 09 020106"))
        #expect(error?.offset == 7)
        #expect(error?.reason == .truncated(needed: 9, available: 3))
        #expect(error?.context == "HCI LE Set Extended Advertising Data: advertising_data")
    }

    @Test func unitsAndOpenSets() {
        #expect(LEExtendedAdvertisingInterval(rawValue: 0x0000A0).duration == .milliseconds(100))
        #expect(LEExtendedAdvertisingInterval(rawValue: 0x1FF_FFFF).rawValue == 0xFF_FFFF)
        #expect(LEAdvertisingDuration(rawValue: 0x01F4).duration == .seconds(5))
        #expect(LEScanPeriod(rawValue: 1).duration == .milliseconds(1280))
        #expect(LEPeriodicAdvertisingInterval(rawValue: 0x0050).duration == .milliseconds(100))
        #expect(LEPHY(rawValue: 0x09).description == "0x09")
        #expect(LEAdvertisingEventProperties(rawValue: 0x0180).description == "0x0180 (bit7,bit8)")
        #expect(LEAdvertisingEventProperties.legacyAdvNonconnInd.description == "0x0010 (legacy)")
        #expect(LEAdvertisingDataOperation(rawValue: 0x05).description == "0x05")
        #expect(LEFilterDuplicates.disabled.description == "disabled (0x00)")
        #expect(LEPHYs([]).description == "0x00 (none)")
    }

    @Test func supportedCommandsStillFindTheMovedOpcodes() {
        let supported = HCISupportedCommands(supporting: [
            .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedAdvertisingEnable,
            .leSetExtendedScanParameters, .leSetExtendedScanEnable,
        ])
        #expect(supported.supportsExtendedAdvertising)
        #expect(supported.supportsExtendedScanning)
    }
}
