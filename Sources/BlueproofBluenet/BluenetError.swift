/// Why a Bluenet call or input was refused (bluenet-lib-ios README). Every refusal of
/// untrusted input names the limit it broke.
public enum BluenetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Crownstone service data that is not the documented 16 octets.
    case serviceDataLength(actual: Int, expected: Int)
    /// A fingerprint string longer than ``BluenetLimits/fingerprintTextMaximum`` octets.
    case fingerprintTooLong(octets: Int, limit: Int)
    /// A fingerprint string that is not a JSON object of id strings to arrays of integers.
    case fingerprintMalformed(String)
    /// More beacons, or more samples for one beacon, than a fingerprint may hold.
    case fingerprintTooLarge(what: String, count: Int, limit: Int)
    /// An RSSI outside -127...20 dBm (Core Vol 4, Part E §7.7.65.2).
    case rssiOutOfRange(Int)
    /// A fingerprint with no samples at all.
    case fingerprintEmpty
    /// A fingerprint call in the wrong collection state ("Methods": start, pause, resume, abort, finalize).
    case collection(String)
    /// More tracked UUIDs or groups than ``BluenetLimits/trackedRegionsMaximum``.
    case tooManyRegions(limit: Int)
    /// A group id or location id that is empty or longer than ``BluenetLimits/identifierMaximum``.
    case identifier(String)
    /// A topic name the document does not list.
    case unknownTopic(String)
    /// A connection or command refused or ended ("Methods": connect, disconnect, setSwitchState).
    case connection(BluenetConnectionFailure)
    /// A value written to a Crownstone's control characteristic that is not a switch command.
    case controlPacket(String)

    public var description: String {
        switch self {
        case let .serviceDataLength(actual, expected):
            "Crownstone service data has \(actual) octets, expected \(expected)"
        case let .fingerprintTooLong(octets, limit): "fingerprint text of \(octets) octets, at most \(limit)"
        case let .fingerprintMalformed(reason): "fingerprint is not {idString: [rssi, …]}: \(reason)"
        case let .fingerprintTooLarge(what, count, limit): "fingerprint has \(count) \(what), at most \(limit)"
        case let .rssiOutOfRange(value): "RSSI \(value) dBm is outside -127...20"
        case .fingerprintEmpty: "fingerprint has no samples"
        case let .collection(reason): "fingerprint collection: \(reason)"
        case let .tooManyRegions(limit): "more than \(limit) tracked regions"
        case let .identifier(reason): "identifier: \(reason)"
        case let .unknownTopic(topic): "unknown topic \"\(topic)\""
        case let .connection(failure): failure.description
        case let .controlPacket(reason): "control packet: \(reason)"
        }
    }
}

/// How a connect, disconnect or switch request ended without success.
public enum BluenetConnectionFailure: Hashable, Sendable, CustomStringConvertible {
    /// No connection within the connect timeout from the actual start of the attempt.
    case connectTimeout(seconds: Double)
    /// The device did not confirm the disconnection within the disconnect timeout.
    case disconnectTimeout(seconds: Double)
    /// A newer connect (or a disconnect) aborted this pending connection request.
    case aborted
    /// The link failed or the device refused (reason as the link reported it).
    case failed(String)
    /// A command that needs a connection was issued with none.
    case notConnected
    /// A switch state other than 0 or 1; dimming (values between) is not supported yet.
    case switchStateUnsupported(Double)

    public var description: String {
        switch self {
        case let .connectTimeout(seconds): "no connection within the \(seconds) s connect timeout"
        case let .disconnectTimeout(seconds): "no disconnection within the \(seconds) s disconnect timeout"
        case .aborted: "aborted by a newer connection request"
        case let .failed(reason): "connection failed: \(reason)"
        case .notConnected: "not connected"
        case let .switchStateUnsupported(value): "switch state \(value) is not 0 or 1 (dimming is not supported)"
        }
    }
}
