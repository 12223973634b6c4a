/// The records of a pcap or pcapng file, read one at a time through libpcap
/// (``LibpcapReader``).
final class PcapSource: CaptureRecordSource {
    let linkType: UInt32
    private let path: String
    private let format: CaptureFormat
    private let reader: LibpcapReader
    /// Records read so far, HCI packets or not.
    private var number = 0

    /// Opens `file` (read from its first byte) with libpcap. Throws when libpcap refuses it,
    /// when its file header is cut, or when its link type is not one we decode.
    init(path: String, format: CaptureFormat, file: CaptureDescriptor) throws(CaptureError) {
        self.path = path
        self.format = format
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

    func next() throws(CaptureError) -> RawCaptureRecord? {
        // Classic pcap: a record starts where libpcap stands. pcapng: libpcap may pass other
        // blocks first, so the place is not named.
        let start = format == .pcap ? reader.position : nil
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
        guard frame.length <= CaptureReader.maximumRecordLength else {
            throw .recordTooLong(path: path, record: number, byteOffset: start, length: frame.length,
                                 limit: CaptureReader.maximumRecordLength)
        }
        return RawCaptureRecord(data: frame.bytes[...], flags: 0, timestampMicros: frame.timestampMicros)
    }
}
