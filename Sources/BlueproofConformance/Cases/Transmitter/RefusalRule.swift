import BlueproofTransmitter

/// A documented reason to refuse a call. A case that expects a refusal names its rules, and the
/// refusal counts only when the implementation's error is one the profile lists for one of them
/// (`bridgefy.refusals.<rule>`: names or numeric codes as the implementation reports them), so
/// an implementation refusing for some other reason fails the case (docs/runner.md, "Refusals").
public enum RefusalRule: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Neither dictionary nor data (bridgefy-ios-sdk-readme.md, "4. Send data").
    case emptyPayload = "empty_payload"
    /// Broadcast and encryption together ("Sending options").
    case encryptedBroadcast = "encrypted_broadcast"
    /// Binary data in a broadcast ("Broadcast messages").
    case binaryInBroadcast = "binary_in_broadcast"
    /// Binary data with mesh or full transmission ("Mesh").
    case binaryInMesh = "binary_in_mesh"
    /// A broadcast that names a receiver ("Broadcast messages": the example passes none).
    case broadcastWithReceiver = "broadcast_with_receiver"
    /// Direct, mesh or full transmission without a receiver (only broadcast has none).
    case missingReceiver = "missing_receiver"
    /// Encryption without a live secure connection or an imported key ("Secure connections",
    /// "Export and import keys").
    case noSecureConnection = "no_secure_connection"
    /// Anything but direct transmission in on-demand mode ("2. On-demand").
    case onDemandRoute = "on_demand_route"
    /// A dictionary bound for the mesh over its limit ("Maximum package sizes and throughput").
    case meshDictionaryTooLarge = "mesh_dictionary_too_large"
    /// Binary data over its limit (same section).
    case binaryTooLarge = "binary_too_large"
    /// Connecting to a user never detected nearby ("3. Nearby peer detection").
    case userNotNearby = "user_not_nearby"
    /// Disconnecting from, or securing a connection with, a user not connected.
    case userNotConnected = "user_not_connected"
    /// One on-demand connection over the maximum ("2. On-demand").
    case connectionLimit = "connection_limit"
    /// Direct transmission to a receiver out of range ("Sending options").
    case receiverNotInRange = "receiver_not_in_range"
    /// A key other than the one on record for a user ("Export and import keys" says how keys
    /// are imported, not what a second, different key does: the project's reading is that it
    /// is never taken silently).
    case keyConflict = "key_conflict"
    /// A dictionary value with no JSON form, such as an image object ("Dictionaries").
    case unencodableValue = "unencodable_value"
    /// Background mode enabled with no Bluetooth background mode declared ("Background mode").
    case backgroundModeUndeclared = "background_mode_undeclared"

    /// The profile key listing the errors that count as this refusal.
    public var profileKey: String { "bridgefy.refusals.\(rawValue)" }

    public static func < (lhs: RefusalRule, rhs: RefusalRule) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TransmitterStage {
    /// Judges a refusal by the subject: `pass` when `error` is listed in the profile for one of
    /// `rules`, `fail` naming what was expected otherwise. An error that is not a transmitter
    /// error (the control connection broke) is thrown on: the case is then `error`.
    public func judgeRefusal(_ error: any Error, of what: String, by rules: Set<RefusalRule>) throws -> CaseOutcome {
        guard let refusal = error as? TransmitterError else { throw error }
        var expected: [String] = []
        for rule in rules.sorted() {
            let accepted = try context.profile.strings(rule.profileKey)
            if accepted.contains(refusal.name) || accepted.contains(String(refusal.code)) {
                return .pass("\(what) refused for the documented reason (\(rule.rawValue)): \(refusal)")
            }
            expected.append("\(rule.profileKey) \(accepted)")
        }
        return .fail("\(what) refused, but with \(refusal.code) \(refusal.name), which is not the documented refusal: expected one of \(expected.joined(separator: "; "))")
    }
}
