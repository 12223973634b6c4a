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
    public let directionSource: CaptureDirectionSource
    /// HCI packets handed out so far: the frame number of the last one.
    public private(set) var packetCount = 0
    /// Records so far that held no HCI packet (see ``CaptureFile/skipped``).
    public private(set) var skipped = 0
    /// Why reading stopped before the end of the file, once it has (see ``CaptureFile/truncated``).
    public private(set) var truncated: CaptureError?
    private var source: (any CaptureRecordSource)?

    init(path: String, format: CaptureFormat, linkType: UInt32, directionSource: CaptureDirectionSource,
         source: any CaptureRecordSource) {
        self.path = path
        self.format = format
        self.linkType = linkType
        self.directionSource = directionSource
        self.source = source
    }

    /// The next HCI packet; nil at the end of the file or where reading stopped.
    public func next() -> CaptureRecord? {
        while let source {
            let raw: RawCaptureRecord?
            do {
                raw = try source.next()
            } catch {
                truncated = error
                raw = nil
            }
            guard let raw else {
                self.source = nil
                return nil
            }
            if let record = CaptureReader.decodeRecord(linkType: linkType, data: raw.data, flags: raw.flags,
                                                       timestampMicros: raw.timestampMicros) {
                packetCount += 1
                return record
            }
            skipped += 1
        }
        return nil
    }
}

/// One record as its container holds it, not yet decoded: the bytes after the record header,
/// the btsnoop flags (0 for pcap) and the time in µs since the Unix epoch.
struct RawCaptureRecord {
    var data: ArraySlice<UInt8>
    var flags: UInt32
    var timestampMicros: Int64
}

/// The record layer of one container format, read one record at a time.
protocol CaptureRecordSource: AnyObject {
    /// The next record; nil at the end of the file. Throws why reading stopped before the end
    /// (a cut, a corrupt or oversized record), naming the record and where it starts.
    func next() throws(CaptureError) -> RawCaptureRecord?
}
