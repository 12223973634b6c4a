/// Reassembles H4 packets from a byte stream split at arbitrary points.
///
/// Feed bytes as they arrive with ``append(_:)``, then take packets with ``next()`` until it
/// returns nil. An unknown packet indicator desynchronises the stream for good: ``next()``
/// throws it, with the stream offset, every time it is called afterwards.
public struct H4Deframer: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Stream offset of `buffer[0]`, for error offsets.
    private var consumed = 0
    private var failure: WireError?

    public init() {}

    /// Bytes received but not yet part of a complete packet.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet, or nil until more bytes arrive.
    public mutating func next() throws(WireError) -> H4Packet? {
        if let failure { throw failure }
        guard start < buffer.count else { return nil }
        let type = H4PacketType(rawValue: buffer[start])
        guard let header = type.header else {
            let error = WireError(offset: consumed + start, context: "H4 stream",
                                  reason: .unknownPacketType(type.rawValue))
            failure = error
            throw error
        }
        let available = buffer.count - start - 1
        guard available >= header.size else { return nil }
        let headerBytes = buffer[(start + 1)..<(start + 1 + header.size)]
        let total = header.size + H4Packet.declaredLength(headerBytes, header)
        guard available >= total else { return nil }
        let payload = Array(buffer[(start + 1)..<(start + 1 + total)])
        start += 1 + total
        compactIfWorthIt()
        return H4Packet(type: type, payload: payload)
    }

    /// Drops consumed bytes once they outweigh what is pending, keeping appends amortised O(1).
    private mutating func compactIfWorthIt() {
        if start == buffer.count {
            consumed += start
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 && start > buffer.count / 2 {
            consumed += start
            buffer.removeFirst(start)
            start = 0
        }
    }
}
