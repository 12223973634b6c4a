/// The records of a classic pcap file, read one at a time through libpcap (``LibpcapReader``).
final class PcapSource: CaptureRecordSource {
    let linkType: UInt32
    private let path: String
    private let reader: LibpcapReader
    /// Records read so far, HCI packets or not.
    private var number = 0
    /// Classic pcap: where the next record starts, after the 24-byte file header and the
    /// 16-byte header and captured bytes of each record so far (counted here: asking the file
    /// would cost a system call per record).
    private var nextOffset = 24

    /// Opens `file` (read from its first byte) with libpcap. Throws when libpcap refuses it,
    /// when its file header is cut, or when its link type is not one we decode.
    init(path: String, file: CaptureDescriptor) throws(CaptureError) {
        self.path = path
        do {
            reader = try LibpcapReader(descriptor: file.release())
        } catch {
            if error.message.contains("truncated") {
                throw .truncated(path: path, record: 0, byteOffset: 0, reason: error.message)
            }
            throw .cannotOpen(path: path, reason: error.message)
        }
        linkType = UInt32(bitPattern: reader.linkType)
        guard CaptureReader.pcapLinkTypes.contains(linkType) else {
            throw .unsupported(path: path, reason: "pcap link type \(linkType) is not a Bluetooth HCI link type "
                + "we decode (201 H4 with direction, 187 H4, 254 Linux monitor)")
        }
    }

    private(set) lazy var linkTypes: [UInt32] = [linkType]

    func next() throws(CaptureError) -> RawCaptureRecord? {
        let start = nextOffset
        let frame: LibpcapReader.Frame?
        do {
            frame = try reader.next(maximumLength: CaptureReader.maximumRecordLength)
        } catch {
            throw error.message.contains("truncated")
                ? .truncated(path: path, record: number + 1, byteOffset: start, reason: error.message)
                : .malformed(path: path, record: number + 1, byteOffset: start, reason: error.message)
        }
        guard let frame else { return nil }
        number += 1
        nextOffset += 16 + frame.length  // both bounded by the file's size
        guard frame.length <= CaptureReader.maximumRecordLength else {
            throw .recordTooLong(path: path, record: number, byteOffset: start, length: frame.length,
                                 limit: CaptureReader.maximumRecordLength)
        }
        return RawCaptureRecord(data: frame.bytes[...], flags: 0, timestampMicros: frame.timestampMicros,
                                linkType: linkType)
    }
}
