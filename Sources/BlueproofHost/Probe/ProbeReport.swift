/// What `blueproof probe` found: a profile per controller and a check per pair of them.
public struct ProbeReport: Codable, Hashable, Sendable {
    public var controllers: [ControllerProfile]
    public var links: [LinkCheck]
    public var durationMilliseconds: Double

    /// Every command the host needs worked, and every pair saw and connected to each other.
    public var passed: Bool {
        controllers.allSatisfy { $0.problems.isEmpty } && links.allSatisfy { $0.problems.isEmpty }
    }
}

/// One controller as the probe saw it.
public struct ControllerProfile: Codable, Hashable, Sendable {
    public var index: Int
    public var endpoint: String
    public var address: String?
    public var hciVersion: String?
    public var lmpVersion: String?
    public var manufacturer: String?
    /// BR/EDR ACL buffers from Read Buffer Size: length x count.
    public var aclBuffers: BufferSize?
    /// LE ACL buffers the host will use, and which command said so.
    public var leACLBuffers: BufferSize?
    public var leFeatures: [String] = []
    /// How many of the commands blueproof knows the Supported Commands mask claims.
    public var supportedCommandCount: Int?
    public var knownCommandCount: Int?
    public var extendedAdvertising: Bool?
    public var extendedScanning: Bool?
    /// Every command the host needs: whether the mask claims it and what happened when used.
    public var commands: [CommandCheck] = []
    /// Round trip of Read Local Version Information, command sent to Command Complete received.
    public var commandRoundTrip: RoundTrip?
    public var problems: [String] = []
}

public struct BufferSize: Codable, Hashable, Sendable, CustomStringConvertible {
    public var length: Int
    public var count: Int
    public var source: String
    public var description: String { "\(length) bytes x \(count)" }
}

/// A command the host needs, against the supported-commands mask and its real behaviour.
public struct CommandCheck: Codable, Hashable, Sendable {
    public var name: String
    public var opcode: String
    /// What the Supported Commands mask says; nil when it has no bit for this command.
    public var claimed: Bool?
    /// `ok`, `failed: <status>`, `no answer`, or `not exercised`.
    public var result: String
}

public struct RoundTrip: Codable, Hashable, Sendable, CustomStringConvertible {
    public var samples: Int
    public var minimumMicroseconds: Double
    public var medianMicroseconds: Double
    public var p95Microseconds: Double
    public var description: String {
        func ms(_ us: Double) -> String { us >= 1000 ? "\((us / 100).rounded() / 10) ms" : "\(Int(us.rounded())) µs" }
        return "median \(ms(medianMicroseconds)), p95 \(ms(p95Microseconds)), min \(ms(minimumMicroseconds)) over \(samples)"
    }
}

/// One controller advertises, another scans, connects and disconnects.
public struct LinkCheck: Codable, Hashable, Sendable {
    public var advertiser: Int
    public var initiator: Int
    public var advertisementSeen: Bool = false
    /// RSSI of the first report: `-60 dBm` or `n/a` (127, not available).
    public var reportedRSSI: String?
    /// How the initiator treated a connection to an absent peer and its cancellation.
    public var absentPeer: String?
    public var millisecondsToReport: Double?
    public var connected: Bool = false
    public var millisecondsToConnect: Double?
    public var connectionRSSI: String?
    public var disconnected: Bool = false
    public var problems: [String] = []
}
