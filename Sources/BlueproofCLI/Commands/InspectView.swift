import ArgumentParser
import BlueproofCapture
import BlueproofCheck
import Foundation

/// The packets `inspect` prints: the filters of `--conn`, `--layer`, `--from`/`--to` and
/// `--grep`, all of which a packet must pass.
struct InspectView {
    var handle: UInt16?
    var layers: Set<CaptureLayer> = []
    /// Seconds since the first packet, as the time column prints them.
    var from: Double?
    var to: Double?
    /// Lowercased; matched against the printed text line.
    var grep: String?

    /// Whether packets need their layers and handle found.
    var needsContext: Bool { handle != nil || !layers.isEmpty }

    /// Whether a packet of `context` (nil for a record that holds no packet, or when
    /// ``needsContext`` is false) at `seconds` is shown.
    func admits(_ context: PacketContext?, seconds: Double?) -> Bool {
        if let handle, context?.handle != handle { return false }
        if !layers.isEmpty, context.map({ !$0.layers.isDisjoint(with: layers) }) != true { return false }
        if from != nil || to != nil {
            guard let seconds else { return false }
            if let from, seconds < from { return false }
            if let to, seconds > to { return false }
        }
        return true
    }

    /// Whether the printed `line` passes `--grep`.
    func admits(line: String) -> Bool {
        guard let grep else { return true }
        return line.lowercased().contains(grep)
    }

    /// A connection handle: decimal or 0x-prefixed hexadecimal, at most 0x0EFF (Core Vol 4, Part E §5.4.2).
    static func handle(_ text: String) throws -> UInt16 {
        let value = text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
        guard let value, value <= 0x0EFF else {
            throw ValidationError("--conn: expected a connection handle (0 to 0x0EFF, decimal or 0x hexadecimal), got \(text)")
        }
        return value
    }

    /// Layers from a comma-separated list.
    static func layers(_ texts: [String]) throws -> Set<CaptureLayer> {
        var layers: Set<CaptureLayer> = []
        for text in texts.flatMap({ $0.split(separator: ",") }) {
            guard let layer = CaptureLayer(rawValue: text.lowercased()) else {
                throw ValidationError("--layer: \(text) is none of \(CaptureLayer.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            layers.insert(layer)
        }
        return layers
    }
}

/// `inspect --summary` in text.
enum InspectSummaryText {
    static func lines(_ summary: CaptureSummary) -> [String] {
        var lines: [String] = []
        let buffers = summary.buffers.map { "\($0.count) buffer(s) of \($0.length) bytes" } ?? "no buffer size read"
        lines.append("\(summary.connections.count) connection(s); controller: \(buffers); "
            + "\(summary.commandErrors) command(s) answered with an error status")
        for connection in summary.connections {
            let peer = connection.peerAddress.map { " peer \($0)" } ?? ""
            let role = connection.role.map { " (we are \($0))" } ?? ""
            let began = connection.connectedFrame.map { "connected in frame \($0)" } ?? "began before the capture"
            let span = Double(connection.lastMicros - connection.firstMicros) / 1e6
            lines.append(String(format: "connection 0x%04X:", connection.handle) + "\(peer)\(role), \(began), "
                + String(format: "%.3f s", span))
            let mtu = connection.attMTU.map { "ATT_MTU \($0)" } ?? "ATT_MTU not exchanged"
            let rate = connection.bytesPerSecond.map { String(format: "%.1f B/s", $0) } ?? "-"
            lines.append("  \(mtu); ACL \(connection.aclSent) sent (\(connection.bytesSent) B), "
                + "\(connection.aclReceived) received (\(connection.bytesReceived) B); \(rate); "
                + "at most \(connection.mostInFlight) in flight")
            let ended = connection.disconnectedFrame.map { "disconnected in frame \($0): \(connection.disconnectionReason ?? "?")" }
                ?? "not disconnected in the capture"
            lines.append("  errors: \(connection.attErrors) ATT error response(s), \(connection.smpFailures) SMP pairing failed, "
                + "\(connection.signalRejects) L2CAP command reject(s); \(ended)")
        }
        if summary.untracked > 0 { lines.append("\(summary.untracked) packet(s) on connections past the first 1024, not summarised") }
        return lines
    }
}

/// `inspect --summary --json`.
struct InspectSummaryJSON: Encodable {
    struct Buffers: Encodable {
        var length: Int
        var count: Int
    }

    var file: String
    var buffers: Buffers?
    var commandErrors: Int
    var connections: [ConnectionSummary]
    var untracked: Int

    init(file: String, summary: CaptureSummary) {
        self.file = file
        buffers = summary.buffers.map { Buffers(length: $0.length, count: $0.count) }
        commandErrors = summary.commandErrors
        connections = summary.connections
        untracked = summary.untracked
    }
}
