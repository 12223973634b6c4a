/// Rebuilds a payload from received values, sans I/O: every value is appended until one that is
/// exactly "EOM" ends the message (docs/corebluetooth-transfer-sample.md, "When the Central
/// Receives the Data, Update the User Interface"). See ``TransferChunker`` for the framing rule
/// that keeps a data chunk from ever being exactly "EOM".
///
/// Unlike the sample, values are bytes, not text: a chunk that cuts a UTF-8 character in two is
/// data like any other.
public struct TransferReassembler: Sendable {
    /// The most a payload may grow to before the transfer fails.
    public static let defaultLimit = 64 * 1024 * 1024

    public let limit: Int
    public private(set) var buffer: [UInt8] = []
    /// Data values taken so far (the marker not counted), and the longest of them.
    public private(set) var chunks = 0
    public private(set) var largestChunk = 0

    public init(limit: Int = TransferReassembler.defaultLimit) {
        self.limit = limit
    }

    /// What one value did.
    public enum Step: Equatable, Sendable {
        /// Data: `total` bytes so far.
        case data(total: Int)
        /// The marker: the whole payload. The reassembler starts over for the next message.
        case complete([UInt8])
    }

    /// Takes one value. Throws ``TransferError/payloadTooLarge(limit:)`` when the data would
    /// pass ``limit``; the buffer keeps what came before.
    public mutating func receive(_ value: [UInt8]) throws(TransferError) -> Step {
        if value == TransferChunker.endOfMessage {
            let payload = buffer
            buffer = []
            return .complete(payload)
        }
        guard buffer.count + value.count <= limit else { throw .payloadTooLarge(limit: limit) }
        buffer += value
        chunks += 1
        largestChunk = max(largestChunk, value.count)
        return .data(total: buffer.count)
    }
}
