import BlueproofTransmitter

/// A peer in the chat list: online (in range) or offline (met before).
///
/// Source: bridgefy-chat-app-tutorial.md — a new peer is named by the first 5 characters of
/// its id with an unknown device type until it sends its own name and device type.
public struct ChatPeer: Sendable, Equatable {
    public let user: UserID
    public var name: String
    public var deviceType: String
    public var online: Bool

    public init(user: UserID, name: String? = nil, deviceType: String? = nil, online: Bool) {
        self.user = user
        self.name = name ?? ChatPeer.defaultName(of: user)
        self.deviceType = deviceType ?? ChatPeer.unknownDeviceType
        self.online = online
    }

    public static let unknownDeviceType = "unknown"
    /// How many leading characters of a peer's id make its default name (profile
    /// `bridgefy.chat.name_prefix_chars`).
    public static let defaultNameLength = 5

    /// The name a peer has until it sends its own: the first `length` characters of its id.
    public static func defaultName(of user: UserID, length: Int = defaultNameLength) -> String {
        String(user.description.prefix(length))
    }
}
