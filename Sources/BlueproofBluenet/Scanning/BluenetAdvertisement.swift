import BlueproofWire

/// One advertisement as the "advertisementData" topic carries it (bluenet-lib-ios README,
/// "Advertisement"): handle, name, RSSI and the service data, decoded for a Crownstone and as
/// byte values 0–255 for any other device.
public struct BluenetAdvertisement: Hashable, Sendable {
    public enum ServiceData: Hashable, Sendable {
        /// A Crownstone's scan response service data, under its service UUID.
        case crownstone(uuid: BluetoothUUID, CrownstoneServiceData)
        /// Another device's (first) service data, the octets after the UUID.
        case bytes([UInt8])
    }

    /// The peer's handle (on iOS a UUID per device per phone; here the host's name for it).
    public var handle: String
    public var name: String
    public var rssi: Int
    public var serviceData: ServiceData?
    /// Why service data under a Crownstone UUID was not decoded (then ``serviceData`` is its bytes).
    public var serviceDataError: BluenetError?

    public init(handle: String, name: String, rssi: Int, serviceData: ServiceData?, serviceDataError: BluenetError? = nil) {
        self.handle = handle
        self.name = name
        self.rssi = rssi
        self.serviceData = serviceData
        self.serviceDataError = serviceDataError
    }

    /// Decodes a report. Malformed parts (a bad name, a short service data structure) read as
    /// absent; Crownstone service data of the wrong length is kept as bytes with the reason.
    public init(report: BluenetScanReport) {
        let name = (try? report.all.localName) ?? nil
        var decoded: ServiceData?
        var failure: BluenetError?
        if let crownstone = report.scanResponse.decodableServiceData.first(where: {
            CrownstoneServiceData.crownstoneServiceUUIDs.contains($0.uuid)
        }) {
            do throws(BluenetError) {
                decoded = .crownstone(uuid: crownstone.uuid, try CrownstoneServiceData(bytes: crownstone.data))
            } catch {
                decoded = .bytes(crownstone.data)
                failure = error
            }
        } else if let first = report.all.decodableServiceData.first {
            decoded = .bytes(first.data)
        }
        self.init(handle: report.handle, name: name ?? "", rssi: report.rssi, serviceData: decoded, serviceDataError: failure)
    }

    public var isCrownstone: Bool {
        if case .crownstone = serviceData { return true }
        return false
    }

    /// The document's JSON, keys sorted, no whitespace ("Data Objects": stringify). The
    /// Crownstone object sits under its service UUID (`"C001"`); crownstoneId and
    /// crownstoneStateId are decimal strings, as the document types them String.
    public func stringify() -> String { BluenetJSON.string(JSONForm(self)) }

    private struct JSONForm: Encodable {
        let advertisement: BluenetAdvertisement
        init(_ advertisement: BluenetAdvertisement) { self.advertisement = advertisement }

        enum Key: String, CodingKey { case handle, name, rssi, serviceData }
        struct UUIDKey: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct Fields: Encodable {
            let crownstoneId: String, crownstoneStateId: String
            let switchState: UInt8, eventBitmask: UInt8, reserved: UInt16
            let powerUsage: Int32, accumulatedEnergy: Int32
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(advertisement.handle, forKey: .handle)
            try container.encode(advertisement.name, forKey: .name)
            try container.encode(advertisement.rssi, forKey: .rssi)
            switch advertisement.serviceData {
            case nil: break
            case let .bytes(bytes): try container.encode(bytes, forKey: .serviceData)
            case let .crownstone(uuid, data):
                var nested = container.nestedContainer(keyedBy: UUIDKey.self, forKey: .serviceData)
                try nested.encode(Fields(crownstoneId: String(data.crownstoneId), crownstoneStateId: String(data.crownstoneStateId),
                                         switchState: data.switchState, eventBitmask: data.eventBitmask, reserved: data.reserved,
                                         powerUsage: data.powerUsage, accumulatedEnergy: data.accumulatedEnergy),
                                  forKey: UUIDKey(stringValue: uuid.description))
            }
        }
    }
}

extension AdvertisingData {
    /// Every service data structure that decodes, in order; one cut short is passed over.
    var decodableServiceData: [BlueproofWire.ServiceData] {
        structures.compactMap { structure in
            guard structure.type.serviceDataUUIDWidth != nil else { return nil }
            return try? BlueproofWire.ServiceData(type: structure.type, adData: structure.data)
        }
    }

    /// Service UUIDs of the lists that decode and of every decodable service data structure.
    var advertisedServiceUUIDs: Set<BluetoothUUID> {
        var uuids = Set(decodableServiceData.map(\.uuid))
        for structure in structures where structure.type.serviceUUIDList != nil {
            uuids.formUnion((try? AdvertisingData([structure]).serviceUUIDs()) ?? [])
        }
        return uuids
    }
}
