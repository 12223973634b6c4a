import Foundation

/// Whether the core answers for the application or waits for it ("This may also be done automatically").
public enum SparkAnswer: Hashable, Sendable {
    case automatic
    case application
}

/// How many connections the application holds at once ("This user interface in this sample
/// supports only a single concurrent data connection but the API is capable of several").
public enum SparkConcurrency: Hashable, Sendable {
    /// The sample: a second offer while one connection is live is ended (`busy`).
    case single
    /// Up to `limit` (at most `SparkLimits.maxConnections`).
    case several(limit: Int)

    var limit: Int {
        switch self {
        case .single: 1
        case .several(let limit): max(1, min(limit, SparkLimits.maxConnections))
        }
    }
}

/// How one core behaves.
public struct SparkConfiguration: Sendable {
    /// This side's registration id (peers address it by this).
    public var registrationID: UInt64
    /// This side's key id (32 bytes); peers must hold it before their offers pass.
    public var keyID: [UInt8]
    /// `dataConnectionSetupComplete` on an offer: by the core, or by the application.
    public var setup: SparkAnswer
    /// Accept an available connection: by the core, or by the application.
    public var acceptance: SparkAnswer
    public var concurrency: SparkConcurrency
    /// An outgoing offer unanswered for this long is ended with `timeout`.
    public var offerTimeout: TimeInterval
    /// The link's SDU size: frames are cut to fit (`SparkLimits.minFrameBytes`...`maxFrameBytes`).
    public var frameBytes: Int
    /// Broken-variant faults; none for the reference.
    public var defects: SparkDefects

    public init(registrationID: UInt64, keyID: [UInt8], setup: SparkAnswer = .automatic, acceptance: SparkAnswer = .application,
                concurrency: SparkConcurrency = .several(limit: SparkLimits.maxConnections), offerTimeout: TimeInterval = 30,
                frameBytes: Int = SparkLimits.maxFrameBytes, defects: SparkDefects = []) {
        self.defects = defects
        self.registrationID = registrationID
        self.keyID = keyID
        self.setup = setup
        self.acceptance = acceptance
        self.concurrency = concurrency
        self.offerTimeout = offerTimeout
        self.frameBytes = max(SparkLimits.minFrameBytes, min(frameBytes, SparkLimits.maxFrameBytes))
    }

    /// The most data bytes one chunk or stream frame carries.
    var chunkBytes: Int { frameBytes - SparkEnvelope.chunkOverhead }
}
