import BlueproofHost

/// Cuts a payload into the values the sender puts on the air, sans I/O: data chunks of at most
/// `chunkSize` bytes, then the end-of-message marker "EOM" (docs/corebluetooth-transfer-sample.md,
/// "When the Peripheral Receives a Connection, Send the Data": chunks sized to what the receiver
/// can take, then `EOM`).
///
/// **Framing rule.** The receiver ends the message at the first value that is exactly the three
/// bytes `45 4F 4D` ("EOM"); every other value is data. "EOM" *inside* a longer chunk is therefore
/// harmless. The only data chunk that could be mistaken for the marker is one that is exactly
/// "EOM": with chunks of 4 bytes or more that can only be the last one (a payload whose length
/// leaves 3 bytes over and whose final 3 bytes are "EOM", or the payload "EOM" itself). Such a
/// chunk is sent as two chunks, "EO" then "M". Nothing else changes, so a receiver that follows
/// the sample (append until "EOM") reassembles the payload byte-exact without knowing the rule.
/// A 0-byte payload is the marker alone.
public struct TransferChunker: Sequence, Sendable {
    /// The end-of-message marker, "EOM" in UTF-8.
    public static let endOfMessage: [UInt8] = Array("EOM".utf8)

    public let payload: [UInt8]
    public let chunkSize: Int
    /// Whether a data chunk that is exactly the marker is sent as two (the framing rule); only a
    /// deliberately broken sender (`TransferFaults.markerChunkUnsplit`) turns it off.
    public let splitsMarker: Bool

    /// `chunkSize` is the largest value the receiver takes (ATT_MTU - 3 for notifications and
    /// Write Without Response); it must be at least 3, so the marker fits.
    public init(payload: [UInt8], chunkSize: Int, splitsMarker: Bool = true) throws(TransferError) {
        guard chunkSize >= Self.endOfMessage.count else { throw .chunkSizeTooSmall(chunkSize) }
        self.payload = payload
        self.chunkSize = chunkSize
        self.splitsMarker = splitsMarker
    }

    /// The chunk size for an ATT_MTU: ATT_MTU - 3, the most one notification or Write Without
    /// Response carries (Core Vol 3, Part F §3.4.7.1, §3.4.5.3), but never more than the 512
    /// octets an attribute value may have (§3.2.9): at ATT_MTU 517 that is 512, not 514 (GATT
    /// servers, ours and Bumble's, refuse longer writes).
    public static func chunkSize(forATTMTU mtu: Int) -> Int { Swift.min(mtu - 3, maximumAttributeValue) }

    /// The longest attribute value (Core Vol 3, Part F §3.2.9).
    public static let maximumAttributeValue = GATTServer.maximumValueLength

    /// Values on the air for this payload: the data chunks and the marker.
    public var count: Int {
        let whole = (payload.count + chunkSize - 1) / chunkSize
        return whole + (splitsMarker && lastChunkIsMarker ? 1 : 0) + 1
    }

    private var lastChunkIsMarker: Bool {
        let lastStart = payload.isEmpty ? 0 : ((payload.count - 1) / chunkSize) * chunkSize
        return payload.count - lastStart == 3 && Array(payload[lastStart...]) == Self.endOfMessage
    }

    public func makeIterator() -> Iterator { Iterator(payload: payload, chunkSize: chunkSize, splitsMarker: splitsMarker) }

    public struct Iterator: IteratorProtocol, Sendable {
        let payload: [UInt8]
        let chunkSize: Int
        let splitsMarker: Bool
        var offset = 0
        var pending: [UInt8]?
        var finished = false

        public mutating func next() -> [UInt8]? {
            if let value = pending {
                pending = nil
                return value
            }
            guard !finished else { return nil }
            guard offset < payload.count else {
                finished = true
                return TransferChunker.endOfMessage
            }
            let end = Swift.min(offset + chunkSize, payload.count)
            let chunk = Array(payload[offset..<end])
            offset = end
            if splitsMarker, chunk == TransferChunker.endOfMessage {
                pending = [chunk[2]]
                return Array(chunk[0..<2])
            }
            return chunk
        }
    }
}
