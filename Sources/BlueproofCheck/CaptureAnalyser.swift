import BlueproofCapture
import BlueproofHost
import BlueproofWire

/// Walks the records of one capture (one node's view of its host/controller boundary), sans
/// I/O, and keeps what the capture-level checks need: connections, the controller's ACL
/// buffers, ACL packets in flight, the ATT_MTU of each connection and a summary of each
/// notification and Write Command stream. Feed records in order with ``consume(_:)``, then
/// read ``checks()``.
///
/// Its memory is bounded whatever the capture's length: per connection handle and per stream
/// a fixed set of counters, frame lists of at most ``BoundedList/limit`` frames each (every
/// frame counted), at most ``maximumStreams`` streams.
///
/// Frame numbers are 1-based positions in the file's records, as Wireshark counts frames: a
/// record that holds no packet is passed with ``skipRecord()``.
public struct CaptureAnalyser: Sendable {
    /// Streams followed per capture; values on further streams are counted, not judged.
    static let maximumStreams = 256

    /// The controller's ACL data buffers, from Command Complete of (LE) Read Buffer Size.
    struct Buffers: Hashable, Sendable {
        var packetLength: Int
        var count: Int
        var frame: Int
    }

    /// An L2CAP stream: one connection handle in one direction.
    struct Way: Hashable, Sendable {
        var handle: UInt16
        var direction: CaptureDirection
    }

    /// A Write Request enabling notifications (a CCCD write with bit 0 set): the way it went
    /// and the attribute written.
    struct Subscription: Hashable, Sendable {
        var way: Way
        var attribute: UInt16
    }

    let options: CheckOptions
    var frame = 0

    // HCI and ACL state.
    var leBuffers: Buffers?
    var sharedBuffers: Buffers?
    /// Handles connected now, with the frame of their connection complete.
    var open: [UInt16: Int] = [:]
    var everConnected: Set<UInt16> = []
    /// Handles of open BR/EDR ACL links (classic Connection Complete, issue 16).
    var classicHandles: Set<UInt16> = []
    var inFlight: [UInt16: Int] = [:]
    var aclSent = 0
    var aclReceived = 0
    var aclSentWithoutBuffers = 0
    var creditViolations = BoundedList()
    var mostInFlight = 0
    var oversizeFragments = BoundedList()
    var outsideConnection = BoundedList()
    /// ACL frames on handles with no connection complete yet: a violation if one follows.
    var unknownHandleFrames: [UInt16: BoundedList] = [:]
    var recombiners: [CaptureDirection: L2CAPRecombiner] = [.sent: L2CAPRecombiner(), .received: L2CAPRecombiner()]
    var recombinationErrors = 0
    /// The first frame of the PDU being rebuilt on each way.
    var pduStart: [Way: Int] = [:]
    var plaintextFrames = BoundedList()

    // ATT state.
    var attMTU: [UInt16: Int] = [:]
    /// Every ATT_MTU an exchange settled on, for the report.
    var negotiatedMTUs: Set<Int> = []
    var mtuRequest: [Way: Int] = [:]
    var attPDUs = 0
    var attOversize = BoundedList()
    /// ATT PDUs on handles whose ATT_MTU the capture does not show (neither the connection
    /// nor an MTU exchange: the capture started mid-connection): not judged.
    var attUnknownMTU = BoundedList()
    var valueCount = 0
    var valueOversize = BoundedList()
    var streams: [StreamKey: ValueStream] = [:]
    /// Values on streams past ``maximumStreams``.
    var untrackedValues = 0
    /// Notification-enabling CCCD writes seen (at most ``maximumStreams``).
    var subscriptions: Set<Subscription> = []

    public init(options: CheckOptions = CheckOptions()) {
        self.options = options
    }

    /// The buffers the host must respect on LE: the LE buffers when the controller has them,
    /// else the shared ACL buffers (an LE Read Buffer Size answering 0 means shared).
    var buffers: Buffers? { leBuffers ?? sharedBuffers }

    /// Takes the next record of the capture.
    public mutating func consume(_ record: CaptureRecord) {
        frame += 1
        switch record.packet.type {
        case .event:
            guard record.direction == .received, let event = try? HCIEvent(payload: record.packet.payload) else { return }
            handle(event)
        case .acl:
            guard let packet = try? HCIACLPacket(payload: record.packet.payload) else { return }
            handle(packet, direction: record.direction)
        default:
            return
        }
    }

    /// Passes over a record of the capture that holds no HCI packet (a btmon note or index
    /// record): it takes a frame number all the same, as Wireshark numbers frames.
    public mutating func skipRecord() {
        frame += 1
    }

    /// Runs every check on the records consumed.
    public func checks() -> [CaptureCheck] {
        var all = [credits(), connectionBounds(), fragmentLengths(), attSizes(), chunkSizes(), endOfMessage(), subscribedFirst()]
        if options.payload != nil { all.append(payloadMatch()) }
        if options.plaintext != nil { all.append(plaintextAbsent()) }
        return all
    }

    /// Runs every check on a capture read whole, numbering frames as the file does (its
    /// ``CaptureFile/noteFrames`` take numbers too).
    public static func check(_ file: CaptureFile, options: CheckOptions = CheckOptions()) -> [CaptureCheck] {
        var analyser = CaptureAnalyser(options: options)
        var notes = file.noteFrames[...]
        for record in file.records {
            while let note = notes.first, note == analyser.frame + 1 {
                analyser.skipRecord()
                notes = notes.dropFirst()
            }
            analyser.consume(record)
        }
        return analyser.checks()
    }

    /// Runs every check on a capture's records, taken one at a time: a record list, or a
    /// ``CaptureStream`` read from disk.
    public static func check(_ records: some Sequence<CaptureRecord>, options: CheckOptions = CheckOptions()) -> [CaptureCheck] {
        var analyser = CaptureAnalyser(options: options)
        for record in records { analyser.consume(record) }
        return analyser.checks()
    }
}
