import BlueproofWire

/// Merges advertising reports into devices, sans I/O: each report updates its device, and the
/// device comes back when it matches the filter and something a user sees changed.
public struct LEDeviceList: Sendable {
    /// Only devices that advertise one of these services; every device when empty.
    public var services: Set<BluetoothUUID>
    public private(set) var devices: [BDAddress: LEDiscoveredDevice] = [:]
    /// Reports whose data did not decode as AD structures, with the reason.
    public private(set) var malformed: [(address: BDAddress, error: WireError)] = []

    public init(services: Set<BluetoothUUID> = []) { self.services = services }

    /// Takes one report; returns the device when it is new or its name, services, RSSI or data
    /// changed, and it passes the filter.
    public mutating func add(_ advertisement: LEAdvertisement) -> LEDiscoveredDevice? {
        var device = devices[advertisement.address] ?? LEDiscoveredDevice(
            address: advertisement.address, addressType: advertisement.addressType,
            rssi: advertisement.rssi, connectable: false)
        let before = devices[advertisement.address]
        device.reports += 1
        device.rssi = advertisement.rssi
        let data: AdvertisingData
        do {
            data = try AdvertisingData(bytes: advertisement.data)
        } catch {
            malformed.append((advertisement.address, error))
            devices[advertisement.address] = device
            return nil
        }
        if advertisement.eventType == .scanRsp {
            device.scanResponse = data
        } else {
            device.advertisingData = data
            device.addressType = advertisement.addressType
            device.connectable = advertisement.eventType == .advInd || advertisement.eventType == .advDirectInd
        }
        devices[advertisement.address] = device
        guard matches(device) else { return nil }
        guard var previous = before else { return device }
        previous.reports = device.reports
        return previous == device ? nil : device
    }

    /// True when the device passes the service filter.
    public func matches(_ device: LEDiscoveredDevice) -> Bool {
        services.isEmpty || !services.isDisjoint(with: device.serviceUUIDs)
    }
}
