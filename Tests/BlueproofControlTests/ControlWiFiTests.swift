import BlueproofTransmitter
import Synchronization
import Testing
@testable import BlueproofControl

/// `wifiPeerToPeer` (control protocol 4, docs/control-protocol.md): peers go to the
/// implementation's Wi-Fi link, its address comes back; an implementation without one refuses,
/// and a line naming more peers than the bound is refused naming it.
@Suite("Control protocol: wifiPeerToPeer")
struct ControlWiFiTests {
    /// A Wi-Fi link that records the peers it is given and listens at a fixed address.
    final class RecordingWiFi: ControlWiFi {
        let peers = Mutex<[String]>([])
        func peerToPeer(adding peers: [String]) async throws(TransmitterError) -> String? {
            self.peers.withLock { $0 += peers }
            return "127.0.0.1:4242"
        }
    }

    @Test("peers reach the link, the address comes back; none: refused; too many: refused naming the bound")
    func command() async throws {
        let transmitter = try ControlEndToEndTests.transmitter(on: SimulatedNetwork { _, _ in true })
        let wifi = RecordingWiFi()
        let server = try ControlServer(transmitter: transmitter, listeningOn: .tcp(host: "127.0.0.1", port: 0), wifi: wifi)
        let serving = Task { await server.run() }
        defer { server.close(); serving.cancel() }
        let client = try await ControlClient.connect(to: server.address)
        #expect(try await client.wifiPeerToPeer(adding: ["127.0.0.1:1000", "127.0.0.1:1001"]) == "127.0.0.1:4242")
        #expect(wifi.peers.withLock { $0 } == ["127.0.0.1:1000", "127.0.0.1:1001"])
        let many = (0...ControlWiFiLimits.maxPeers).map { "127.0.0.1:\(2000 + $0)" }
        await #expect(throws: TransmitterError.self) { _ = try await client.wifiPeerToPeer(adding: many) }
        #expect(wifi.peers.withLock { $0.count } == 2)
        await client.close()

        let plain = try ControlLimitTests.server()
        let plainServing = Task { await plain.run() }
        defer { plain.close(); plainServing.cancel() }
        let other = try await ControlClient.connect(to: plain.address)
        await #expect(throws: TransmitterError.self) { _ = try await other.wifiPeerToPeer(adding: []) }
        await other.close()
    }
}
