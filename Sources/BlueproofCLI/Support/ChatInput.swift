import BlueproofChat
import BlueproofTransmitter

/// One line typed into `blueproof chat`, sans I/O: what it asks for, or why it cannot be sent,
/// said before anything is sent.
enum ChatInput: Equatable {
    case broadcast(String)
    case direct(peer: String, text: String)
    case peers
    case quit
    /// Blank: nothing to do.
    case nothing
    /// Not sent, and why, in the user's words.
    case refused(String)

    static let commands = "/to NAME text, /peers, /quit"

    /// Reads `line`; `limit` is the largest encoded message the transmitter takes (its mesh
    /// dictionary limit on the link: a broadcast and an Encrypted + Full direct message may
    /// both go through the mesh; bridgefy-ios-sdk-readme.md, "Maximum package sizes").
    static func parse(_ line: String, sender: (name: String, deviceType: String),
                      limit: Int = TransmitterLimits.documented.meshDictionary(on: .ble)) -> ChatInput {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .nothing }
        guard trimmed.hasPrefix("/") else {
            return tooLong(.text(line, sender: sender), limit: limit).map(ChatInput.refused) ?? .broadcast(line)
        }
        let words = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        switch words[0] {
        case "/quit" where words.count == 1: return .quit
        case "/peers" where words.count == 1: return .peers
        case "/to":
            guard words.count >= 2 else { return .refused("/to needs a peer and a text: /to NAME text") }
            guard words.count == 3, !words[2].trimmingCharacters(in: .whitespaces).isEmpty else {
                return .refused("/to \(words[1]): no text to send; /to NAME text")
            }
            return tooLong(.text(words[2], sender: nil), limit: limit).map(ChatInput.refused)
                ?? .direct(peer: words[1], text: words[2])
        default:
            return .refused("\(words[0]) is not a command (\(commands)); a line that starts with / is never sent")
        }
    }

    /// Why `message` is too long to send, or nil when it fits.
    private static func tooLong(_ message: ChatMessage, limit: Int) -> String? {
        guard let size = try? TransmitterPayload(dictionary: message.dictionary).dictionarySize, size > limit else { return nil }
        guard case .text(let text, let sender) = message else { return nil }
        let overhead = (try? TransmitterPayload(dictionary: ChatMessage.text("", sender: sender).dictionary).dictionarySize) ?? 0
        return "not sent: the message is \(text.utf8.count) bytes; over Bluetooth a message holds at most "
            + "\(max(0, limit - overhead)) bytes of text (\(limit) encoded). Shorten it or send it in parts"
    }
}
