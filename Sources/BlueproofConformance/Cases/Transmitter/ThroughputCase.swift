import BlueproofAsync
import BlueproofTransmitter
import Foundation

/// Informational: the time a direct binary payload takes from the subject's send to the
/// tester's receipt, as a rate beside the SDK's stated best case (bridgefy-ios-sdk-readme.md,
/// "Maximum package sizes and throughput": BLE 27 kbps, Wi-Fi peer-to-peer 2 Mbps).
/// BFT/SIZE/BV-18 sends the BLE limit (120 KB) over BLE; BFT/SIZE/BV-19 sends four times that
/// between two iOS-like nodes on Wi-Fi peer-to-peer, where binary data is unrestricted.
/// The rate is reported, never judged: it depends on the controllers and the link's
/// parameters, not only on the implementation. The payload must still arrive whole and intact.
struct ThroughputCase: TransmitterCase {
    let id: CaseID
    let link: LinkKind
    let nodes = 2
    var brokenBy: Set<Defect> { link == .wifi ? [.wifiBinaryLimited] : [.limitsTooStrict] }
    var wifiNodes: Set<Int> { link == .wifi ? [0, 1] : [] }

    static func all() -> [ThroughputCase] {
        [ThroughputCase(id: "BFT/SIZE/BV-18", link: .ble), ThroughputCase(id: "BFT/SIZE/BV-19", link: .wifi)]
    }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let profile = stage.context.profile
        let bleLimit = try profile.int("bridgefy.limits.ble.binary_bytes")
        let size = link == .wifi ? 4 * bleLimit : bleLimit
        let stated = link == .wifi ? try profile.int("bridgefy.throughput.wifi_mbps") * 1000 : try profile.int("bridgefy.throughput.ble_kbps")
        let over = link == .wifi ? "Wi-Fi peer-to-peer" : "BLE"
        let (_, tester) = try await stage.connectedPair()
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let (outcome, elapsed) = try await Self.timed(stage.context.clock) { () async throws -> CaseOutcome in
            let id: PacketID
            do {
                id = try await stage.subject.send(dictionary: nil, data: payload, to: tester, options: [.directTransmission, .noEncrypted])
            } catch {
                return .fail("a \(size)-byte binary payload over \(over) was refused: \(error)")
            }
            let arrived = await stage.logs[1].first(within: stage.airTimeout) { event in
                if case let .received(packet) = event { packet.packetID == id } else { false }
            }
            guard case let .received(packet)? = arrived else {
                return .fail("the \(size)-byte payload (packet \(id)) did not reach the tester within \(stage.airTimeout)")
            }
            guard packet.data == payload else {
                return .fail("the \(size)-byte payload arrived altered (\(packet.data?.count ?? 0) bytes)")
            }
            return .pass("")
        }
        guard outcome.verdict == .pass else { return outcome }
        let seconds = elapsed.seconds
        let kbps = seconds > 0 ? Double(size * 8) / seconds / 1000 : .infinity
        let ratio = kbps / Double(stated)
        return .pass(String(format: "%d bytes arrived intact in %.2f s: %.1f kbps, %.1fx the stated best case of %d kbps",
                            size, seconds, kbps, ratio, stated) + " over \(over) (informational, not judged)")
    }

    /// Runs `body` and measures it on `clock`.
    static func timed<C: Clock<Duration>, T: Sendable>(_ clock: C, _ body: () async throws -> T) async rethrows -> (T, Duration) {
        let start = clock.now
        let value = try await body()
        return (value, start.duration(to: clock.now))
    }
}
