import BlueproofWire

/// What scanning has learnt about one advertiser: its advertising data and scan response
/// merged, the latest RSSI, and what the data says (Core Supplement Part A §1).
public struct LEDiscoveredDevice: Hashable, Sendable {
    public var address: BDAddress
    public var addressType: LEAddressType
    /// The latest RSSI in dBm; nil when the controller reported "not available" (127).
    public var rssi: Int8?
    /// Whether the device advertised as connectable (ADV_IND or ADV_DIRECT_IND).
    public var connectable: Bool
    /// The advertising data, as last received.
    public var advertisingData = AdvertisingData()
    /// The scan response data, as last received (active scanning only).
    public var scanResponse = AdvertisingData()
    /// Reports received from this device.
    public var reports = 0

    public init(address: BDAddress, addressType: LEAddressType, rssi: Int8?, connectable: Bool) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.connectable = connectable
    }

    /// Both parts, advertising data first.
    public var allData: AdvertisingData { AdvertisingData(advertisingData.structures + scanResponse.structures) }

    /// Fields that do not decode (a name that is not UTF-8, a list cut short) read as absent.
    public var name: String? { (try? allData.localName) ?? nil }
    /// Service UUIDs from the 16-, 32- and 128-bit lists, complete or not; lists that do not
    /// decode are left out.
    public var serviceUUIDs: [BluetoothUUID] { (try? allData.serviceUUIDs()) ?? [] }
    public var txPowerLevel: Int8? { (try? allData.txPowerLevel) ?? nil }
    public var iBeacon: IBeacon? { IBeacon(advertisingData: allData) }
    public var manufacturerSpecificData: [ManufacturerSpecificData] { (try? allData.manufacturerSpecificData) ?? [] }
    public var serviceData: [ServiceData] { (try? allData.serviceData) ?? [] }
}
