import BlueproofAsync
import BlueproofSpark
import Foundation

/// How `spark listen` and `spark send` put things into words.
enum SparkText {
    /// A transfer's failure in words.
    static func text(_ error: SparkTransferError) -> String {
        switch error {
        case .sourceUnavailable(let path): "the sender's file \(escaped(path)) vanished or shrank"
        case .channelClosed(let channel): "channel \(channel) was closed"
        case .connectionEnded(let reason): reason == .linkLost ? "the link was lost" : "the connection ended (\(reason))"
        case .remote(let failure): "the other side reported it failed (\(failure))"
        case .sizeMismatch(let declared, let received): "\(received) bytes arrived of the \(declared) declared"
        case .digestMismatch: "the bytes do not hash to the SHA-256 their header declared"
        case .storage(let failure): "it could not be stored: \(failure)"
        case .refused(let why): "refused: \(why)"
        }
    }

    static func summary(bytes: UInt64, since start: ContinuousClock.Instant, sha256: String) -> String {
        let seconds = seconds(since: start)
        return "\(bytes) bytes in " + String(format: "%.2f s (%.1f kB/s)", seconds, seconds > 0 ? Double(bytes) / seconds / 1000 : 0)
            + ", SHA-256 \(sha256)"
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double { (ContinuousClock.now - start).seconds }

    static func rate(_ bytes: UInt64, since start: ContinuousClock.Instant) -> Double {
        let seconds = seconds(since: start)
        return seconds > 0 ? Double(bytes) / seconds : 0
    }

    static func elapsed(since start: ContinuousClock.Instant) -> String { String(format: "%.1f s", seconds(since: start)) }

    /// A peer's text as one printable line: control characters (C0, DEL, C1) as `\u{…}`,
    /// newline and tab as `\n` and `\t`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F...0x9F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func quoted(_ text: String) -> String {
        let escaped = escaped(text)
        return "\"\(escaped.count > 60 ? escaped.prefix(60) + "…" : escaped)\""
    }
}
