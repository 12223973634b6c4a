import BlueproofWire

/// What the host hands the scanning core for one advertising report: the peer's handle, the
/// RSSI, and the latest advertising and scan response data.
public struct BluenetScanReport: Hashable, Sendable {
    public var handle: String
    public var rssi: Int
    public var advertisingData: AdvertisingData
    public var scanResponse: AdvertisingData

    public init(handle: String, rssi: Int, advertisingData: AdvertisingData, scanResponse: AdvertisingData = AdvertisingData()) {
        self.handle = handle
        self.rssi = rssi
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }

    /// Both parts, advertising data first.
    var all: AdvertisingData { AdvertisingData(advertisingData.structures + scanResponse.structures) }
}
