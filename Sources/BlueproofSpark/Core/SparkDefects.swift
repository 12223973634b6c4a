/// Deliberate faults for broken variants of the Spark reference (issue 17): each breaks one
/// documented rule, where that rule is implemented, so a case can be shown to fail on it.
/// Default: none. 128 bits wide: one bit per variant.
public struct SparkDefects: OptionSet, Hashable, Sendable {
    public var rawValue: UInt128
    public init(rawValue: UInt128) { self.rawValue = rawValue }

    /// The caller takes a decline for an accept (SPK/CONN/BI-01).
    public static let declineTakenAsAccept = SparkDefects(rawValue: 1 << 0)
    /// The single-connection app lets a second offer through (SPK/CONN/BI-02).
    public static let secondOfferKept = SparkDefects(rawValue: 1 << 1)
    /// The callee takes offers whatever key it holds for the caller (SPK/CONN/BI-03).
    public static let keyUnchecked = SparkDefects(rawValue: 1 << 2)
    /// `startDataConnection` takes metadata over 4096 bytes (SPK/CONN/BI-04).
    public static let metadataUnbounded = SparkDefects(rawValue: 1 << 3)
    /// `closeDataChannel` leaves queued sends to go out (SPK/STRM/BI-01).
    public static let closeKeepsPending = SparkDefects(rawValue: 1 << 4)
    /// Data that arrives before the receive callbacks are set is delivered (SPK/FILE/BI-03).
    public static let deliversBeforeCallbacks = SparkDefects(rawValue: 1 << 5)
    /// A send reports no progress before `done` (SPK/FILE/BV-01).
    public static let progressSkipped = SparkDefects(rawValue: 1 << 6)
    /// A send's second piece reports progress 0: progress goes backwards (SPK/FILE/BV-01).
    public static let progressBackwards = SparkDefects(rawValue: 1 << 7)
    /// A file partly received when the link drops is reported complete (SPK/FILE/BI-02).
    public static let completeOnLinkLoss = SparkDefects(rawValue: 1 << 8)
    /// A received file is reported complete without checking its SHA-256 (SPK/FILE/BV-04).
    public static let digestUnchecked = SparkDefects(rawValue: 1 << 9)
    /// An offered connection never becomes available: set-up never completes (SPK/CONN/BV-01).
    public static let setupNeverCompletes = SparkDefects(rawValue: 1 << 10)
    /// The caller takes the callee's accept without reporting `dataConnectionAccepted` (SPK/CONN/BV-02).
    public static let acceptUnreported = SparkDefects(rawValue: 1 << 11)
    /// The API holds one connection at a time, like the sample app (SPK/CONN/BV-03).
    public static let severalRefused = SparkDefects(rawValue: 1 << 12)
    /// `startDataConnection` refuses metadata over 4094 bytes, short of the limit (SPK/CONN/BV-04, BV-05).
    public static let metadataLimitLow = SparkDefects(rawValue: 1 << 13)
    /// `createDataChannel` returns an id but never tells the peer (SPK/STRM/BV-01).
    public static let channelUnannounced = SparkDefects(rawValue: 1 << 14)
    /// A stream send reports a progress fraction (SPK/STRM/BV-02).
    public static let streamProgressReported = SparkDefects(rawValue: 1 << 15)
    /// Stream blocks are delivered typed as data blocks (SPK/STRM/BV-03).
    public static let streamTypedAsData = SparkDefects(rawValue: 1 << 16)
    /// A file that vanishes mid-send is taken as ended: `done` is sent and reported (SPK/FILE/BI-01).
    public static let vanishedFileEndsAsDone = SparkDefects(rawValue: 1 << 17)
    /// A received data block's completion carries no bytes (SPK/FILE/BV-02).
    public static let receivedDataDropped = SparkDefects(rawValue: 1 << 18)
    /// A file is named by its path's first component rather than its last (SPK/FILE/BV-03).
    public static let fileNameFromFirstComponent = SparkDefects(rawValue: 1 << 19)
    /// `startDataConnection` sends the offer before its checks, then throws (SPK/CONN/BI-03).
    public static let checkedAfterSending = SparkDefects(rawValue: 1 << 20)
    /// The callee checks that it holds some key for the caller, not that it is the caller's (SPK/CONN/BI-03).
    public static let keyPresenceOnly = SparkDefects(rawValue: 1 << 21)
    /// The metadata limit is counted in characters, not UTF-8 bytes (SPK/CONN/BI-04).
    public static let metadataCountedInCharacters = SparkDefects(rawValue: 1 << 22)
    /// Offered metadata is sent as ASCII, anything else replaced by `?` (SPK/CONN/BV-04, BV-05).
    public static let metadataAsciiOnly = SparkDefects(rawValue: 1 << 23)
    /// As callee, channel and transfer ids take the caller's parity, so the caller ignores them (SPK/CONN/BV-03).
    public static let calleeIDsOfCaller = SparkDefects(rawValue: 1 << 24)
    /// `end` reports the connection ended but never tells the peer (SPK/CONN/BI-01).
    public static let endUnannounced = SparkDefects(rawValue: 1 << 25)
    /// `closeDataChannel` drops the queued sends but never tells the peer (SPK/STRM/BI-01).
    public static let closeUnannounced = SparkDefects(rawValue: 1 << 26)
    /// An offer is reported available before it is reported offered (SPK/CONN/BV-01).
    public static let availableBeforeOffered = SparkDefects(rawValue: 1 << 27)
    /// Accepting a connection silently ends the other incoming ones at their callers (SPK/CONN/BV-03).
    public static let acceptEndsOthers = SparkDefects(rawValue: 1 << 28)
    /// A connection still being offered takes channels and sends (SPK/CONN/BV-02).
    public static let channelBeforeAccept = SparkDefects(rawValue: 1 << 29)
    /// The single-connection app stays busy once it has held a connection, even after it ended (SPK/CONN/BI-02).
    public static let busyNeverFreed = SparkDefects(rawValue: 1 << 30)
    /// A lost link fails the transfers on it but leaves its connections open (SPK/FILE/BI-02).
    public static let linkLossKeepsConnection = SparkDefects(rawValue: 1 << 31)
    /// A stream send reports `done` when queued, so a close drops it after its `done` (SPK/STRM/BI-01).
    public static let streamDoneWhenQueued = SparkDefects(rawValue: 1 << 32)
    /// `closeDataChannel` drops the queued sends with no callback (SPK/STRM/BI-01).
    public static let cancelledUnreported = SparkDefects(rawValue: 1 << 33)
    /// A stream block's pieces overlap by one byte (SPK/STRM/BV-02).
    public static let streamPiecesOverlap = SparkDefects(rawValue: 1 << 34)
    /// A received block's progress counts bytes, not the fraction received (SPK/FILE/BV-02).
    public static let receiveProgressInBytes = SparkDefects(rawValue: 1 << 35)
    /// The single-connection app ends a second offer busy without reporting it offered (SPK/CONN/BI-02).
    public static let busyBeforeOffered = SparkDefects(rawValue: 1 << 36)
    /// Either receive callback set lets data and files both through (SPK/FILE/BI-03).
    public static let oneCallbackForBoth = SparkDefects(rawValue: 1 << 37)
    /// A received `error` frame leaves the incoming transfer open: the sender's failure never reaches the app (SPK/FILE/BI-01).
    public static let remoteErrorIgnored = SparkDefects(rawValue: 1 << 38)
    /// An end (reason `ended`) forgets the connection but leaves its transfers unreported (SPK/CONN/BI-01).
    public static let endKeepsTransfers = SparkDefects(rawValue: 1 << 39)
    /// `createDataChannel` gives an id of the peer's parity, so with the peer's channels open
    /// the two collide (SPK/STRM/BV-03).
    public static let channelIDsOfPeer = SparkDefects(rawValue: 1 << 40)
    /// A frame that finds the channel out of credits is dropped and taken as sent, as a
    /// non-blocking write that reads "would block" as written (SPK/STRM/BV-02).
    public static let stalledFramesDropped = SparkDefects(rawValue: 1 << 41)
    /// Ending a connection leaves its queued sends to go out and complete (SPK/CONN/BI-01).
    public static let endKeepsSends = SparkDefects(rawValue: 1 << 42)
    /// A channel out of credits sends anyway, as if the peer had granted more: K-frames without
    /// credit (Core Vol 3, Part A §10.1; SPK/STRM/BV-02).
    public static let creditsOverrun = SparkDefects(rawValue: 1 << 43)
    /// Ending a connection reports its queued sends cancelled, but their blocks were already
    /// handed to the link and still reach the peer after the end (SPK/CONN/BI-01).
    public static let cancelledSendsDelivered = SparkDefects(rawValue: 1 << 44)
    /// Ending a connection reports its queued sends cancelled, but flushes their blocks to the
    /// peer ahead of the end, as a stack that drains its write buffer before closing
    /// (SPK/CONN/BI-01).
    public static let cancelledSendsFlushed = SparkDefects(rawValue: 1 << 45)
    /// The callee accepts (the accept reaches the caller) without reporting
    /// `dataConnectionAccepted` itself (SPK/CONN/BV-01).
    public static let calleeAcceptUnreported = SparkDefects(rawValue: 1 << 46)
    /// Every control frame goes out twice: as itself and as a copy of a later version (`0x02`)
    /// that a version-1 peer cannot read and ignores (docs/spark-wire.md, "Header"; every SPK
    /// case, listed under SPK/STRM/BV-01).
    public static let strayFrames = SparkDefects(rawValue: 1 << 47)
    /// `closeDataChannel` cancels the queued sends of every channel of the connection, not only
    /// the closed one's (SPK/STRM/BI-01).
    public static let closeCancelsConnection = SparkDefects(rawValue: 1 << 48)
    /// The callee declines as malformed an offer with more than 4000 bytes of metadata: a
    /// receiving bound under the document's 4096 (SPK/CONN/BV-04, BV-05).
    public static let incomingMetadataLimitLow = SparkDefects(rawValue: 1 << 49)
    /// A data or file send reports `done` when its last chunk is handed to the link, and again
    /// when its `done` frame is (SPK/FILE/BV-01, BV-03).
    public static let doneReportedTwice = SparkDefects(rawValue: 1 << 50)
    /// The caller reports a callee's key-error decline as a plain decline: the key error is
    /// not told on the caller's side (SPK/CONN/BI-03).
    public static let remoteKeyErrorAsDeclined = SparkDefects(rawValue: 1 << 51)
    /// An incoming file is reported only at its end: no progress while it arrives (SPK/FILE/BV-04).
    public static let incomingFileProgressSilent = SparkDefects(rawValue: 1 << 52)
    /// The caller takes a `decline` of a connection already accepted as its end: an answer out
    /// of state ends the connection instead of being ignored (docs/spark-wire.md, "Exchange" 4;
    /// SPK/CONN/BI-01).
    public static let strayDeclineEnds = SparkDefects(rawValue: 1 << 53)
    /// A `channelOpen` from the peer with an id of the receiver's own numbering is taken (it
    /// collides with the receiver's next channel; docs/spark-wire.md, "Kinds"; SPK/STRM/BV-03).
    public static let foreignChannelTaken = SparkDefects(rawValue: 1 << 54)
    /// A `transferHeader` from the peer with an id of the receiver's own numbering is taken
    /// (docs/spark-wire.md, "Kinds"; SPK/FILE/BV-02).
    public static let foreignTransferTaken = SparkDefects(rawValue: 1 << 55)
    /// The caller withdraws an offer not yet answered with a `decline`, which only a callee
    /// sends: the callee ignores it and keeps the offer (docs/spark-wire.md, "Kinds";
    /// SPK/CONN/BI-01).
    public static let withdrawalDeclined = SparkDefects(rawValue: 1 << 56)
    /// A file header whose name is not one path component (`../x`) is taken and written under
    /// it instead of refused as malformed (docs/spark-wire.md, "Bounds"; SPK/FILE/BV-04).
    public static let fileNamePathTaken = SparkDefects(rawValue: 1 << 57)
    /// The receiver names a file's temporary copy after it (`.name.tmp-` and 32 more bytes), so
    /// a name over 223 bytes, though the wire and the file system take 255, cannot be stored
    /// (docs/spark-wire.md, "Bounds"; SPK/FILE/BV-04).
    public static let partialNamedAfterFile = SparkDefects(rawValue: 1 << 58)
    /// An offer the callee cannot read (metadata over 4096 bytes) is ignored, not declined
    /// `malformed`, so its caller waits out its offer timeout (docs/spark-wire.md, "Bounds";
    /// SPK/CONN/BI-04).
    public static let malformedOfferIgnored = SparkDefects(rawValue: 1 << 59)
    /// A file whose header arrives while another of the connection is still coming in is
    /// written into that one's partial file: the wire allows 16 at once (docs/spark-wire.md,
    /// "Bounds"; SPK/FILE/BV-04).
    public static let overlappingFilesShareHandle = SparkDefects(rawValue: 1 << 60)
    /// A listener waits for the opener's `hello` before it sends its own, so a peer that opens
    /// the channel as the format says (reading the listener's first) waits forever
    /// (docs/spark-wire.md, "Transport"; SPK/CONN/BV-01).
    public static let listenerHelloWithheld = SparkDefects(rawValue: 1 << 61)
    /// A received file's copy is created on its first chunk, so an empty file, which has none,
    /// is reported complete and never stored (SPK/FILE/BV-04).
    public static let emptyFileNeverCreated = SparkDefects(rawValue: 1 << 62)
    /// A send cancelled by the end of its connection reports the bytes it had handed to the
    /// link as its progress, not the fraction of its size (SPK/CONN/BI-01).
    public static let cancelledProgressInBytes = SparkDefects(rawValue: 1 << 63)
    /// An empty send's progress is 0 (nothing of nothing sent), its `done` included
    /// (SPK/FILE/BV-03).
    public static let emptySendDoneAtZero = SparkDefects(rawValue: 1 << 64)
    /// A transfer refused as it arrives (a chunk past its declared size) is kept, so the
    /// frames that follow for it are taken again and it fails more than once (SPK/FILE/BV-04).
    public static let refusedTransferKept = SparkDefects(rawValue: 1 << 65)
    /// A transfer refused as it arrives (its header, or a chunk past its declared size) fails on
    /// the receiver's side only: no `error` frame tells its sender (SPK/FILE/BV-02, BV-04).
    public static let refusalUnsent = SparkDefects(rawValue: 1 << 66)
    /// An `error` frame from the receiver fails every data block and file queued on the
    /// connection, not only the one it names (SPK/FILE/BI-01).
    public static let remoteErrorCancelsAll = SparkDefects(rawValue: 1 << 67)
    /// A send its receiver failed (an `error` frame) is reported failed but goes on: its chunks
    /// and `done` still go out (SPK/FILE/BI-01).
    public static let refusedSendGoesOn = SparkDefects(rawValue: 1 << 68)
    /// An offer numbered 0, the `hello`'s connection, is taken instead of declined `malformed`
    /// (docs/spark-wire.md, "Header": no offer is numbered 0; SPK/CONN/BI-04).
    public static let offerZeroTaken = SparkDefects(rawValue: 1 << 69)
    /// The caller numbers its offers from 0, the `hello`'s connection, so a peer that holds to
    /// the format declines its first as malformed (docs/spark-wire.md, "Header"; SPK/CONN/BV-02).
    public static let offersFromZero = SparkDefects(rawValue: 1 << 70)
    /// A second channel naming a peer already attached (the peer restarted, its old link not
    /// yet seen gone) replaces the first without ending what the first carried or closing it:
    /// the old connections stay up (docs/spark-wire.md, "Transport"; SPK/CONN/BV-01).
    public static let restartKeepsOldChannel = SparkDefects(rawValue: 1 << 71)
    /// A channel's description is held to the file-name rules (one path component): the API
    /// refuses such a description and the receiver ignores a `channelOpen` with one, though
    /// only its length is bounded (docs/spark-wire.md, "Bounds"; SPK/STRM/BV-01, BV-03).
    public static let descriptionAsFileName = SparkDefects(rawValue: 1 << 72)
    /// An `error` frame from the receiver also cancels the stream sends queued on its
    /// connection, though it names a transfer, never a stream (SPK/FILE/BI-01).
    public static let remoteErrorCancelsStreams = SparkDefects(rawValue: 1 << 73)
    /// The caller's connection limit counts one short: the single-connection app starts a
    /// second connection of its own while it holds one (docs/spark-wire.md, "Bounds";
    /// SPK/CONN/BI-02).
    public static let secondCallStarted = SparkDefects(rawValue: 1 << 74)
    /// A peer's `end` with reason 8 (link lost) is ignored, as if only a local report could
    /// carry it (docs/spark-wire.md, "End reasons": a peer may send it; SPK/CONN/BI-01).
    public static let peerLinkLostIgnored = SparkDefects(rawValue: 1 << 75)
    /// Files coming in count toward the 64 MiB bound on in-memory data blocks being received,
    /// though they go to disk (docs/spark-wire.md, "Bounds"; SPK/FILE/BV-02).
    public static let filesCountedAsData = SparkDefects(rawValue: 1 << 76)
    /// Receive callbacks are kept by connection id past the connection's end, so a new offer
    /// under an ended one's id (a restarted peer's) starts with them set ("Receiving Data":
    /// they are set per connection; SPK/CONN/BV-01).
    public static let callbacksOutliveConnection = SparkDefects(rawValue: 1 << 77)
    /// A data block's description is held to a file name's rules (one path component), sending
    /// and receiving (docs/spark-wire.md, "Bounds": only its length is bounded; SPK/FILE/BV-01,
    /// BV-02).
    public static let dataDescriptionAsFileName = SparkDefects(rawValue: 1 << 78)
    /// A write of a single byte to a file coming in is taken as a failure (a write's count
    /// checked against 1, not 0), so a 1-byte file fails with `storageFailed` (SPK/FILE/BV-04).
    public static let oneByteWriteFails = SparkDefects(rawValue: 1 << 79)
    /// A chunk or stream block of no bytes is read as any other, not refused as unreadable
    /// (docs/spark-wire.md "Bounds": at least one byte), so a block's progress is reported
    /// twice at one fraction (SPK/FILE/BV-02).
    public static let emptyPayloadTaken = SparkDefects(rawValue: 1 << 80)
    /// An `end` received is answered with one of its own, though it is final
    /// (docs/spark-wire.md "Exchange" 5): the peer gets an end for a connection it no longer
    /// holds (SPK/CONN/BI-01).
    public static let endAnswered = SparkDefects(rawValue: 1 << 81)
    /// `accept` takes a connection in any state, or one it no longer holds: it sends an accept
    /// and reports the connection accepted, though only an available one may be
    /// (docs/spark-wire.md "Exchange" 3; SPK/CONN/BI-01).
    public static let acceptOutOfState = SparkDefects(rawValue: 1 << 82)
    /// Stream bytes stay counted toward back-pressure after they leave, so a connection that
    /// has sent 4 MiB of stream refuses every stream send though none waits
    /// (docs/spark-wire.md "Bounds"; SPK/STRM/BV-02).
    public static let streamQueueNeverReleased = SparkDefects(rawValue: 1 << 83)
    /// A channel on which no `hello` comes within the node's 10 s is kept open, not closed
    /// (docs/spark-wire.md "Transport"; SPK/CONN/BV-01).
    public static let channelKeptWithoutHello = SparkDefects(rawValue: 1 << 84)
    /// A receiver refuses a transfer with `cancelled`, the sender's reason, not `refused`
    /// (docs/spark-wire.md "Data and files"; SPK/FILE/BV-02, BV-04).
    public static let refusalAsCancelled = SparkDefects(rawValue: 1 << 85)
    /// A file that is still at its path but cannot be read (a folder took its place) stalls
    /// its send: the failure is swallowed and nothing ends it. From outside it looks like a read
    /// loop that retries every failure, though the core stays free (SPK/FILE/BI-01).
    public static let unreadableFileStalls = SparkDefects(rawValue: 1 << 86)

    /// Every defect by name, for reports and the broken-variant table.
    public static let named: [(name: String, defect: SparkDefects)] = [
        ("declineTakenAsAccept", .declineTakenAsAccept), ("secondOfferKept", .secondOfferKept), ("keyUnchecked", .keyUnchecked),
        ("metadataUnbounded", .metadataUnbounded), ("closeKeepsPending", .closeKeepsPending),
        ("deliversBeforeCallbacks", .deliversBeforeCallbacks), ("progressSkipped", .progressSkipped),
        ("progressBackwards", .progressBackwards), ("completeOnLinkLoss", .completeOnLinkLoss), ("digestUnchecked", .digestUnchecked),
        ("setupNeverCompletes", .setupNeverCompletes), ("acceptUnreported", .acceptUnreported), ("severalRefused", .severalRefused),
        ("metadataLimitLow", .metadataLimitLow), ("channelUnannounced", .channelUnannounced),
        ("streamProgressReported", .streamProgressReported), ("streamTypedAsData", .streamTypedAsData),
        ("vanishedFileEndsAsDone", .vanishedFileEndsAsDone), ("receivedDataDropped", .receivedDataDropped),
        ("fileNameFromFirstComponent", .fileNameFromFirstComponent), ("checkedAfterSending", .checkedAfterSending),
        ("keyPresenceOnly", .keyPresenceOnly), ("metadataCountedInCharacters", .metadataCountedInCharacters),
        ("metadataAsciiOnly", .metadataAsciiOnly), ("calleeIDsOfCaller", .calleeIDsOfCaller), ("endUnannounced", .endUnannounced),
        ("closeUnannounced", .closeUnannounced), ("availableBeforeOffered", .availableBeforeOffered), ("acceptEndsOthers", .acceptEndsOthers),
        ("channelBeforeAccept", .channelBeforeAccept), ("busyNeverFreed", .busyNeverFreed),
        ("linkLossKeepsConnection", .linkLossKeepsConnection), ("streamDoneWhenQueued", .streamDoneWhenQueued),
        ("cancelledUnreported", .cancelledUnreported), ("streamPiecesOverlap", .streamPiecesOverlap),
        ("receiveProgressInBytes", .receiveProgressInBytes), ("busyBeforeOffered", .busyBeforeOffered),
        ("oneCallbackForBoth", .oneCallbackForBoth),
        ("remoteErrorIgnored", .remoteErrorIgnored), ("endKeepsTransfers", .endKeepsTransfers), ("channelIDsOfPeer", .channelIDsOfPeer),
        ("stalledFramesDropped", .stalledFramesDropped), ("endKeepsSends", .endKeepsSends),
        ("creditsOverrun", .creditsOverrun), ("cancelledSendsDelivered", .cancelledSendsDelivered),
        ("cancelledSendsFlushed", .cancelledSendsFlushed), ("calleeAcceptUnreported", .calleeAcceptUnreported),
        ("strayFrames", .strayFrames), ("closeCancelsConnection", .closeCancelsConnection),
        ("incomingMetadataLimitLow", .incomingMetadataLimitLow), ("doneReportedTwice", .doneReportedTwice),
        ("remoteKeyErrorAsDeclined", .remoteKeyErrorAsDeclined), ("incomingFileProgressSilent", .incomingFileProgressSilent),
        ("strayDeclineEnds", .strayDeclineEnds), ("foreignChannelTaken", .foreignChannelTaken),
        ("foreignTransferTaken", .foreignTransferTaken), ("withdrawalDeclined", .withdrawalDeclined),
        ("fileNamePathTaken", .fileNamePathTaken), ("partialNamedAfterFile", .partialNamedAfterFile),
        ("malformedOfferIgnored", .malformedOfferIgnored), ("overlappingFilesShareHandle", .overlappingFilesShareHandle),
        ("listenerHelloWithheld", .listenerHelloWithheld), ("emptyFileNeverCreated", .emptyFileNeverCreated),
        ("cancelledProgressInBytes", .cancelledProgressInBytes), ("emptySendDoneAtZero", .emptySendDoneAtZero),
        ("refusedTransferKept", .refusedTransferKept), ("refusalUnsent", .refusalUnsent),
        ("remoteErrorCancelsAll", .remoteErrorCancelsAll), ("refusedSendGoesOn", .refusedSendGoesOn),
        ("offerZeroTaken", .offerZeroTaken), ("offersFromZero", .offersFromZero), ("restartKeepsOldChannel", .restartKeepsOldChannel),
        ("descriptionAsFileName", .descriptionAsFileName), ("remoteErrorCancelsStreams", .remoteErrorCancelsStreams),
        ("secondCallStarted", .secondCallStarted), ("peerLinkLostIgnored", .peerLinkLostIgnored),
        ("filesCountedAsData", .filesCountedAsData), ("callbacksOutliveConnection", .callbacksOutliveConnection),
        ("dataDescriptionAsFileName", .dataDescriptionAsFileName), ("oneByteWriteFails", .oneByteWriteFails),
        ("emptyPayloadTaken", .emptyPayloadTaken), ("endAnswered", .endAnswered),
        ("acceptOutOfState", .acceptOutOfState), ("streamQueueNeverReleased", .streamQueueNeverReleased),
        ("channelKeptWithoutHello", .channelKeptWithoutHello), ("refusalAsCancelled", .refusalAsCancelled),
        ("unreadableFileStalls", .unreadableFileStalls),
    ]

    /// The names of the defects in this set, in `named` order.
    public var names: [String] { Self.named.filter { contains($0.defect) }.map(\.name) }
}
