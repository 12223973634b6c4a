import ArgumentParser
import BlueproofControl
import BlueproofTransmitter
import BlueproofTransmitterLinks

// issue 14: BFT/SIZE with an Android peer
/// `blueproof dut --platform`'s Wi-Fi peer-to-peer link behind the `wifiPeerToPeer` command.
struct TCPControlWiFi: ControlWiFi {
    let link: TCPLink

    func peerToPeer(adding peers: [String]) async throws(TransmitterError) -> String? {
        for text in peers {
            let address: TCPAddress
            do throws(TCPAddressError) {
                address = try TCPAddress(text)
            } catch {
                throw .controlChannel("wifiPeerToPeer: peer \"\(text.prefix(64))\" is no HOST:PORT: \(error)")
            }
            await link.addPeer(address)
        }
        return await link.listeningAddress?.description
    }
}

extension DevicePlatform: ExpressibleByArgument {
    public init?(argument: String) {
        guard let platform = Self.allCases.first(where: { $0.name.lowercased() == argument.lowercased() }) else { return nil }
        self = platform
    }
}
