import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofRadio
import BlueproofTransfer
import BlueproofTransmitter

/// What one case runs with: its catalogue entry, the profile, its fresh nodes (started LE
/// hosts, each recording to its own capture), the radio proxy when it asked for one, the
/// transmitter provider, and a log for the report.
public final class CaseContext: Sendable {
    public let entry: CatalogueEntry
    public let profile: Profile
    /// Started LE hosts, node 0 first.
    public let hosts: [LEHost]
    /// The capture of each node, by index: `Captures/<run>/<case>/node<N>.pcap`.
    public let captures: [String]
    public let radio: RadioWorld?
    public let transmitterProvider: (any TransmitterProvider)?
    /// The transfer behaviour under test: ``TransferFaults/none`` is the reference; a broken
    /// variant turns a switch on to show the case fails.
    public let transferFaults: TransferFaults
    public let log: CaseLog
    /// The case's backend as it describes itself (version, socket, pid of its process).
    public let backendFacts: [BackendFact]
    /// The run's clock: every timeout a case sets runs on it.
    public let clock: any Clock<Duration>

    public init(entry: CatalogueEntry, profile: Profile, hosts: [LEHost], captures: [String], radio: RadioWorld?,
                transmitterProvider: (any TransmitterProvider)?, transferFaults: TransferFaults, log: CaseLog,
                backendFacts: [BackendFact] = [], clock: any Clock<Duration> = ContinuousClock()) {
        self.entry = entry
        self.profile = profile
        self.hosts = hosts
        self.captures = captures
        self.radio = radio
        self.transmitterProvider = transmitterProvider
        self.transferFaults = transferFaults
        self.log = log
        self.backendFacts = backendFacts
        self.clock = clock
    }

    /// Preconditions whose failure is `not-applicable` rather than `error` (the profile's
    /// `runner.optional_preconditions`, with `--optional-precondition` added).
    public var optionalPreconditions: Set<Precondition> { profile.optionalPreconditions }

    /// `count` transmitters from the provider; without one the run is misconfigured (the case
    /// is an error), and a provider that cannot give them throws ``TransmitterUnavailable``.
    public func transmitters(_ count: Int) async throws -> [any TransmitterControl] {
        guard let transmitterProvider else { throw MissingTransmitterProvider() }
        return try await transmitterProvider.transmitters(count, for: self)
    }

    /// A capture read back as it stands (every packet is flushed as it is written).
    public func readCapture(_ node: Int) throws -> CaptureFile {
        try CaptureReader.read(path: captures[node])
    }
}

/// A case asked for transmitters in a run configured without a provider.
public struct MissingTransmitterProvider: Error, CustomStringConvertible {
    public var description: String { "no transmitter provider in this run" }
}
