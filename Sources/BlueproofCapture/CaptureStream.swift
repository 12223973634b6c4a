/// A capture open for reading one HCI packet at a time, in file order: what
/// ``CaptureReader/open(path:)`` returns.
///
/// Iterate it (`for record in stream`), then read ``truncated``, ``skipped`` and
/// ``packetCount``. Memory stays bounded whatever the file's size: one record (at most
/// ``CaptureReader/maximumRecordLength`` bytes) and a read buffer. The file is closed when
/// the last record has been read or the stream is released.
///
/// Not Sendable: one reader walks it.
public final class CaptureStream: Sequence, IteratorProtocol {
    public let path: String
    public let format: CaptureFormat
    /// The pcap link type (`DLT_` value) or the btsnoop datalink value; see ``CaptureLinkType``.
    public let linkType: UInt32
    /// The link types of the file's interfaces known so far: one, but for a pcapng file that
    /// describes several (then a packet's ``CaptureRecord/controllerIndex`` is its interface).
    public var linkTypes: [UInt32] { source?.linkTypes ?? endedLinkTypes }
    /// The source's link types when it ended (asked once then, not after every record).
    private var endedLinkTypes: [UInt32] = []
    /// Records read so far, packets or not: the frame number of the last one, as Wireshark
    /// numbers frames.
    public private(set) var frameNumber = 0
    /// HCI packets handed out so far.
    public private(set) var packetCount = 0
    /// Records so far that held no HCI packet (see ``CaptureFile/skipped``).
    public private(set) var skipped = 0
    /// Why reading stopped before the end of the file, once it has (see ``CaptureFile/truncated``).
    public private(set) var truncated: CaptureError?
    private var source: (any CaptureRecordSource)?

    init(path: String, format: CaptureFormat, linkType: UInt32, source: any CaptureRecordSource) {
        self.path = path
        self.format = format
        self.linkType = linkType
        self.source = source
    }

    /// Where the packet directions come from: guessed when the file has an interface of link
    /// type 187 (H4 without direction header).
    public var directionSource: CaptureDirectionSource {
        linkTypes.contains(CaptureLinkType.pcapH4) ? .inferredFromPacketType : .recorded
    }

    /// The next HCI packet; nil at the end of the file or where reading stopped. Records
    /// that hold none are counted in ``skipped`` and passed over.
    public func next() -> CaptureRecord? {
        while let entry = nextEntry() {
            if case let .packet(record) = entry { return record }
        }
        return nil
    }

    /// The next record, packet or not; nil at the end of the file or where reading stopped.
    /// ``frameNumber`` is its frame number after the call.
    public func nextEntry() -> CaptureEntry? {
        guard let source else { return nil }
        let raw: RawCaptureRecord?
        do {
            raw = try source.next()
        } catch {
            truncated = error
            raw = nil
        }
        guard let raw else {
            endedLinkTypes = source.linkTypes
            self.source = nil
            return nil
        }
        frameNumber += 1
        let linkType = raw.linkType
        if var record = CaptureReader.decodeRecord(linkType: linkType, data: raw.data, flags: raw.flags,
                                                   timestampMicros: raw.timestampMicros) {
            packetCount += 1
            if record.controllerIndex == nil, let interface = raw.interface, source.linkTypes.count > 1 {
                record.controllerIndex = UInt16(truncatingIfNeeded: interface)
            }
            return .packet(record)
        }
        skipped += 1
        return .note(CaptureReader.note(linkType: linkType, data: raw.data, flags: raw.flags,
                                        timestampMicros: raw.timestampMicros))
    }
}

/// One record of a capture: an HCI packet, or a record that holds none.
public enum CaptureEntry: Hashable, Sendable {
    case packet(CaptureRecord)
    case note(CaptureNote)
}

/// One record as its container holds it, not yet decoded: the bytes after the record header,
/// the btsnoop flags (0 for pcap), the time in µs since the Unix epoch, the link type the
/// bytes are in and, in pcapng, the interface that captured them.
struct RawCaptureRecord {
    var data: ArraySlice<UInt8>
    var flags: UInt32
    var timestampMicros: Int64
    var linkType: UInt32
    var interface: Int? = nil
}

/// The record layer of one container format, read one record at a time.
protocol CaptureRecordSource: AnyObject {
    /// The next record; nil at the end of the file. Throws why reading stopped before the end
    /// (a cut, a corrupt or oversized record), naming the record and where it starts.
    func next() throws(CaptureError) -> RawCaptureRecord?
    /// The link types of the file's interfaces known so far (one, but for pcapng).
    var linkTypes: [UInt32] { get }
}
