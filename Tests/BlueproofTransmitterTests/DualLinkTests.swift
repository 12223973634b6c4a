import BlueproofAsync
import BlueproofTransmitter
import Foundation
import Testing

/// `DualLink` (docs/transmitter-links.md, "Both links"): Wi-Fi peer-to-peer only between two
/// nodes announcing iOS, BLE otherwise; its faults break exactly that choice.
@Suite("Both links", .timeLimit(.minutes(5)))
struct DualLinkTests {
    /// Two nodes on a BLE and a Wi-Fi simulated network, every pair in range, started, each
    /// reaching the other on both.
    static func pair(_ a: DevicePlatform, _ b: DevicePlatform, faults: DualLink.Faults = []) async throws -> (DualLink, DualLink, UserID, UserID) {
        let ble = SimulatedNetwork { _, _ in true }
        let wifi = SimulatedNetwork { _, _ in true }
        let first = DualLink(ble: ble.link(platform: a), wifi: wifi.link(kind: .wifi), platform: a, faults: faults)
        let second = DualLink(ble: ble.link(platform: b), wifi: wifi.link(kind: .wifi), platform: b)
        let (userA, userB) = (UserID.random(), UserID.random())
        _ = first.events()
        _ = second.events()
        try await first.start(localUser: userA)
        try await second.start(localUser: userB)
        try await seen(first, userB, "the second on Wi-Fi") { $0.onWiFi }
        try await seen(second, userA, "the first on Wi-Fi") { $0.onWiFi }
        try await first.connect(to: userB)
        try await second.connect(to: userA)
        return (first, second, userA, userB)
    }

    /// Waits until what `link` saw of `peer` satisfies `condition` (it is checked at every
    /// change), for at most 30 s: a bound only, since a loaded test run can stall the pool.
    static func seen(_ link: DualLink, _ peer: UserID, _ what: String,
                     _ condition: @escaping @Sendable (DualLink.Carriage) -> Bool) async throws {
        guard await link.carriage(of: peer, within: .seconds(30), where: condition) != nil else { throw DualLinkTestTimeout(what: what) }
    }

    @Test("two iOS nodes: frames and limits go by Wi-Fi")
    func bothIOS() async throws {
        let (a, b, userA, userB) = try await Self.pair(.ios, .ios)
        // The platform is learnt from the BLE announcement as the peer shows up.
        guard await a.kind(to: userB, within: .seconds(30), where: { $0 == .wifi }) else {
            throw DualLinkTestTimeout(what: "the peer's platform learnt")
        }
        try await a.send([1, 2, 3], to: userB)
        try await Self.seen(b, userA, "the frame over Wi-Fi") { $0.wifiFrames == 1 }
        #expect(b.carriage(of: userA).bleFrames == 0)
        #expect(b.kind(to: userA) == .wifi)
    }

    @Test("iOS and Android: BLE both ways, though Wi-Fi reaches the peer")
    func android() async throws {
        let (a, b, userA, userB) = try await Self.pair(.ios, .android)
        try await a.send([1], to: userB)
        try await b.send([2], to: userA)
        try await Self.seen(b, userA, "the frame to b over BLE") { $0.bleFrames == 1 }
        try await Self.seen(a, userB, "the frame to a over BLE") { $0.bleFrames == 1 }
        #expect(b.carriage(of: userA).wifiFrames == 0 && a.carriage(of: userB).wifiFrames == 0)
        #expect(a.kind(to: userB) == .ble && b.kind(to: userA) == .ble)
    }

    @Test("faults: Wi-Fi to any peer; Wi-Fi limits to any peer over BLE")
    func faults() async throws {
        let (a, b, userA, userB) = try await Self.pair(.ios, .android, faults: .wifiToAnyPeer)
        try await a.send([1], to: userB)
        try await Self.seen(b, userA, "the frame over Wi-Fi") { $0.wifiFrames == 1 }
        #expect(a.kind(to: userB) == .wifi)
        let (c, d, userC, userD) = try await Self.pair(.ios, .android, faults: .wifiLimitsToAnyPeer)
        #expect(c.kind(to: userD) == .wifi)
        try await c.send([1], to: userD)
        try await Self.seen(d, userC, "the frame over BLE") { $0.bleFrames == 1 }
        #expect(d.carriage(of: userC).wifiFrames == 0)
    }
}

extension DualLinkTests {
    @Test("a Wi-Fi frame from a peer BLE has not reported connected is held, and comes right after that .connected")
    func noFrameBeforeConnected() async throws {
        let ble = SimulatedNetwork { _, _ in true }
        let wifi = SimulatedNetwork { _, _ in true }
        let a = DualLink(ble: ble.link(platform: .ios), wifi: wifi.link(kind: .wifi), platform: .ios, faults: .wifiToAnyPeer)
        let b = DualLink(ble: ble.link(platform: .ios), wifi: wifi.link(kind: .wifi), platform: .ios)
        let (userA, userB) = (UserID.random(), UserID.random())
        _ = a.events()
        let events = b.events()
        try await a.start(localUser: userA)
        try await b.start(localUser: userB)
        try await Self.seen(a, userB, "the second on Wi-Fi") { $0.onWiFi }
        // Over Wi-Fi before either side connected over BLE: it reaches b's link...
        try await a.send([7], to: userB)
        try await Self.seen(b, userA, "the early frame over Wi-Fi") { $0.wifiFrames == 1 }
        try await a.connect(to: userB)
        try await b.connect(to: userA)
        // ...and b's transmitter gets it only after a's .connected.
        let order = try await withTimeout(.seconds(30), what: "b's .connected from a and the held frame") {
            var seen: [LinkEvent] = []
            for await event in events {
                seen.append(event)
                if case .frame = event { break }
            }
            return seen
        }
        let connected = order.firstIndex(of: .connected(userA))
        let frame = order.firstIndex(of: .frame(from: userA, bytes: [7]))
        #expect(connected != nil && frame != nil && connected! < frame!, "\(order)")
        #expect(b.droppedEarlyFrames == 0)
    }
}

struct DualLinkTestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "not within 30 s: \(what)" }
}
