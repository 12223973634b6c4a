import BlueproofTransfer
import BlueproofWire
import Foundation

/// Shows a transfer's events on standard error: steps as lines, progress as a ``ProgressBar``.
final class TransferConsole {
    private let progress: ProgressBar
    private let showProgress: Bool
    private var total: Int?

    init(label: String, total: Int? = nil, showProgress: Bool = true) {
        progress = ProgressBar(label: label)
        self.total = total
        self.showProgress = showProgress
    }

    func show(_ event: TransferEvent) {
        switch event {
        case let .advertising(service): line("advertising \(service)")
        case let .scanning(service): line("scanning for \(service)")
        case let .gate(address, decision): line("\(address): \(decision)")
        case let .connected(connection): line("connected \(connection)")
        case let .ready(mtu, chunkSize): line("subscribed; ATT_MTU \(mtu), chunks of \(chunkSize) bytes")
        case let .progress(value):
            if showProgress { progress.update(bytes: value.bytes, total: value.total ?? total, bytesPerSecond: value.bytesPerSecond) }
        case let .reply(value): line("reply: \(value.count) bytes \(Self.preview(value))")
        case let .writeRefused(length, withResponse, error): line(Self.refusal(length: length, withResponse: withResponse, error: error))
        case .unsubscribed: line("the central turned notifications off")
        case let .disconnected(reason): line("the central disconnected\(reason.map { " (\($0))" } ?? "")")
        case let .done(summary): line("done: \(summary.bytes) bytes, SHA-256 \(summary.sha256)")
        case let .failed(error): line("failed: \(error)")
        }
    }

    private func line(_ text: String) { progress.line(text) }

    func finish() { progress.finish() }

    /// What the central did and what the peripheral did about it, for a refused write.
    static func refusal(length: Int, withResponse: Bool, error: ATTErrorCode) -> String {
        let why = error == .invalidAttributeValueLength
            ? "\(error): over the 512 bytes an attribute value holds, Core Vol 3, Part F §3.2.9" : "\(error)"
        return withResponse
            ? "the central wrote \(length) bytes with a Write Request; refused, answered with ATT error \(why)"
            : "the central wrote \(length) bytes with a Write Command; refused (\(why)) and ignored, as a command cannot be answered (Core Vol 3, Part F §3.4.5.3)"
    }

    static func preview(_ value: [UInt8]) -> String {
        let text = String(decoding: value.prefix(40), as: UTF8.self)
        return text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0xFFFD }) ? "\"\(text)\"" : "(binary)"
    }
}

/// A summary as the commands print it with --json.
struct TransferReport: Encodable {
    var backend: String
    var role: String
    var direction: String
    var bytes: Int
    var mtu: Int
    var chunkSize: Int
    var chunks: Int
    var seconds: Double
    var bytesPerSecond: Double
    var sha256: String
    /// The receiver's answer, as hex (bytes, not text).
    var reply: String?
    var output: String?

    init(_ summary: TransferSummary, backend: String, output: String?) {
        self.backend = backend
        role = summary.role.rawValue
        direction = summary.direction.rawValue
        bytes = summary.bytes
        mtu = summary.mtu
        chunkSize = summary.chunkSize
        chunks = summary.chunks
        seconds = summary.seconds
        bytesPerSecond = summary.bytesPerSecond
        sha256 = summary.sha256
        reply = summary.reply.map { hex($0) }
        self.output = output
    }

    var text: String {
        let verb = direction == "peripheral-to-central" ? (role == "peripheral" ? "sent" : "received")
            : (role == "central" ? "sent" : "received")
        return "\(backend) \(role): \(verb) \(bytes) bytes (ATT_MTU \(mtu), \(chunks) chunks of up to \(chunkSize)) in "
            + String(format: "%.2f s: %.1f kB/s", seconds, bytesPerSecond / 1000) + ", SHA-256 \(sha256)"
    }
}

/// A sender's failure as the commands print it with --json: what did leave, and its SHA-256.
struct TransferFailureReport: Encodable {
    var backend: String
    var role: String
    var error: String
    /// Data bytes the controller completed before the failure, of `totalBytes`.
    var bytes: Int
    var totalBytes: Int
    /// SHA-256 of those `bytes` bytes (the payload's first ones).
    var sha256: String

    /// The report for a sender of `payload`; nil when the error does not say how much left.
    init?(_ error: TransferError, payload: [UInt8], role: String, backend: String) {
        switch error {
        case let .disconnected(_, bytes), let .unsubscribed(bytes), let .stalled(bytes, _): self.bytes = min(bytes, payload.count)
        default: return nil
        }
        self.backend = backend
        self.role = role
        self.error = "\(error)"
        totalBytes = payload.count
        sha256 = SHA256.hex(Array(payload.prefix(self.bytes)))
    }

    var text: String { "\(role): sent \(bytes) of \(totalBytes) bytes before it failed; SHA-256 of those \(bytes): \(sha256)" }
}
