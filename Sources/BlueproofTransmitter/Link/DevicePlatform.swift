/// The operating system a node announces, which decides whether Wi-Fi peer-to-peer is open to
/// it: only between two iOS devices; with an Android device every connection is BLE
/// (bridgefy-ios-sdk-readme.md, "Connections with Android devices"). On the air it is one
/// octet after the user id in the BLE announcement (docs/transmitter-links.md, "Announcement").
public enum DevicePlatform: UInt8, Hashable, Sendable, CaseIterable {
    case ios = 0x01
    case android = 0x02

    public var name: String { self == .ios ? "iOS" : "Android" }
}

/// A link that learns, before any connection, the platform each nearby peer announces.
public protocol PlatformAnnouncingLink: TransmitterLink {
    /// The platform `peer` announced; nil when it announced none or one this link does not
    /// know (untrusted: such a peer is treated as not iOS).
    func announcedPlatform(of peer: UserID) async -> DevicePlatform?
}
