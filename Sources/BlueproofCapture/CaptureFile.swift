/// The container format of a capture file, found from its first bytes.
public enum CaptureFormat: String, Hashable, Sendable, CustomStringConvertible {
    /// Classic libpcap (any byte order, micro- or nanosecond magic).
    case pcap
    /// pcapng.
    case pcapng
    /// btsnoop, as written by btmon, Android and Symbian-era tools.
    case btsnoop

    public var description: String { rawValue }
}

/// Where the record directions of a capture come from.
public enum CaptureDirectionSource: String, Hashable, Sendable {
    /// The file records the direction of every packet.
    case recorded
    /// The file has no direction (pcap link type 187): commands are taken as sent, events as
    /// received, and data packets (ACL, SCO, ISO) as **received** — a choice, not a fact: it
    /// never credits the host with data it may not have sent.
    case inferredFromPacketType
}

/// Link types (pcap `DLT_` values and btsnoop datalink values) ``CaptureReader`` decodes.
public enum CaptureLinkType {
    /// pcap `DLT_BLUETOOTH_HCI_H4`: H4 packets, no direction.
    public static let pcapH4: UInt32 = 187
    /// pcap `DLT_BLUETOOTH_HCI_H4_WITH_PHDR`: 4-byte big-endian direction, then H4.
    public static let pcapH4WithPseudoHeader: UInt32 = 201
    /// pcap `DLT_BLUETOOTH_LINUX_MONITOR`: big-endian adapter index and monitor opcode, then
    /// the HCI packet without indicator.
    public static let pcapLinuxMonitor: UInt32 = 254
    /// btsnoop unencapsulated HCI: flag bit 0 = received, bit 1 = command/event (else data).
    public static let btsnoopHCI: UInt32 = 1001
    /// btsnoop H4 (UART): flag bit 0 = received; the data starts with the H4 indicator.
    public static let btsnoopUART: UInt32 = 1002
    /// btsnoop BlueZ monitor (what `btmon -w` writes): flags = controller index << 16 | opcode.
    public static let btsnoopMonitor: UInt32 = 2001
}

/// A capture read back from disk.
public struct CaptureFile: Hashable, Sendable {
    public var path: String
    public var format: CaptureFormat
    /// The pcap link type (`DLT_` value) or the btsnoop datalink value; see ``CaptureLinkType``.
    public var linkType: UInt32
    public var directionSource: CaptureDirectionSource
    /// Every HCI packet in the file, in file order.
    public var records: [CaptureRecord]
    /// Records that are not HCI packets and were left out: monitor notes, index
    /// added/removed/opened/closed, vendor diagnostics, empty records.
    public var skipped: Int
    /// Why reading stopped before the end of the file, when it did: a cut
    /// (``CaptureError/truncated(path:record:byteOffset:reason:)``), a corrupt record
    /// (``CaptureError/malformed(path:record:byteOffset:reason:)``) or one longer than any
    /// record may be (``CaptureError/recordTooLong(path:record:byteOffset:length:limit:)``). Every complete record
    /// before that point is in ``records``.
    public var truncated: CaptureError?
    /// The frame numbers of the records that held no HCI packet (btmon's notes, index
    /// records, …), in order: with ``records`` they give each packet its frame number as
    /// Wireshark numbers frames. Empty when the caller kept none.
    public var noteFrames: [Int] = []

    public init(path: String, format: CaptureFormat, linkType: UInt32,
                directionSource: CaptureDirectionSource = .recorded,
                records: [CaptureRecord] = [], skipped: Int = 0, truncated: CaptureError? = nil) {
        self.path = path
        self.format = format
        self.linkType = linkType
        self.directionSource = directionSource
        self.records = records
        self.skipped = skipped
        self.truncated = truncated
    }

    /// What `stream`, read to its end, holds: its `records` (all it handed out, or none when
    /// the caller kept none) and its counts.
    public init(_ stream: CaptureStream, records: [CaptureRecord], noteFrames: [Int] = []) {
        self.init(path: stream.path, format: stream.format, linkType: stream.linkType,
                  directionSource: stream.directionSource, records: records,
                  skipped: stream.skipped, truncated: stream.truncated)
        self.noteFrames = noteFrames
    }
}
