import BlueproofBluenet
import Testing

@Suite("Bluenet event bus (on/off)")
struct EventBusTests {
    /// Collects what callbacks receive; a class so the escaping callbacks can append to it.
    final class Received {
        var events: [String] = []
    }

    /// BLN/CONN/BV-06: on returns distinct ids; off with one stops exactly its callbacks.
    @Test func offStopsOnlyItsSubscription() {
        var bus = BluenetEventBus()
        let received = Received()
        let first = bus.on(.enterRegion) { _ in received.events.append("first") }
        let second = bus.on(.enterRegion) { _ in received.events.append("second") }
        #expect(first != second)
        bus.publish(.enterRegion(groupId: "home"))
        #expect(received.events == ["first", "second"])
        let ended = bus.off(first)
        #expect(ended)
        bus.publish(.enterRegion(groupId: "home"))
        #expect(received.events == ["first", "second", "second"])
        let endedAgain = bus.off(first)
        #expect(!endedAgain, "an ended subscription ends once")
    }

    /// BLN/CONN/BV-06: ids are never handed out again, even after off.
    @Test func idsAreNeverReused() {
        var bus = BluenetEventBus()
        var ids = Set<Int>()
        for _ in 0..<100 {
            let id = bus.on(.currentLocation) { _ in }
            #expect(ids.insert(id).inserted)
            bus.off(id)
        }
        #expect(bus.count == 0)
    }

    /// Topics deliver only their own events, and the names are the document's.
    @Test func topicsAreTheDocumentsAndSeparate() throws {
        var bus = BluenetEventBus()
        let received = Received()
        try bus.on(topicName: "exitLocation") { event in received.events.append("\(event.topic.rawValue)") }
        bus.publish(.enterLocation(locationId: "kitchen"))
        bus.publish(.exitLocation(locationId: "kitchen"))
        #expect(received.events == ["exitLocation"])
        #expect(BluenetTopic.allCases.map(\.rawValue) == [
            "advertisementData", "iBeaconAdvertisement", "enterRegion", "exitRegion",
            "enterLocation", "exitLocation", "currentLocation",
        ])
        #expect(throws: BluenetError.unknownTopic("advertisement")) { try BluenetTopic(name: "advertisement") }
    }
}
