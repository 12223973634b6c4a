import BlueproofTransmitter
import Foundation

/// What the chat app puts in a transmitter dictionary (bridgefy-chat-app-tutorial.md): either
/// the sender's name and device type (sent to each peer on a secure connection), or a text
/// message; a broadcast message carries the sender's name and device type too, since its
/// receivers may never have met the sender.
public enum ChatMessage: Sendable, Equatable {
    case identity(name: String, deviceType: String)
    case text(String, sender: (name: String, deviceType: String)?)

    enum Key {
        static let kind = "kind"
        static let name = "name"
        static let deviceType = "deviceType"
        static let text = "text"
    }

    public var dictionary: [String: TransmitterValue] {
        switch self {
        case .identity(let name, let deviceType):
            return [Key.kind: .string("identity"), Key.name: .string(name), Key.deviceType: .string(deviceType)]
        case .text(let text, let sender):
            var dictionary: [String: TransmitterValue] = [Key.kind: .string("text"), Key.text: .string(text)]
            if let sender {
                dictionary[Key.name] = .string(sender.name)
                dictionary[Key.deviceType] = .string(sender.deviceType)
            }
            return dictionary
        }
    }

    /// Reads a received dictionary; nil if it is not a chat message.
    public init?(_ dictionary: [String: TransmitterValue]?) {
        guard let dictionary, case .string(let kind)? = dictionary[Key.kind] else { return nil }
        let name: String? = if case .string(let value)? = dictionary[Key.name] { value } else { nil }
        let device: String? = if case .string(let value)? = dictionary[Key.deviceType] { value } else { nil }
        switch kind {
        case "identity":
            guard let name, let device else { return nil }
            self = .identity(name: name, deviceType: device)
        case "text":
            guard case .string(let text)? = dictionary[Key.text] else { return nil }
            self = .text(text, sender: name.flatMap { name in device.map { (name, $0) } })
        default:
            return nil
        }
    }

    public static func == (lhs: ChatMessage, rhs: ChatMessage) -> Bool {
        lhs.dictionary == rhs.dictionary
    }
}
