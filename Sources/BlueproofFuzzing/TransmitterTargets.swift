import BlueproofTransmitter

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
    ]
}
