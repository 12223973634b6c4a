/// The bounds of the Spark wire format and core (docs/spark-wire.md "Bounds"). Every one is
/// named by the typed error that refuses input past it.
public enum SparkLimits {
    /// Wire format version this module speaks.
    public static let version: UInt8 = 1
    /// Largest frame: the largest SDU an L2CAP credit-based channel carries (MTU ≤ 65535).
    public static let maxFrameBytes = 65_535
    /// Smallest SDU the core will chunk for: a header, a transfer id and one byte of data.
    public static let minFrameBytes = SparkEnvelope.headerBytes + 5
    /// Offer metadata: "up to 4Kb" ("Starting A Data Connection"), resolved as 4096 bytes of UTF-8.
    public static let maxMetadataBytes = 4096
    /// Channel descriptions and file names: a u8 length, at most 255 bytes of UTF-8.
    public static let maxNameBytes = 255
    /// An in-memory data block ("Data is sent and received in-memory and is suitable for
    /// smaller transfers", "Data and Files"): 16 MiB.
    public static let maxDataBytes: UInt64 = 16 << 20
    /// A file (written to disk as it arrives, so memory stays bounded): 64 GiB.
    public static let maxFileBytes: UInt64 = 64 << 30
    /// Channels open on one connection (both directions together).
    public static let maxChannelsPerConnection = 64
    /// Incoming transfers in progress on one connection.
    public static let maxIncomingTransfers = 16
    /// Declared bytes of in-memory data blocks being received, all connections together: the
    /// memory an untrusted peer can make the core hold (files go to disk and do not count).
    public static let maxBufferedDataBytes: UInt64 = 64 << 20
    /// Connections one core holds at once (live ones; ended ones are forgotten).
    public static let maxConnections = 32
    /// Bytes of stream blocks queued but not yet handed to the link, per connection: the
    /// back-pressure point of `send(_:toChannel:)`.
    public static let maxQueuedStreamBytes = 4 << 20
}
