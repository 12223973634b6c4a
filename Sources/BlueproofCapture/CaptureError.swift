/// Why a capture could not be written or read. Every case names the file it is about.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The capture file (or one of its parent folders) could not be created.
    case cannotCreate(path: String, reason: String)
    /// The file could not be opened or read at all.
    case cannotOpen(path: String, reason: String)
    /// The file holds no bytes.
    case empty(path: String)
    /// The first bytes match none of the formats we read (pcap, pcapng, btsnoop).
    case notACapture(path: String, reason: String)
    /// A capture format we recognise, but with a version or link type we do not decode.
    case unsupported(path: String, reason: String)
    /// The file ends inside a header or a record. `record` is the 1-based number of the record
    /// that was cut (0: the file header); `byteOffset` is where that record starts, when known.
    case truncated(path: String, record: Int, byteOffset: Int?, reason: String)
    /// A header or record holds values that cannot be right (e.g. a length beyond any packet).
    case malformed(path: String, record: Int, byteOffset: Int?, reason: String)
    /// A record declares `length` bytes, more than any record may hold (`limit`,
    /// ``CaptureReader/maximumRecordLength``): refused before anything is allocated for it.
    case recordTooLong(path: String, record: Int, byteOffset: Int?, length: Int, limit: Int)
    /// Writing a packet to the file failed (disk full, file removed, ...).
    case writeFailed(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case let .cannotCreate(path, _), let .cannotOpen(path, _), let .empty(path),
             let .notACapture(path, _), let .unsupported(path, _),
             let .truncated(path, _, _, _), let .malformed(path, _, _, _), let .recordTooLong(path, _, _, _, _),
             let .writeFailed(path, _):
            path
        }
    }

    public var description: String {
        switch self {
        case let .cannotCreate(path, reason):
            return "\(path): cannot create capture: \(reason)"
        case let .cannotOpen(path, reason):
            return "\(path): cannot open capture: \(reason)"
        case let .empty(path):
            return "\(path): the file is empty, not a capture"
        case let .notACapture(path, reason):
            return "\(path): not a capture file: \(reason)"
        case let .unsupported(path, reason):
            return "\(path): unsupported capture: \(reason)"
        case let .truncated(path, record, byteOffset, reason):
            return "\(path): capture truncated \(Self.place(record, byteOffset)): \(reason)"
        case let .malformed(path, record, byteOffset, reason):
            return "\(path): malformed capture \(Self.place(record, byteOffset)): \(reason)"
        case let .recordTooLong(path, record, byteOffset, length, limit):
            return "\(path): malformed capture \(Self.place(record, byteOffset)): the record declares \(length) bytes, "
                + "more than the \(limit) a record may hold"
        case let .writeFailed(path, reason):
            return "\(path): writing the capture failed: \(reason)"
        }
    }

    private static func place(_ record: Int, _ byteOffset: Int?) -> String {
        let what = record == 0 ? "in the file header" : "in record \(record)"
        guard let byteOffset else { return what }
        return "\(what) (starting at byte \(byteOffset))"
    }
}
