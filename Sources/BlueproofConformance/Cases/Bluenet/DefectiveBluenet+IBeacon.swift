import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofWire

/// The iBeacon defects of ``DefectiveBluenet`` (BLN/BCN BI-01, BI-02, BV-01, BV-02): how the
/// reference under them reads beacons, and how their ranged packets leave it.
extension DefectiveBluenet {
    /// The group a variant that ranges untracked beacons files them under.
    static let untrackedGroup = "default"

    /// The iBeacon reader the reference under `defects` is given, and every beacon it reads
    /// (``Defect/bluenetRangesUntracked`` tracks each one's UUID).
    public static func beaconReading(_ defects: Set<Defect>) -> (reader: IBeaconReader, beacons: AsyncStream<IBeacon>) {
        let (beacons, heard) = AsyncStream.makeStream(of: IBeacon.self, bufferingPolicy: .bufferingNewest(16))
        let lenient = defects.contains(.bluenetIBeaconAnyCompany)
        return ({ data in
            guard let beacon = IBeacon(advertisingData: data) ?? (lenient ? anyCompanyBeacon(in: data) : nil) else { return nil }
            heard.yield(beacon)
            return beacon
        }, beacons)
    }

    /// Manufacturer data of any company whose octets after the type have an iBeacon's length
    /// and layout, read as if it were Apple's of type 0x02.
    static func anyCompanyBeacon(in data: AdvertisingData) -> IBeacon? {
        for structure in data.structures where structure.type == .manufacturerSpecificData {
            guard let found = try? ManufacturerSpecificData(adData: structure.data), found.data.count == 2 + Int(IBeacon.beaconLength),
                  let beacon = try? IBeacon(manufacturerData: ManufacturerSpecificData(
                      companyIdentifier: ManufacturerSpecificData.appleCompanyIdentifier, data: [IBeacon.beaconType] + found.data.dropFirst()))
            else { continue }
            return beacon
        }
        return nil
    }

    /// Tracks the UUID of every beacon in `beacons` once, under ``untrackedGroup``; with `gate`,
    /// only once the caller tracked a UUID of its own.
    static func rangeEvery(_ beacons: AsyncStream<IBeacon>, on inner: any BluenetControl, once gate: TrackedUUID? = nil) -> Task<Void, Never> {
        Task {
            var ranged: Set<BluetoothUUID> = []
            for await beacon in beacons {
                if let gate, gate.value.withLock({ $0 }) == nil { continue }
                guard ranged.insert(beacon.proximityUUID).inserted else { continue }
                try? await inner.trackUUID(beacon.proximityUUIDString, groupId: untrackedGroup)
            }
        }
    }

    /// An iBeaconAdvertisement's packets as the iBeacon defects among `defects` read them.
    static func misread(_ text: String, by defects: Set<Defect>) -> String {
        let reversed = defects.contains(.bluenetIBeaconUUIDReversed), swapped = defects.contains(.bluenetMajorMinorLittleEndian)
        let unheard = defects.contains(.bluenetRangedRSSIZero)
        guard reversed || swapped || unheard, let packets = BluenetPublication.parseArray(text) else { return text }
        let misread = packets.map { packet -> String in
            guard let uuid = (packet["uuid"] as? String).flatMap(BluetoothUUID.init), let major = (packet["major"] as? Int).flatMap(UInt16.init(exactly:)),
                  let minor = (packet["minor"] as? Int).flatMap(UInt16.init(exactly:)), let rssi = packet["rssi"] as? Int else {
                return BluenetPublication.canonical(packet) ?? "null"
            }
            var beacon = IBeacon(proximityUUID: uuid, major: major, minor: minor, measuredPower: 0)
            if reversed { beacon.proximityUUID = BluetoothUUID(bigEndian: uuid.bigEndianBytes.reversed()) }
            if swapped { (beacon.major, beacon.minor) = (major.byteSwapped, minor.byteSwapped) }
            return IBeaconPacket(beacon: beacon, rssi: unheard ? 0 : rssi).stringify()
        }
        return "[" + misread.joined(separator: ",") + "]"
    }
}
