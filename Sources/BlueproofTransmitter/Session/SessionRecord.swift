import Foundation

/// The persistent session: the local identity, the peer keys it knows (exchanged in a secure
/// connection or imported), and the secure-connection settings.
///
/// Source: bridgefy-ios-sdk-readme.md, "Session" (persistent, shared by every instance, destroyed
/// only explicitly), "Secure connections" (expiration), "Export and import keys".
public struct SessionRecord: Sendable, Equatable {
    /// blueproof's default expiration limit: 7 days, in seconds (choice C17, docs/transmitter.md).
    public static let defaultSecureConnectionExpirationLimit = 604_800

    public var identity: TransmitterIdentity
    /// Peer public keys by user.
    public var knownKeys: [UserID: PublicKeyBundle]
    /// How long, in seconds, a secure connection lasts without activity ("Secure connections").
    public var secureConnectionExpirationLimit: Int
    /// The last activity of each secure connection, so expiry holds across restarts.
    public var secureConnections: [UserID: Date]

    public init(
        identity: TransmitterIdentity,
        knownKeys: [UserID: PublicKeyBundle] = [:],
        secureConnectionExpirationLimit: Int = SessionRecord.defaultSecureConnectionExpirationLimit,
        secureConnections: [UserID: Date] = [:]
    ) {
        self.identity = identity
        self.knownKeys = knownKeys
        self.secureConnectionExpirationLimit = secureConnectionExpirationLimit
        self.secureConnections = secureConnections
    }
}
