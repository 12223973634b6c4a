/// Deliberate faults of the chat app, for the broken variants that show each CHAT case can
/// fail (bridgefy-chat-app-tutorial.md). Default: none.
public struct ChatDefects: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A peer's name-and-device-type dictionary is shown as a chat message (the app does not
    /// tell the two kinds of dictionary apart).
    public static let peerInfoShownAsMessage = ChatDefects(rawValue: 1 << 0)
    /// A chat message carrying the sender's name and device type (a broadcast) is taken for
    /// peer information: the peer is renamed and no message is shown.
    public static let messageTakenAsPeerInfo = ChatDefects(rawValue: 1 << 1)
    /// A new peer's default name takes one character of its id too many.
    public static let nameLengthWrong = ChatDefects(rawValue: 1 << 2)
    /// On a secure connection the app does not send its name and device type.
    public static let identityNotSent = ChatDefects(rawValue: 1 << 3)
    /// Broadcast messages leave without the sender's name and device type.
    public static let broadcastWithoutSender = ChatDefects(rawValue: 1 << 4)
    /// A disconnection leaves the peer shown online.
    public static let disconnectionIgnored = ChatDefects(rawValue: 1 << 5)
}
