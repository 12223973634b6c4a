import BlueproofHost

/// The chunked messages of the capture's notification and Write Command streams: values up to
/// and including one that is exactly "EOM" (docs/corebluetooth-transfer-sample.md, "When the
/// Peripheral Receives a Connection, Send the Data"; the framing rule of TransferChunker).
struct TransferMessage: Hashable, Sendable {
    var key: StreamKey
    var chunks: [ValueStream.Value]
    /// The marker that ended the message; nil for values left over at the end of a stream.
    var marker: ValueStream.Value?

    static let endOfMessage: [UInt8] = Array("EOM".utf8)
    /// The longest attribute value (Core Vol 3, Part F §3.2.9): chunks never exceed it.
    static let maximumAttributeValue = GATTServer.maximumValueLength

    /// The chunk a sender fills at `mtu`: ATT_MTU - 3, at most one attribute value.
    static func chunkSize(mtu: Int) -> Int { min(mtu - 3, maximumAttributeValue) }

    var bytes: [UInt8] { chunks.flatMap(\.bytes) }

    /// The messages of every stream carrying at least one marker, in stream and capture order.
    static func messages(in streams: [StreamKey: ValueStream]) -> [TransferMessage] {
        var messages: [TransferMessage] = []
        let keyed = streams.filter { $0.value.values.contains { $0.bytes == endOfMessage } }
        for (key, stream) in keyed.sorted(by: { ($0.value.values.first?.frame ?? 0) < ($1.value.values.first?.frame ?? 0) }) {
            var chunks: [ValueStream.Value] = []
            for value in stream.values {
                if value.bytes == endOfMessage {
                    messages.append(TransferMessage(key: key, chunks: chunks, marker: value))
                    chunks = []
                } else {
                    chunks.append(value)
                }
            }
            if !chunks.isEmpty { messages.append(TransferMessage(key: key, chunks: chunks, marker: nil)) }
        }
        return messages
    }

    /// Frames of chunks that do not fill the chunk size in force, the last chunk excepted, and
    /// "EO" before a last "M" (the split that keeps a payload ending in "EOM" from ending the
    /// message early).
    var underfilledFrames: [Int] {
        var frames: [Int] = []
        for (index, chunk) in chunks.enumerated() {
            let size = Self.chunkSize(mtu: chunk.mtu)
            let isLast = index == chunks.count - 1
            let isSplit = index == chunks.count - 2 && chunk.bytes == Array("EO".utf8)
                && chunks[index + 1].bytes == Array("M".utf8)
            if chunk.bytes.count > size || (!isLast && !isSplit && chunk.bytes.count != size) {
                frames.append(chunk.frame)
            }
        }
        return frames
    }
}
