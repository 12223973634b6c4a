extension SendingOptions {
    /// The document's flag names without their `BFSendingOption` prefix, in the order
    /// "Sending options" lists them; used on the control protocol and in verdict reasons.
    public static let documentNames: [(name: String, option: SendingOptions)] = [
        ("DirectTransmission", .directTransmission), ("MeshTransmission", .meshTransmission),
        ("FullTransmission", .fullTransmission), ("Encrypted", .encrypted), ("NoEncrypted", .noEncrypted),
        ("BroadcastReceiver", .broadcastReceiver),
    ]

    /// The names of the flags set, in document order.
    public var names: [String] { Self.documentNames.filter { contains($0.option) }.map(\.name) }

    /// The set with these names; nil if one is not a flag name.
    public init?(names: [String]) {
        var options: SendingOptions = []
        for name in names {
            guard let match = Self.documentNames.first(where: { $0.name == name }) else { return nil }
            options.insert(match.option)
        }
        self = options
    }
}
