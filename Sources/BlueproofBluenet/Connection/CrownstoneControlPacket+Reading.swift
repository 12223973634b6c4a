import BlueproofWire

/// The Crownstone's side: what the simulated Crownstone (the tester) reads from a value written
/// to its control characteristic. A library under test only writes packets (``bytes``).
extension CrownstoneControlPacket {
    /// Decodes a written value: exactly a switch command (reserved octet 0) with a state of
    /// 0…100; anything else throws with the reason.
    public init(bytes: [UInt8]) throws(BluenetError) {
        guard bytes.count == 5 else { throw .controlPacket("\(bytes.count) octets, a switch command has 5") }
        guard bytes[0] == Self.switchType else { throw .controlPacket("command type \(bytes[0]), only switch (0) is served") }
        guard bytes[1] == 0 else { throw .controlPacket("reserved octet \(bytes[1]), must be 0") }
        guard bytes[2] == 1, bytes[3] == 0 else { throw .controlPacket("payload length \(UInt16(bytes[2]) | UInt16(bytes[3]) << 8), switch has 1") }
        guard bytes[4] <= 100 else { throw .controlPacket("switch state \(bytes[4]), at most 100") }
        switchState = bytes[4]
    }
}
