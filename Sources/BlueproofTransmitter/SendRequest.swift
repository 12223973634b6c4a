/// Everything `SendValidator` needs to know about one send, without the payload bytes.
///
/// Source: bridgefy-ios-sdk-readme.md, "4. Send data" (validation is synchronous and happens
/// before a packet id is returned).
public struct SendRequest: Hashable, Sendable {
    /// The options as the caller gave them.
    public var options: SendingOptions
    /// Encoded size of the dictionary in bytes (`TransmitterPayload.dictionarySize`), nil if absent.
    public var dictionarySize: Int?
    /// Size of the separate binary part in bytes, nil if absent (zero-length counts as absent).
    public var binarySize: Int?
    /// Whether a receiver was named.
    public var hasReceiver: Bool
    /// Whether the named receiver is in range now.
    public var receiverInRange: Bool
    /// Whether encryption to the receiver is possible: a secure connection made at least once and
    /// not expired, or an imported public key.
    public var canEncryptToReceiver: Bool
    /// The mode the transmitter runs in.
    public var mode: ConnectionMode
    /// The link the packet would travel on.
    public var link: LinkKind

    public init(
        options: SendingOptions,
        dictionarySize: Int?,
        binarySize: Int?,
        hasReceiver: Bool,
        receiverInRange: Bool,
        canEncryptToReceiver: Bool,
        mode: ConnectionMode = .automatic,
        link: LinkKind = .ble
    ) {
        self.options = options
        self.dictionarySize = dictionarySize
        self.binarySize = binarySize
        self.hasReceiver = hasReceiver
        self.receiverInRange = receiverInRange
        self.canEncryptToReceiver = canEncryptToReceiver
        self.mode = mode
        self.link = link
    }

    /// The payload kind, nil when nothing would be sent.
    public var payloadKind: PayloadKind? {
        PayloadKind(hasDictionary: dictionarySize != nil, hasBinary: (binarySize ?? 0) > 0)
    }
}
