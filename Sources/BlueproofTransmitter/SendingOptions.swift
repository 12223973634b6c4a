/// The sending options, a bit set as the document models them (`BFSendingOption`).
///
/// Source: bridgefy-ios-sdk-readme.md, "Sending options". A valid set has exactly one of
/// `directTransmission`, `meshTransmission`, `fullTransmission` or `broadcastReceiver`
/// (broadcast may also carry `meshTransmission`), and at most one of `encrypted` and
/// `noEncrypted`; `SendValidator` resolves a set into a `TransmissionMode`.
/// The bit values are blueproof's (the document gives none).
public struct SendingOptions: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Sends only while the receiver is in range.
    public static let directTransmission = SendingOptions(rawValue: 1 << 0)
    /// Sends through the mesh; the receiver need not be in range.
    public static let meshTransmission = SendingOptions(rawValue: 1 << 1)
    /// Direct if the receiver is in range, otherwise into the mesh.
    public static let fullTransmission = SendingOptions(rawValue: 1 << 2)
    /// Encrypts the packet; needs a secure connection made at least once or an imported key.
    public static let encrypted = SendingOptions(rawValue: 1 << 3)
    /// Sends the packet without encryption (also the default when neither flag is set).
    public static let noEncrypted = SendingOptions(rawValue: 1 << 4)
    /// Sends through the mesh to every user, with no receiver; never encrypted, never binary.
    public static let broadcastReceiver = SendingOptions(rawValue: 1 << 5)
}
