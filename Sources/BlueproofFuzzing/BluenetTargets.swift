import BlueproofBluenet
import BlueproofWire

extension FuzzTargets {
    /// What the Bluenet core takes from outside (docs/bluenet.md): advertisements, control characteristic writes and fingerprint strings.
    static let bluenet: [FuzzTarget] = [
        FuzzTarget("bluenet-advertisement", "advertising data and a scan response (split at the first byte) as a Bluenet advertisement, its JSON and the scan filters") { bytes in
            let split = min(Int(bytes.first ?? 0), max(0, bytes.count - 1))
            let rest = Array(bytes.dropFirst())
            let report = BluenetScanReport(handle: "fuzz", rssi: -60,
                                           advertisingData: (try? AdvertisingData(bytes: Array(rest.prefix(split)))) ?? AdvertisingData(),
                                           scanResponse: (try? AdvertisingData(bytes: Array(rest.dropFirst(split)))) ?? AdvertisingData())
            _ = BluenetAdvertisement(report: report).stringify()
            _ = BluenetScanFilter.crownstones.matches(report)
            _ = BluenetScanFilter.service(BluetoothUUID(uuid16: 0x180D)).matches(report)
        },
        FuzzTarget("bluenet-control", "a value written to the simulated Crownstone's control characteristic, as a switch command") { bytes in
            guard let packet = try? CrownstoneControlPacket(bytes: bytes) else { return }
            _ = packet.bytes
        },
        FuzzTarget("bluenet-fingerprint", "a fingerprint's stringified JSON (bluenet-lib-ios README, \"Fingerprint\")") { bytes in
            guard let fingerprint = try? Fingerprint(string: String(decoding: bytes, as: UTF8.self)) else { return }
            _ = fingerprint.stringify()
        },
    ]
}
