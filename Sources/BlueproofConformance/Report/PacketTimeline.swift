import BlueproofCapture
import BlueproofWire

/// The first packets of a capture as the HTML report shows them: time since the first
/// packet, direction, and the decoded summary `blueproof inspect` prints.
public struct PacketTimeline: Sendable {
    public struct Row: Hashable, Sendable {
        public var frame: Int
        public var seconds: Double
        /// `host → controller` or `controller → host`.
        public var direction: String
        public var summary: String
    }

    public static let defaultLimit = 50

    public var capture: String
    public var rows: [Row]
    public var totalFrames: Int
    /// Why the capture could not be read, when it could not.
    public var problem: String?

    public init(capture: String, limit: Int = defaultLimit) {
        self.capture = capture
        do {
            let file = try CaptureReader.read(path: capture)
            let start = file.records.first?.timestampMicros ?? 0
            rows = file.records.prefix(limit).enumerated().map { index, record in
                Row(frame: index + 1, seconds: Double(record.timestampMicros - start) / 1e6,
                    direction: record.direction == .sent ? "host → controller" : "controller → host",
                    summary: record.packet.describe().line)
            }
            totalFrames = file.records.count
            problem = file.truncated.map { "truncated: \($0)" }
        } catch {
            rows = []
            totalFrames = 0
            problem = "\(error)"
        }
    }
}
