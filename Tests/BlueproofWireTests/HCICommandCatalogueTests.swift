import Testing
import BlueproofWire

private func sameCommand<C: HCICommand>(_ command: C, _ other: (any HCICommand)?) -> Bool {
    (other as? C) == command
}

@Suite("HCI command catalogue")
struct HCICommandCatalogueTests {
    @Test("every command is catalogued under its name", arguments: commandVectors)
    func catalogued(_ vector: CommandVector) throws {
        let packet = vector.command.commandPacket
        let name = type(of: vector.command).name
        #expect(HCICommandCatalogue.name(of: packet.opcode) == name)
        let description = HCICommandCatalogue.describe(packet)
        #expect(description.name == name)
        #expect(description.malformed == nil)
        #expect(description.fields.count == vector.widths.count)
        #expect(sameCommand(vector.command, try HCICommandCatalogue.decode(packet)))
    }

    @Test func knowsExactlyTheCommandsWithCodecs() {
        #expect(HCICommandCatalogue.knownOpcodes.count == 34)
        #expect(HCICommandCatalogue.knownOpcodes == HCICommandCatalogue.knownOpcodes.sorted())
    }

    @Test func describesScanParameters() {
        let description = HCICommandCatalogue.describe(
            HCICommandPacket(opcode: .leSetScanParameters, parameters: hexBytes("01 1000 1000 01 00")))
        #expect(description.name == "LE Set Scan Parameters")
        #expect(description.fields == [
            .init("scan_type", "active (0x01)"),
            .init("scan_interval", "0x0010 (10 ms)"),
            .init("scan_window", "0x0010 (10 ms)"),
            .init("own_address_type", "random (0x01)"),
            .init("scanning_filter_policy", "basic-unfiltered (0x00)"),
        ])
        #expect(description.line.hasPrefix("LE Set Scan Parameters scan_type=active (0x01) scan_interval=0x0010 (10 ms)"))
    }

    @Test func describesAddressesAndBooleans() {
        let create = HCICommandCatalogue.describe(HCICommandPacket(
            opcode: .leCreateConnection,
            parameters: hexBytes("6000 6000 00 01 5544332211c0 00 1800 2800 0000 2a00 0000 0000")))
        #expect(create.fields.contains(.init("peer_address", "C0:11:22:33:44:55")))
        #expect(create.fields.contains(.init("peer_address_type", "random")))
        #expect(create.fields.contains(.init("connection_interval_min", "0x0018 (30 ms)")))
        #expect(create.fields.contains(.init("supervision_timeout", "0x002a (420 ms)")))
        let enable = HCICommandCatalogue.describe(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01, 0x00]))
        #expect(enable.fields == [.init("scan_enable", "true"), .init("filter_duplicates", "false")])
        let disconnect = HCICommandCatalogue.describe(HCICommandPacket(opcode: .disconnect, parameters: hexBytes("4000 13")))
        #expect(disconnect.fields == [
            .init("handle", "64"), .init("reason", "Remote User Terminated Connection (0x13)"),
        ])
        let data = HCICommandCatalogue.describe(leSetAdvertisingData.commandPacket)
        #expect(data.fields == [.init("advertising_data_length", "7"), .init("advertising_data", "0201060303aafe")])
    }

    @Test func unknownOpcodeIsUnknownCommand() throws {
        // OGF 0x08, OCF 0x03FF: no command of Core 5.4.
        let description = HCICommandCatalogue.describe(
            HCICommandPacket(opcode: HCIOpcode(ogf: 0x08, ocf: 0x03FF), parameters: [0xDE, 0xAD]))
        #expect(description.name == "Unknown Command")
        #expect(description.fields == [.init("opcode", "0x08|0x03ff"), .init("parameters", "dead")])
        #expect(description.malformed == nil)
        #expect(HCICommandCatalogue.name(of: HCIOpcode(ogf: 0x08, ocf: 0x03FF)) == nil)
        #expect(HCICommandCatalogue.name(of: HCIOpcode(ogf: 0x3F, ocf: 0x0001)) == "Vendor")
        #expect(try HCICommandCatalogue.decode(HCICommandPacket(opcode: HCIOpcode(rawValue: 0xFC01), parameters: [])) == nil)
    }

    @Test func badParametersAreMalformed() {
        let short = HCICommandCatalogue.describe(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01]))
        #expect(short.name == "LE Set Scan Enable")
        #expect(short.malformed?.reason == .truncated(needed: 1, available: 0))
        #expect(short.malformed?.offset == 4)
        let long = HCICommandCatalogue.describe(HCICommandPacket(opcode: .reset, parameters: [0x00]))
        #expect(long.name == "Reset")
        #expect(long.malformed?.reason == .lengthMismatch(declared: 1, actual: 0))
        #expect(long.line.contains("[malformed:"))
        #expect(throws: WireError.self) {
            try HCICommandCatalogue.decode(HCICommandPacket(opcode: .readRSSI, parameters: [0x01]))
        }
    }

    @Test func returnOfARefusedCommandIsItsStatus() {
        #expect(HCICommandCatalogue.describeReturn(of: .readBDADDR, [0x01])
                == [.init("status", "Unknown HCI Command (0x01)")])
    }

    @Test func shortSuccessfulReturnIsMalformed() {
        let fields = HCICommandCatalogue.describeReturn(of: .readBDADDR, [0x00, 0x23, 0x00])
        #expect(fields.first == .init("status", "Success (0x00)"))
        #expect(fields.contains { $0.name == "malformed" && $0.value.contains("truncated") })
        #expect(HCICommandCatalogue.describeReturn(of: .reset, []).map(\.name) == ["malformed"])
    }

    @Test func returnOfAnUnknownOpcodeKeepsItsBytes() {
        let fields = HCICommandCatalogue.describeReturn(of: HCIOpcode(rawValue: 0xFC01), [0x00, 0x12, 0x34])
        #expect(fields == [.init("status", "Success (0x00)"), .init("return", "1234")])
    }

    @Test func describesSupportedFeatureNames() {
        let fields = HCICommandCatalogue.describeReturn(of: .leReadLocalSupportedFeatures, hexBytes("00 2100000000000000"))
        #expect(fields.last == .init("le_features", "0x0000000000000021 (LE Encryption, LE Data Packet Length Extension)"))
    }
}
