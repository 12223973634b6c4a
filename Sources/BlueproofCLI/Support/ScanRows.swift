import BlueproofHost
import BlueproofWire

/// Which device updates `blueproof scan` prints, sans I/O: one row per device once what it
/// advertises is complete, then a row only when that changes.
///
/// In active scanning a scannable advertiser's data arrives in two reports: its advertising
/// data, then the scan response to our scan request (Core Vol 6, Part B §4.4.3.2). A device is
/// complete when its scan response came, or when a second advertising report came without one
/// (the controller had its chance to ask), or at once when the device is not scannable or the
/// scan is passive. A change of RSSI
/// alone is no new row: the table would fill with one device.
struct ScanRows {
    /// Passive scanning: no scan responses to wait for.
    var passive: Bool
    /// What was last printed per device; a device not here has not been printed.
    private var printed: [BDAddress: LEDiscoveredDevice] = [:]
    /// Devices seen but not yet complete, in the order first seen.
    private var pending: [BDAddress: LEDiscoveredDevice] = [:]
    private var pendingOrder: [BDAddress] = []

    init(passive: Bool) { self.passive = passive }

    /// Devices printed so far.
    var count: Int { printed.count }

    /// The update to print for `device`, as it stands after a report of `eventType`, if any.
    mutating func take(_ device: LEDiscoveredDevice, after eventType: LEAdvertisingReportEventType) -> LEDiscoveredDevice? {
        if let last = printed[device.address] {
            guard Self.advertised(last) != Self.advertised(device) else { return nil }
            printed[device.address] = device
            return device
        }
        let scannable = eventType == .advInd || eventType == .advScanInd
        let complete = passive || !scannable || device.reports >= 2
        guard complete else {
            if pending.updateValue(device, forKey: device.address) == nil { pendingOrder.append(device.address) }
            return nil
        }
        pending[device.address] = nil
        pendingOrder.removeAll { $0 == device.address }
        printed[device.address] = device
        return device
    }

    /// When scanning ends: the devices seen once that never completed, as they are.
    mutating func flush() -> [LEDiscoveredDevice] {
        let rest = pendingOrder.compactMap { pending[$0] }
        for device in rest { printed[device.address] = device }
        pending = [:]
        pendingOrder = []
        return rest
    }

    /// What a row shows apart from RSSI.
    private static func advertised(_ device: LEDiscoveredDevice) -> [AnyHashable] {
        [device.addressType.description, device.connectable, device.advertisingData, device.scanResponse]
    }
}
