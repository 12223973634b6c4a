import BlueproofHost
import BlueproofWire

/// One discovered device as `blueproof scan` prints it: a table line, or a JSON object.
struct DeviceLine: Encodable {
    var address: String
    var addressType: String
    /// dBm; nil (shown "n/a") when the controller could not measure it.
    var rssi: Int?
    var name: String?
    var connectable: Bool
    var services: [String]
    var txPower: Int?
    var iBeacon: IBeaconLine?
    var manufacturerData: [String]
    var reports: Int

    struct IBeaconLine: Encodable {
        var id: String
        var proximityUUID: String
        var major: Int
        var minor: Int
        var measuredPower: Int
    }

    init(_ device: LEDiscoveredDevice) {
        address = "\(device.address)"
        addressType = "\(device.addressType)"
        rssi = device.rssi.map(Int.init)
        name = device.name
        connectable = device.connectable
        services = device.serviceUUIDs.map(\.description)
        txPower = device.txPowerLevel.map(Int.init)
        iBeacon = device.iBeacon.map {
            IBeaconLine(id: $0.idString, proximityUUID: $0.proximityUUIDString, major: Int($0.major),
                        minor: Int($0.minor), measuredPower: Int($0.measuredPower))
        }
        manufacturerData = device.manufacturerSpecificData.map { "0x\(hex($0.companyIdentifier)):\(hex($0.data))" }
        reports = device.reports
    }

    private enum CodingKeys: String, CodingKey {
        case address, addressType, rssi, name, connectable, services, txPower, iBeacon, manufacturerData, reports
    }

    /// Every key every time: what is unknown is `null` (an RSSI btvirt cannot measure), never
    /// a missing key, as the synthesized encoding would leave it.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(addressType, forKey: .addressType)
        try container.encode(rssi, forKey: .rssi)
        try container.encode(name, forKey: .name)
        try container.encode(connectable, forKey: .connectable)
        try container.encode(services, forKey: .services)
        try container.encode(txPower, forKey: .txPower)
        try container.encode(iBeacon, forKey: .iBeacon)
        try container.encode(manufacturerData, forKey: .manufacturerData)
        try container.encode(reports, forKey: .reports)
    }

    /// Column widths: the widest address, `00:AA:01:00:00:42 (random)` (26), and two spaces.
    static let addressWidth = 28, rssiWidth = 9, nameWidth = 22

    static let header = pad("ADDRESS", addressWidth) + pad("RSSI", rssiWidth) + pad("NAME", nameWidth) + "SERVICES / BEACON"

    /// `00:AA:01:00:00:23 (public)  -52 dBm  heart-monitor  180D, 180F`.
    var text: String {
        var details = services
        if let iBeacon { details.append("iBeacon \(iBeacon.id) (\(iBeacon.measuredPower) dBm at 1 m)") }
        if iBeacon == nil { details += manufacturerData.map { "mfr \($0)" } }
        if let txPower { details.append("tx \(txPower) dBm") }
        if !connectable { details.append("non-connectable") }
        return Self.pad("\(address) (\(addressType))", Self.addressWidth)
            + Self.pad(rssi.map { "\($0) dBm" } ?? "n/a", Self.rssiWidth) + Self.pad(name ?? "-", Self.nameWidth) + (details.isEmpty ? "-" : details.joined(separator: ", "))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
