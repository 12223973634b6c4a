import BlueproofWire

/// Which advertisements a scan publishes (bluenet-lib-ios README, "Methods": startScanning,
/// startScanningForCrownstones, startScanningForService).
public enum BluenetScanFilter: Hashable, Sendable {
    /// Every device.
    case all
    /// Crownstones: a scan response whose service data carries a Crownstone service UUID.
    case crownstones
    /// Devices that name `uuid` in a service UUID list or as service data.
    case service(BluetoothUUID)

    public func matches(_ report: BluenetScanReport) -> Bool {
        switch self {
        case .all:
            return true
        case .crownstones:
            return !report.scanResponse.advertisedServiceUUIDs.isDisjoint(with: CrownstoneServiceData.crownstoneServiceUUIDs)
        case let .service(uuid):
            return report.all.advertisedServiceUUIDs.contains(uuid)
        }
    }
}
