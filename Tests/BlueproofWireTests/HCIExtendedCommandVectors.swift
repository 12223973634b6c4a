import Testing
import BlueproofWire

let leSetExtendedAdvertisingData: HCILESetExtendedAdvertisingData = {
    do {
        return try HCILESetExtendedAdvertisingData(advertisingHandle: 1, operation: .completeData,
                                                   fragmentPreference: .controllerShouldNotFragment,
                                                   advertisingData: hexBytes("020106 0303aafe"))
    } catch { fatalError("\(error)") }
}()

let leSetExtendedScanResponseData: HCILESetExtendedScanResponseData = {
    do {
        return try HCILESetExtendedScanResponseData(advertisingHandle: 1, operation: .firstFragment,
                                                    scanResponseData: hexBytes("05 09 62 70 66 79"))
    } catch { fatalError("\(error)") }
}()

let extendedCreateConnection1M = HCILEExtendedCreateConnection.PHYParameters(
    scanInterval: LEScanInterval(rawValue: 0x0060), scanWindow: LEScanInterval(rawValue: 0x0060),
    connectionIntervalMin: LEConnectionInterval(rawValue: 0x0018),
    connectionIntervalMax: LEConnectionInterval(rawValue: 0x0028), maxLatency: 0,
    supervisionTimeout: LESupervisionTimeout(rawValue: 0x002A))

let extendedCreateConnectionCoded = HCILEExtendedCreateConnection.PHYParameters(
    scanInterval: LEScanInterval(rawValue: 0x0180), scanWindow: LEScanInterval(rawValue: 0x0090),
    connectionIntervalMin: LEConnectionInterval(rawValue: 0x0050),
    connectionIntervalMax: LEConnectionInterval(rawValue: 0x0050), maxLatency: 2,
    supervisionTimeout: LESupervisionTimeout(rawValue: 0x0190),
    minCELength: LEConnectionEventLength(rawValue: 1), maxCELength: LEConnectionEventLength(rawValue: 2))

/// The extended advertising, scanning and connection commands. Byte layouts written by hand
/// from the parameter tables of Core Vol 4, Part E §7.8.52–§7.8.66, checked against the
/// packed structures of BlueZ's monitor/bt.h.
let extendedCommandVectors: [CommandVector] = [
    CommandVector(HCILESetAdvertisingSetRandomAddress(advertisingHandle: 1, randomAddress: address("C0:11:22:33:44:55")),
                  "01 5544332211c0", widths: [1, 6]),
    CommandVector(
        HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: .legacyAdvInd,
            primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval(rawValue: 0x0000A0),
            primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval(rawValue: 0x0000F0),
            primaryAdvertisingChannelMap: .all, ownAddressType: .publicDevice,
            peerAddressType: .randomDevice, peerAddress: address("11:22:33:44:55:66"),
            advertisingFilterPolicy: .acceptAll, advertisingTXPower: nil, primaryAdvertisingPHY: .le1M,
            secondaryAdvertisingMaxSkip: 0, secondaryAdvertisingPHY: .le1M, advertisingSID: 0,
            scanRequestNotificationEnable: false),
        "00 1300 a00000 f00000 07 00 01 665544332211 00 7f 01 00 01 00 00",
        widths: [1, 2, 3, 3, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1]),
    CommandVector(
        HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 2, advertisingEventProperties: [.connectable],
            primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval(rawValue: 0x000800),
            primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval(rawValue: 0x010000),
            ownAddressType: .randomDevice, advertisingTXPower: -8, primaryAdvertisingPHY: .leCoded,
            secondaryAdvertisingPHY: .le2M, advertisingSID: 5, scanRequestNotificationEnable: true),
        "02 0100 000800 000001 07 01 00 000000000000 00 f8 03 00 02 05 01",
        widths: [1, 2, 3, 3, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1]),
    CommandVector(leSetExtendedAdvertisingData, "01 03 01 07 0201060303aafe", widths: [1, 1, 1, 1, 7]),
    CommandVector(leSetExtendedScanResponseData, "01 01 00 06 050962706679", widths: [1, 1, 1, 1, 6]),
    CommandVector(
        HCILESetExtendedAdvertisingEnable(enable: true, sets: [
            .init(advertisingHandle: 1, duration: LEAdvertisingDuration(rawValue: 0x01F4)),
            .init(advertisingHandle: 2, maxExtendedAdvertisingEvents: 10),
        ]),
        "01 02 01 f401 00 02 0000 0a", widths: [1, 1, 1, 2, 1, 1, 2, 1]),
    CommandVector(HCILESetExtendedAdvertisingEnable(enable: false, sets: []), "00 00", widths: [1, 1]),
    CommandVector(HCILEReadMaximumAdvertisingDataLength(), ""),
    CommandVector(HCILERemoveAdvertisingSet(advertisingHandle: 3), "03", widths: [1]),
    CommandVector(
        HCILESetExtendedScanParameters(
            ownAddressType: .publicDevice, scanningFilterPolicy: .basicUnfiltered,
            le1M: .init(scanType: .active, scanInterval: LEScanInterval(rawValue: 0x0012),
                        scanWindow: LEScanInterval(rawValue: 0x0012)),
            leCoded: .init(scanType: .passive, scanInterval: LEScanInterval(rawValue: 0x0036),
                           scanWindow: LEScanInterval(rawValue: 0x0024))),
        "00 00 05 01 1200 1200 00 3600 2400", widths: [1, 1, 1, 1, 2, 2, 1, 2, 2]),
    CommandVector(
        HCILESetExtendedScanParameters(
            ownAddressType: .randomDevice,
            le1M: .init(scanType: .active, scanInterval: LEScanInterval(rawValue: 0x0010),
                        scanWindow: LEScanInterval(rawValue: 0x0010))),
        "01 00 01 01 1000 1000", widths: [1, 1, 1, 1, 2, 2]),
    CommandVector(
        HCILESetExtendedScanEnable(enable: true, filterDuplicates: .enabled,
                                   duration: LEScanDuration(rawValue: 0x01F4), period: .scanOnce),
        "01 01 f401 0000", widths: [1, 1, 2, 2]),
    CommandVector(
        HCILEExtendedCreateConnection(
            initiatorFilterPolicy: .peerAddress, ownAddressType: .publicDevice, peerAddressType: .randomDevice,
            peerAddress: address("C0:11:22:33:44:55"), le1M: extendedCreateConnection1M),
        "00 00 01 5544332211c0 01 6000 6000 1800 2800 0000 2a00 0000 0000",
        widths: [1, 1, 1, 6, 1, 2, 2, 2, 2, 2, 2, 2, 2]),
    CommandVector(
        HCILEExtendedCreateConnection(
            peerAddressType: .publicDevice, peerAddress: address("00:AA:01:00:00:23"),
            le1M: extendedCreateConnection1M, leCoded: extendedCreateConnectionCoded),
        "00 00 00 23000001aa00 05 6000 6000 1800 2800 0000 2a00 0000 0000 8001 9000 5000 5000 0200 9001 0100 0200",
        widths: [1, 1, 1, 6, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]),
]

let extendedReturnVectors: [ReturnVector] = [
    ReturnVector(.leSetExtendedAdvertisingParameters,
                 HCILESetExtendedAdvertisingParameters.ReturnParameters(selectedTXPower: -4), "00 fc", widths: [1, 1]),
    ReturnVector(.leReadMaximumAdvertisingDataLength,
                 HCILEReadMaximumAdvertisingDataLength.ReturnParameters(maxAdvertisingDataLength: 1650), "00 7206",
                 widths: [1, 2]),
]
