import Testing
import BlueproofWire

/// One command, its parameter bytes as laid out in Core Vol 4, Part E §7, and the widths of
/// its parameters in order (to know where a truncated block must fail).
struct CommandVector: Sendable, CustomTestStringConvertible {
    let command: any HCICommand
    let parameters: [UInt8]
    let widths: [Int]

    init(_ command: any HCICommand, _ parameters: String, widths: [Int] = []) {
        self.command = command
        self.parameters = hexBytes(parameters)
        self.widths = widths
    }

    var testDescription: String { type(of: command).name }

    /// Where decoding `prefix` bytes of the parameters must fail: the first parameter not
    /// wholly present. Offsets count from the start of the command packet (opcode, length).
    func expectedTruncationPoint(prefix: Int) -> (offset: Int, reason: WireError.Reason)? {
        expectedTruncation(widths: widths, prefix: prefix, firstOffset: 3)
    }
}

let leSetAdvertisingData: HCILESetAdvertisingData = {
    do { return try HCILESetAdvertisingData(advertisingData: hexBytes("020106 0303aafe")) } catch { fatalError("\(error)") }
}()

let leSetScanResponseData: HCILESetScanResponseData = {
    do { return try HCILESetScanResponseData(scanResponseData: hexBytes("05 09 62 70 66 79")) } catch { fatalError("\(error)") }
}()

/// Every command with a codec. Byte layouts written by hand from the parameter tables of
/// Core Vol 4, Part E §7 (not yet compared with a live btmon or tshark capture).
let commandVectors: [CommandVector] = [
    CommandVector(HCIReset(), ""),
    CommandVector(HCISetEventMask(eventMask: HCIEventMask.default.union(.leMeta)), "ffffffffff1f0020", widths: [8]),
    CommandVector(HCIReadLocalVersionInformation(), ""),
    CommandVector(HCIReadLocalSupportedCommands(), ""),
    CommandVector(HCIReadLocalSupportedFeatures(), ""),
    CommandVector(HCIReadBufferSize(), ""),
    CommandVector(HCIReadBDADDR(), ""),
    CommandVector(HCIReadRSSI(handle: 0x0001), "0100", widths: [2]),
    CommandVector(HCIDisconnect(connectionHandle: 0x0040, reason: .remoteUserTerminated), "4000 13", widths: [2, 1]),
    CommandVector(HCILESetEventMask(leEventMask: HCILEEventMask.default.union(.dataLengthChange)), "5f00000000000000", widths: [8]),
    CommandVector(HCILEReadBufferSize(), ""),
    CommandVector(HCILEReadBufferSizeV2(), ""),
    CommandVector(HCILEReadLocalSupportedFeatures(), ""),
    CommandVector(HCILESetRandomAddress(randomAddress: address("C0:11:22:33:44:55")), "5544332211c0", widths: [6]),
    CommandVector(
        HCILESetAdvertisingParameters(
            advertisingIntervalMin: LEAdvertisingInterval(rawValue: 0x00A0),
            advertisingIntervalMax: LEAdvertisingInterval(rawValue: 0x00F0),
            advertisingType: .advInd, ownAddressType: .publicDevice,
            peerAddressType: .randomDevice, peerAddress: address("11:22:33:44:55:66"),
            advertisingChannelMap: .all, advertisingFilterPolicy: .acceptAll),
        "a000 f000 00 00 01 665544332211 07 00", widths: [2, 2, 1, 1, 1, 6, 1, 1]),
    CommandVector(leSetAdvertisingData,
                  "07 020106 0303aafe" + String(repeating: "00", count: 24), widths: [1, 31]),
    CommandVector(leSetScanResponseData,
                  "06 050962706679" + String(repeating: "00", count: 25), widths: [1, 31]),
    CommandVector(HCILESetAdvertisingEnable(advertisingEnable: true), "01", widths: [1]),
    CommandVector(
        HCILESetScanParameters(scanType: .active, scanInterval: LEScanInterval(rawValue: 0x0012),
                               scanWindow: LEScanInterval(rawValue: 0x0012), ownAddressType: .publicDevice,
                               scanningFilterPolicy: .basicUnfiltered),
        "01 1200 1200 00 00", widths: [1, 2, 2, 1, 1]),
    CommandVector(HCILESetScanEnable(scanEnable: true, filterDuplicates: true), "01 01", widths: [1, 1]),
    CommandVector(
        HCILECreateConnection(
            scanInterval: LEScanInterval(rawValue: 0x0060), scanWindow: LEScanInterval(rawValue: 0x0060),
            initiatorFilterPolicy: .peerAddress, peerAddressType: .randomDevice,
            peerAddress: address("C0:11:22:33:44:55"), ownAddressType: .publicDevice,
            connectionIntervalMin: LEConnectionInterval(rawValue: 0x0018),
            connectionIntervalMax: LEConnectionInterval(rawValue: 0x0028), maxLatency: 0,
            supervisionTimeout: LESupervisionTimeout(rawValue: 0x002A),
            minCELength: LEConnectionEventLength(rawValue: 0), maxCELength: LEConnectionEventLength(rawValue: 0)),
        "6000 6000 00 01 5544332211c0 00 1800 2800 0000 2a00 0000 0000",
        widths: [2, 2, 1, 1, 6, 1, 2, 2, 2, 2, 2, 2]),
    CommandVector(HCILECreateConnectionCancel(), ""),
    CommandVector(
        HCILEConnectionUpdate(
            connectionHandle: 0x0040, connectionIntervalMin: LEConnectionInterval(rawValue: 0x0006),
            connectionIntervalMax: LEConnectionInterval(rawValue: 0x000C), maxLatency: 4,
            supervisionTimeout: LESupervisionTimeout(rawValue: 0x01F4),
            minCELength: LEConnectionEventLength(rawValue: 0), maxCELength: LEConnectionEventLength(rawValue: 0x0010)),
        "4000 0600 0c00 0400 f401 0000 1000", widths: [2, 2, 2, 2, 2, 2, 2]),
    CommandVector(HCILESetDataLength(connectionHandle: 0x0001, txOctets: 251, txTime: LEPacketTime(rawValue: 2120)),
                  "0100 fb00 4808", widths: [2, 2, 2]),
] + extendedCommandVectors

/// Return parameters of Command Complete, by opcode, with their bytes and field widths.
struct ReturnVector: Sendable, CustomTestStringConvertible {
    let opcode: HCIOpcode
    let value: any HCIReturnParameters
    let bytes: [UInt8]
    let widths: [Int]

    init(_ opcode: HCIOpcode, _ value: any HCIReturnParameters, _ bytes: String, widths: [Int]) {
        self.opcode = opcode
        self.value = value
        self.bytes = hexBytes(bytes)
        self.widths = widths
    }

    var testDescription: String { HCICommandCatalogue.name(of: opcode) ?? opcode.description }
}

/// A Read Local Supported Commands answer of an LE-only controller (Zephyr-style): legacy
/// advertising, scanning, connections and data length; no extended advertising.
let leOnlyControllerCommands = hexBytes(
    "2000800000C000000000E40000002822000000000000040000F7FFFF7F00000030C07FFE01008004000400000040000000000000000000000000000000000000")

let returnVectors: [ReturnVector] = [
    ReturnVector(.reset, HCIStatusReturn(status: .success), "00", widths: [1]),
    ReturnVector(.readLocalVersionInformation,
                 HCIReadLocalVersionInformation.ReturnParameters(
                     hciVersion: 0x0C, hciSubversion: 0x1234, lmpVersion: 0x0C,
                     companyIdentifier: 0x0002, lmpSubversion: 0x5678),
                 "00 0c 3412 0c 0200 7856", widths: [1, 1, 2, 1, 2, 2]),
    ReturnVector(.readLocalSupportedCommands,
                 HCIReadLocalSupportedCommands.ReturnParameters(
                     supportedCommands: HCISupportedCommands(leOnlyControllerCommands)),
                 "00" + hex(leOnlyControllerCommands), widths: [1, 64]),
    ReturnVector(.readLocalSupportedFeatures,
                 HCIReadLocalSupportedFeatures.ReturnParameters(lmpFeatures: 0x875B_3FD8_FE8F_FEFF),
                 "00 fffe8ffed83f5b87", widths: [1, 8]),
    ReturnVector(.readBufferSize,
                 HCIReadBufferSize.ReturnParameters(aclDataPacketLength: 1021, synchronousDataPacketLength: 64,
                                                    totalNumACLDataPackets: 8, totalNumSynchronousDataPackets: 1),
                 "00 fd03 40 0800 0100", widths: [1, 2, 1, 2, 2]),
    ReturnVector(.readBDADDR, HCIReadBDADDR.ReturnParameters(bdAddr: address("00:AA:01:00:00:23")),
                 "00 23000001aa00", widths: [1, 6]),
    ReturnVector(.readRSSI, HCIReadRSSI.ReturnParameters(handle: 0x0040, rssi: -60), "00 4000 c4", widths: [1, 2, 1]),
    ReturnVector(.leReadBufferSize,
                 HCILEReadBufferSize.ReturnParameters(leACLDataPacketLength: 27, totalNumLEACLDataPackets: 20),
                 "00 1b00 14", widths: [1, 2, 1]),
    ReturnVector(.leReadBufferSizeV2,
                 HCILEReadBufferSizeV2.ReturnParameters(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 10,
                                                        isoDataPacketLength: 100, totalNumISODataPackets: 4),
                 "00 fb00 0a 6400 04", widths: [1, 2, 1, 2, 1]),
    ReturnVector(.leReadLocalSupportedFeatures,
                 HCILEReadLocalSupportedFeatures.ReturnParameters(leFeatures: HCILEFeatures(rawValue: 0x59FF)),
                 "00 ff59000000000000", widths: [1, 8]),
    ReturnVector(.leSetDataLength, HCILESetDataLength.ReturnParameters(connectionHandle: 0x0001), "00 0100",
                 widths: [1, 2]),
] + extendedReturnVectors
