import BlueproofTransmitter
import BlueproofTransmitterLinks

extension FuzzTargets {
    /// What the reference transmitter takes from any peer: frames and data payloads
    /// (docs/transmitter-wire.md).
    static let transmitter: [FuzzTarget] = [
        FuzzTarget("transmitter-frame", "a transmitter frame: header, hello, key exchange, data") { bytes in
            _ = try? TransmitterFrame.decode(bytes)
        },
        FuzzTarget("transmitter-payload", "a data frame's payload: binary or a JSON dictionary") { bytes in
            _ = try? TransmitterPayload.decode(bytes)
        },
        FuzzTarget("ble-chunks", "the BLE link's chunks, cut at the first byte's size, reassembled into frames and decoded") { bytes in
            let size = max(1, Int(bytes.first ?? 1))
            let stream = Array(bytes.dropFirst())
            var reassembler = BLEFrameReassembler()
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + size)
                if let frame = try? reassembler.receive(Array(stream[offset..<end])) { _ = try? TransmitterFrame.decode(frame) }
                offset = end
            }
        },
        // issue 14: the platform a BLE announcement carries
        FuzzTarget("ble-announcement", "a BLE transmitter announcement: the service, the user id and the platform octet after it") { bytes in
            _ = BLEAnnouncement.advertises(BLELinkProfile.transmitterService, in: bytes)
            _ = BLEAnnouncement.user(in: bytes)
            _ = try? BLEAnnouncement.platform(in: bytes)
        },
    ]
}
