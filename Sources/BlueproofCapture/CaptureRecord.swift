import BlueproofWire

/// Which way a packet crossed the host/controller boundary.
public enum CaptureDirection: String, Hashable, Sendable, Codable {
    /// Host to controller: commands and outgoing data.
    case sent
    /// Controller to host: events and incoming data.
    case received
}

/// One packet as recorded at the host/controller boundary.
public struct CaptureRecord: Hashable, Sendable {
    /// Microseconds since the Unix epoch.
    public var timestampMicros: Int64
    public var direction: CaptureDirection
    public var packet: H4Packet
    /// The controller this packet belongs to when a capture holds several (btmon's index).
    public var controllerIndex: UInt16?

    public init(timestampMicros: Int64, direction: CaptureDirection, packet: H4Packet, controllerIndex: UInt16? = nil) {
        self.timestampMicros = timestampMicros
        self.direction = direction
        self.packet = packet
        self.controllerIndex = controllerIndex
    }
}

extension CaptureRecord {
    /// Whether ``timestampMicros`` holds the recorded time. A file may record a time beyond
    /// what 64-bit microseconds hold (about ±292,000 years from 1970; only a corrupt or
    /// hostile file does): the reader clamps it to `Int64.max` or `Int64.min`, and this is false.
    public var isTimestampInRange: Bool { timestampMicros != .max && timestampMicros != .min }

    /// `seconds` and `microseconds` since the Unix epoch as microseconds, clamped to
    /// `Int64.max` or `Int64.min` when they do not fit.
    static func clampedMicros(seconds: Int64, microseconds: Int64) -> Int64 {
        let (scaled, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflowed { return seconds < 0 ? .min : .max }
        let (sum, carried) = scaled.addingReportingOverflow(microseconds)
        if carried { return microseconds < 0 ? .min : .max }
        return sum
    }
}

/// Where a transport reports every packet it sends and receives. Implementations must be
/// safe to call from any thread and must not block for long: transports call it inline.
public protocol CaptureSink: Sendable {
    func record(_ record: CaptureRecord)
}
