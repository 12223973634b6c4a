import Foundation

/// Everything a `Transmitter` is built from.
public struct TransmitterConfiguration: Sendable {
    /// The link frames travel on; its kind selects the size limits.
    public var link: any TransmitterLink
    /// Where the session lives (`SessionStore` on disk, or `InMemorySession`).
    public var session: any TransmitterSessionBacking
    /// The API key and the offline licence text ("Configuring Transmitter Framework without
    /// Internet"), checked by `licenceVerifier` at every start.
    public var apiKey: String
    public var licence: String
    public var licenceVerifier: LicenceVerifier
    /// Size limits ("Maximum package sizes and throughput").
    public var limits: TransmitterLimits
    /// The clock expiry is read from (mesh packets, secure connections).
    public var timeSource: any TransmitterTimeSource
    /// Asked on each new connection: start a secure connection with this user? ("Secure connections").
    public var shouldConnectSecurely: @Sendable (UserID) -> Bool
    /// How many transmissions a mesh packet may take from its sender (blueproof's choice; the
    /// document names no number).
    public var hopLimit: Int
    /// How long a mesh packet is held and forwarded after it is sent (blueproof's choice).
    public var meshExpiry: TimeInterval
    /// Packet ids remembered for duplicate suppression.
    public var duplicateCacheCapacity: Int
    /// On-demand mode's connection cap ("2. On-demand": 5).
    public var maxOnDemandConnections: Int
    /// Sent in the hello frame (the chat app shows them).
    public var displayName: String?
    public var deviceType: String?
    /// Deliberate faults; empty for the reference behaviour.
    public var defects: TransmitterDefects

    public static let defaultHopLimit = 16
    public static let defaultMeshExpiry: TimeInterval = 24 * 3600

    public init(
        link: any TransmitterLink,
        session: any TransmitterSessionBacking,
        apiKey: String,
        licence: String,
        licenceVerifier: LicenceVerifier = .blueproofTestIssuer,
        limits: TransmitterLimits = .documented,
        timeSource: any TransmitterTimeSource = SystemTimeSource(),
        shouldConnectSecurely: @escaping @Sendable (UserID) -> Bool = { _ in false },
        hopLimit: Int = TransmitterConfiguration.defaultHopLimit,
        meshExpiry: TimeInterval = TransmitterConfiguration.defaultMeshExpiry,
        duplicateCacheCapacity: Int = 4096,
        maxOnDemandConnections: Int = 5,
        displayName: String? = nil,
        deviceType: String? = nil,
        defects: TransmitterDefects = []
    ) {
        self.link = link
        self.session = session
        self.apiKey = apiKey
        self.licence = licence
        self.licenceVerifier = licenceVerifier
        self.limits = limits
        self.timeSource = timeSource
        self.shouldConnectSecurely = shouldConnectSecurely
        self.hopLimit = hopLimit
        self.meshExpiry = meshExpiry
        self.duplicateCacheCapacity = duplicateCacheCapacity
        self.maxOnDemandConnections = maxOnDemandConnections
        self.displayName = displayName
        self.deviceType = deviceType
        self.defects = defects
    }
}
