import BlueproofWire
import Foundation

/// One ranged beacon as "iBeaconAdvertisement" carries it (bluenet-lib-ios README,
/// "iBeaconPacket"): uuid, major, minor, rssi and idString = uuid + ".Maj:" + major + ".Min:" + minor.
public struct IBeaconPacket: Hashable, Sendable, Encodable {
    public var uuid: String
    public var major: UInt16
    public var minor: UInt16
    public var rssi: Int
    public var idString: String

    public init(beacon: IBeacon, rssi: Int) {
        uuid = beacon.proximityUUIDString
        major = beacon.major
        minor = beacon.minor
        self.rssi = rssi
        idString = beacon.idString
    }

    /// The JSON object, keys sorted, no whitespace ("Data Objects": stringify).
    public func stringify() -> String { BluenetJSON.string(self) }
}

/// Deterministic JSON text for the data objects: keys sorted, no whitespace, `/` unescaped.
enum BluenetJSON {
    static func string<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The data objects hold strings, integers and arrays of them: encoding cannot fail.
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return "null" }
        return text
    }
}
