import BlueproofCapture
import BlueproofHost

/// A notification or Write Command stream: one connection, one direction, one attribute,
/// one opcode.
struct StreamKey: Hashable, Sendable {
    var handle: UInt16
    var direction: CaptureDirection
    var attribute: UInt16
    var opcode: UInt8
}

/// One stream's values, summed up as they pass, never kept: the chunked messages it carries,
/// values up to and including one that is exactly "EOM" (docs/corebluetooth-transfer-sample.md,
/// "When the Peripheral Receives a Connection, Send the Data"; the framing rule of
/// TransferChunker). Values after the last marker make the open message, unended when the
/// capture ends with it.
struct ValueStream: Sendable {
    static let endOfMessage: [UInt8] = Array("EOM".utf8)
    /// The longest attribute value (Core Vol 3, Part F §3.2.9): chunks never exceed it.
    static let maximumAttributeValue = GATTServer.maximumValueLength

    /// The chunk a sender fills at `mtu`: ATT_MTU - 3, at most one attribute value.
    static func chunkSize(mtu: Int) -> Int { min(mtu - 3, maximumAttributeValue) }

    /// A chunk of the open message whose judgement waits: it may yet be the message's last,
    /// or the "EO" of a final "EO" + "M" split.
    private struct Pending: Sendable {
        var length: Int
        var frame: Int
        var mtu: Int
        var isEO: Bool
        var isM: Bool
    }

    /// The first message equal to the payload checked against.
    struct Match: Hashable, Sendable {
        var chunks: Int
        var marker: Int
    }

    /// The frame of the stream's first value.
    let firstFrame: Int
    /// Whether the receiver had enabled notifications (a CCCD write) before the first value.
    let subscribedFirst: Bool
    /// The frames of the EOM markers, one per ended message.
    private(set) var markers = BoundedList()
    /// Values that are not markers, in ended and open messages alike.
    private(set) var chunks = 0
    /// The chunk size in force for each chunk, as a set.
    private(set) var chunkSizes: Set<Int> = []
    /// Chunks not of the chunk size in force: longer, or shorter when not the last of their
    /// message (an "EO" just before a last "M" excepted: the split that keeps a payload ending
    /// in "EOM" from ending the message early).
    private(set) var underfilled = BoundedList()
    /// The frames of the open message's chunks.
    private(set) var openFrames = BoundedList()
    /// The byte lengths of the ended messages.
    private(set) var lengths = BoundedList()
    private(set) var match: Match?

    private var pending: [Pending] = []
    private var openLength = 0
    /// How many of the payload's bytes the open message equals so far; nil once it differs.
    private var payloadMatched: Int? = 0

    init(firstFrame: Int, subscribedFirst: Bool) {
        self.firstFrame = firstFrame
        self.subscribedFirst = subscribedFirst
    }

    /// Whether the stream carries chunked messages: at least one EOM marker.
    var isChunked: Bool { !markers.isEmpty }

    /// Messages so far: the ended ones, and the open one when it holds a chunk.
    var messageCount: Int { markers.count + (openFrames.isEmpty ? 0 : 1) }

    /// The stream as it stands at the end of the capture: its open message judged as ended.
    var closed: ValueStream {
        var copy = self
        copy.judgePending()
        return copy
    }

    /// Takes the next value (frame `frame`, ATT_MTU `mtu`); `payload`, when given, is what
    /// messages are compared with.
    mutating func take(_ value: ArraySlice<UInt8>, frame: Int, mtu: Int, payload: [UInt8]?) {
        if value.elementsEqual(Self.endOfMessage) {
            judgePending()
            markers.append(frame)
            lengths.append(openLength)
            if let payload, payloadMatched == payload.count, match == nil {
                match = Match(chunks: openFrames.count, marker: frame)
            }
            openFrames = BoundedList()
            openLength = 0
            payloadMatched = 0
            return
        }
        chunks += 1
        chunkSizes.insert(Self.chunkSize(mtu: mtu))
        openFrames.append(frame)
        openLength += value.count
        if let payload, let matched = payloadMatched {
            let end = matched + value.count
            payloadMatched = end <= payload.count && payload[matched..<end].elementsEqual(value) ? end : nil
        }
        pending.append(Pending(length: value.count, frame: frame, mtu: mtu,
                               isEO: value.elementsEqual("EO".utf8), isM: value.elementsEqual("M".utf8)))
        if pending.count == 3 {
            // Two chunks follow it: neither the last nor the split "EO".
            judge(pending.removeFirst(), mayBeShort: false)
        }
    }

    /// Judges the chunks left waiting as the end of their message.
    private mutating func judgePending() {
        if pending.count == 2 {
            judge(pending[0], mayBeShort: pending[0].isEO && pending[1].isM)
        }
        if let last = pending.last { judge(last, mayBeShort: true) }
        pending = []
    }

    private mutating func judge(_ chunk: Pending, mayBeShort: Bool) {
        let size = Self.chunkSize(mtu: chunk.mtu)
        if chunk.length > size || (!mayBeShort && chunk.length != size) { underfilled.append(chunk.frame) }
    }
}
