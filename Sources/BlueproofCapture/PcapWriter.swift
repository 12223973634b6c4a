import Foundation
import Synchronization

/// Writes capture records to a pcap file with link type 201
/// (`DLT_BLUETOOTH_HCI_H4_WITH_PHDR`), through libpcap.
///
/// Each pcap record is a 4-byte big-endian direction word (bit 0: 0 = sent host → controller,
/// 1 = received controller → host), then the H4 packet indicator and the HCI packet. This is
/// the layout Wireshark's libpcap reader expects for this link type (`struct libpcap_bt_phdr`).
///
/// Timestamps are microseconds. Every record is flushed to the kernel before ``record(_:)``
/// returns, so a process killed with SIGKILL leaves a file readable up to its last packet
/// (unless made with `flushesEveryRecord: false`, for bulk writing: then at ``close()``).
/// Safe to call from any thread; records are written in the order the calls take the lock.
public final class PcapWriter: CaptureSink {
    /// `DLT_BLUETOOTH_HCI_H4_WITH_PHDR` (``CaptureLinkType/pcapH4WithPseudoHeader``), as libpcap takes it.
    public static let linkType = Int32(CaptureLinkType.pcapH4WithPseudoHeader)

    /// The file being written.
    public let path: String
    /// Whether each record is flushed to the kernel as it is written.
    public let flushesEveryRecord: Bool

    private struct State {
        var dumper: LibpcapDumper?
        var packetCount = 0
        var writeError: CaptureError?
    }

    private let state: Mutex<State>

    /// Creates (or replaces) the file at `path`, creating its parent folders, and writes the
    /// pcap file header.
    public init(path: String, flushesEveryRecord: Bool = true) throws(CaptureError) {
        self.path = path
        self.flushesEveryRecord = flushesEveryRecord
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path: path, reason: "cannot create folder \(parent.path): \(error.localizedDescription)")
        }
        let dumper = try LibpcapDumper(path: path, linkType: Self.linkType)
        state = Mutex(State(dumper: dumper))
    }

    /// Appends one record. Ignored once the writer is closed.
    public func record(_ record: CaptureRecord) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(5 + record.packet.payload.count)
        let direction: UInt32 = record.direction == .sent ? 0 : 1
        withUnsafeBytes(of: direction.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(record.packet.type.rawValue)
        bytes.append(contentsOf: record.packet.payload)

        state.withLock { state in
            guard let dumper = state.dumper else { return }
            if dumper.write(timestampMicros: record.timestampMicros, bytes: bytes, flush: flushesEveryRecord) {
                state.packetCount += 1
            } else if state.writeError == nil {
                state.writeError = .writeFailed(path: path, reason: "flushing packet \(state.packetCount + 1) failed")
            }
        }
    }

    /// Packets written and flushed so far.
    public var packetCount: Int {
        state.withLock { $0.packetCount }
    }

    /// The first write failure, if any; ``record(_:)`` cannot throw, so failures land here.
    public var writeError: CaptureError? {
        state.withLock { $0.writeError }
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool {
        state.withLock { $0.dumper == nil }
    }

    /// Closes the file, flushing what is buffered (a failure lands in ``writeError``). Safe to
    /// call more than once; later records are ignored.
    public func close() {
        let dumper = state.withLock { state -> LibpcapDumper? in
            defer { state.dumper = nil }
            return state.dumper
        }
        guard let dumper, !dumper.close() else { return }
        state.withLock { state in
            if state.writeError == nil { state.writeError = .writeFailed(path: path, reason: "flushing the file at close failed") }
        }
    }

    deinit {
        close()
    }
}
