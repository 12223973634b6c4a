import BlueproofBluenet
import BlueproofWire

/// Drives a ``BluenetLocalization`` a second at a time and records what it publishes.
struct LocalizationHarness {
    final class Log {
        var events: [BluenetEvent] = []
    }

    static let uuid = "E20A39F4-73F5-4BC4-A12F-17D1AD07A961"
    static let otherUUID = "11111111-2222-3333-4444-555555555555"

    var core = BluenetLocalization()
    let log = Log()
    private(set) var now: Duration = .zero

    init() {
        for topic in BluenetTopic.allCases {
            core.on(topic) { [log] event in log.events.append(event) }
        }
        core.tick(now: now)
    }

    static func beacon(_ minor: UInt16, uuid: String = uuid) -> IBeacon {
        // The UUIDs above are literals of the right form.
        IBeacon(proximityUUID: BluetoothUUID(uuid) ?? BluetoothUUID(uuid16: 0), major: 1, minor: minor, measuredPower: -59)
    }

    static func id(_ minor: UInt16) -> String { beacon(minor).idString }

    /// One second: each beacon (by minor) heard once at its RSSI, then a tick.
    mutating func second(_ heard: [UInt16: Int], uuid: String = uuid) {
        for (minor, rssi) in heard.sorted(by: { $0.key < $1.key }) {
            core.receive(Self.beacon(minor, uuid: uuid), rssi: rssi)
        }
        now += .seconds(1)
        core.tick(now: now)
    }

    /// Events since the last call.
    func take() -> [BluenetEvent] {
        defer { log.events = [] }
        return log.events
    }

    /// The location events only (enter, exit, current), as "topic:id".
    func takeLocations() -> [String] {
        take().compactMap { event in
            switch event {
            case let .enterLocation(id): "enter:\(id)"
            case let .exitLocation(id): "exit:\(id)"
            case let .currentLocation(id): "current:\(id)"
            default: nil
            }
        }
    }
}
