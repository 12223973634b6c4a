import Testing
import BlueproofWire

private func parameterBytes(_ command: some HCICommand) -> [UInt8] { command.commandPacket.parameters }

/// Decodes `parameters` as the command's own type and says whether it equals `command`.
private func decodesBack<C: HCICommand>(_ command: C, from parameters: [UInt8]) throws(WireError) -> Bool {
    try HCICommandPacket(opcode: C.opcode, parameters: parameters).decode(as: C.self) == command
}

/// The error decoding `parameters` as `command`'s type throws, nil if it decodes.
private func decodeError<C: HCICommand>(as command: C, _ parameters: [UInt8]) -> WireError? {
    do {
        _ = try HCICommandPacket(opcode: C.opcode, parameters: parameters).decode(as: C.self)
        return nil
    } catch {
        return error
    }
}

@Suite("HCI command codecs")
struct HCICommandCodecTests {
    @Test("encodes to the spec layout", arguments: commandVectors)
    func encodes(_ vector: CommandVector) {
        #expect(hex(parameterBytes(vector.command)) == hex(vector.parameters))
        #expect(vector.parameters.count == vector.widths.reduce(0, +))
    }

    @Test("H4 packet: indicator, opcode, length, parameters", arguments: commandVectors)
    func framesAsH4(_ vector: CommandVector) {
        let opcode = type(of: vector.command).opcode
        let expected = [0x01, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(vector.parameters.count)]
            + vector.parameters
        #expect(hex(vector.command.packet.h4Bytes) == hex(expected))
    }

    @Test("decodes back to the same command", arguments: commandVectors)
    func decodes(_ vector: CommandVector) throws {
        #expect(try decodesBack(vector.command, from: vector.parameters))
    }

    @Test("every truncated parameter block throws at the missing field", arguments: commandVectors)
    func truncated(_ vector: CommandVector) {
        for prefix in 0..<vector.parameters.count {
            let error = decodeError(as: vector.command, Array(vector.parameters.prefix(prefix)))
            let expected = vector.expectedTruncationPoint(prefix: prefix)
            #expect(error?.offset == expected?.offset, "prefix \(prefix)")
            #expect(error?.reason == expected?.reason, "prefix \(prefix)")
        }
    }

    @Test("a trailing byte after the fixed layout throws", arguments: commandVectors)
    func trailing(_ vector: CommandVector) {
        let count = vector.parameters.count
        let error = decodeError(as: vector.command, vector.parameters + [0x00])
        #expect(error?.offset == 3 + count)
        #expect(error?.reason == .lengthMismatch(declared: count + 1, actual: count))
    }

    @Test("opcodes are the spec's OGF|OCF", arguments: [
        (HCIDisconnect.opcode, 0x0406), (HCISetEventMask.opcode, 0x0C01), (HCIReset.opcode, 0x0C03),
        (HCIReadLocalVersionInformation.opcode, 0x1001), (HCIReadLocalSupportedCommands.opcode, 0x1002),
        (HCIReadLocalSupportedFeatures.opcode, 0x1003), (HCIReadBufferSize.opcode, 0x1005),
        (HCIReadBDADDR.opcode, 0x1009), (HCIReadRSSI.opcode, 0x1405), (HCILESetEventMask.opcode, 0x2001),
        (HCILEReadBufferSize.opcode, 0x2002), (HCILEReadLocalSupportedFeatures.opcode, 0x2003),
        (HCILESetRandomAddress.opcode, 0x2005), (HCILESetAdvertisingParameters.opcode, 0x2006),
        (HCILESetAdvertisingData.opcode, 0x2008), (HCILESetScanResponseData.opcode, 0x2009),
        (HCILESetAdvertisingEnable.opcode, 0x200A), (HCILESetScanParameters.opcode, 0x200B),
        (HCILESetScanEnable.opcode, 0x200C), (HCILECreateConnection.opcode, 0x200D),
        (HCILECreateConnectionCancel.opcode, 0x200E), (HCILEConnectionUpdate.opcode, 0x2013),
        (HCILESetDataLength.opcode, 0x2022), (HCILEReadBufferSizeV2.opcode, 0x2060),
    ] as [(HCIOpcode, UInt16)])
    func opcodes(_ opcode: HCIOpcode, _ raw: UInt16) {
        #expect(opcode.rawValue == raw)
    }

    @Test func commandsAnsweredByCommandStatus() {
        #expect(HCILECreateConnection.answeredByCommandStatus)
        #expect(HCIDisconnect.answeredByCommandStatus)
        #expect(HCILEConnectionUpdate.answeredByCommandStatus)
        #expect(!HCILECreateConnectionCancel.answeredByCommandStatus)
        #expect(!HCILESetScanEnable.answeredByCommandStatus)
        #expect(!HCIReset.answeredByCommandStatus)
    }

    @Test func advertisingDataOver31OctetsIsRefusedOnConstruction() {
        #expect(throws: WireError.self) { try HCILESetAdvertisingData(advertisingData: [UInt8](repeating: 1, count: 32)) }
        #expect(throws: WireError.self) { try HCILESetScanResponseData(scanResponseData: [UInt8](repeating: 1, count: 40)) }
        #expect(throws: Never.self) { try HCILESetAdvertisingData(advertisingData: [UInt8](repeating: 1, count: 31)) }
    }

    @Test func advertisingDataLengthOver31IsRefusedOnDecode() {
        let parameters = [UInt8(32)] + [UInt8](repeating: 0, count: 31)
        let error = decodeError(as: leSetAdvertisingData, parameters)
        #expect(error?.offset == 3)
        guard case .invalidValue? = error?.reason else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(decodeError(as: leSetScanResponseData, [0xFF] + [UInt8](repeating: 0, count: 31))?.offset == 3)
    }

    @Test func fullAdvertisingDataAndPaddingContent() throws {
        let full = Array(1...31).map(UInt8.init)
        let command = try HCILESetAdvertisingData(advertisingData: full)
        #expect(parameterBytes(command) == [31] + full)
        // Octets past the significant length are padding: their content does not matter.
        var reader = ByteReader([2, 0xAA, 0xBB] + [UInt8](repeating: 0xEE, count: 29), context: "test")
        #expect(try HCILESetAdvertisingData(parameters: &reader).advertisingData == [0xAA, 0xBB])
        let empty = try HCILESetScanResponseData(scanResponseData: [])
        #expect(parameterBytes(empty) == [UInt8](repeating: 0, count: 32))
    }

    @Test func booleansOtherThanZeroOrOneAreRefused() {
        let enable = decodeError(as: HCILESetAdvertisingEnable(advertisingEnable: true), [0x02])
        #expect(enable?.offset == 3)
        let duplicates = decodeError(as: HCILESetScanEnable(scanEnable: true), [0x01, 0x05])
        #expect(duplicates?.offset == 4)
        #expect(duplicates?.reason == .invalidValue("0x05 is neither 0x00 nor 0x01"))
    }

    @Test func openSetsKeepUnknownValues() throws {
        // A reserved advertising type and own address type survive a round trip.
        var parameters = hexBytes("a000 f000 00 00 01 665544332211 07 00")
        parameters[4] = 0x7F
        parameters[5] = 0x09
        var reader = ByteReader(parameters, context: "test")
        let decoded = try HCILESetAdvertisingParameters(parameters: &reader)
        #expect(decoded.advertisingType == LEAdvertisingType(rawValue: 0x7F))
        #expect(decoded.advertisingType.description == "0x7f")
        #expect(decoded.ownAddressType.rawValue == 0x09)
        #expect(parameterBytes(decoded) == parameters)
    }

    @Test func unitsCarryTheirDurations() {
        let command = HCILECreateConnection(
            scanInterval: LEScanInterval(rawValue: 0x0060), scanWindow: LEScanInterval(rawValue: 0x0030),
            peerAddressType: .publicDevice, peerAddress: .zero,
            connectionIntervalMin: LEConnectionInterval(rawValue: 0x0018),
            connectionIntervalMax: LEConnectionInterval(rawValue: 0x0028),
            supervisionTimeout: LESupervisionTimeout(rawValue: 0x002A))
        #expect(command.scanInterval.duration == .milliseconds(60))
        #expect(command.connectionIntervalMin.duration == .milliseconds(30))
        #expect(command.supervisionTimeout.duration == .milliseconds(420))
        #expect(LEPacketTime(rawValue: 2120).duration == .microseconds(2120))
    }
}
