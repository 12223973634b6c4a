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
    /// Our started LE host on each node, by node; nil on the node of a device under test.
    public let nodes: [LEHost?]
    /// The implementation under test on its node, when the run has one (`--dut-exec`).
    public let dut: DUTNode?
    /// A device under test on the air (`--dut-address`), standing for node `airDevice.node`.
    public let airDevice: AirDevice?
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
    /// This case's folder name in the run (its id as a path, `-<repetition>` added when the run
    /// repeats cases): repetitions that run at once never share captures or session storage.
    public let folder: String

    public convenience init(entry: CatalogueEntry, profile: Profile, hosts: [LEHost], captures: [String], radio: RadioWorld?,
                            transmitterProvider: (any TransmitterProvider)?, transferFaults: TransferFaults, log: CaseLog,
                            backendFacts: [BackendFact] = [], clock: any Clock<Duration> = ContinuousClock()) {
        self.init(entry: entry, profile: profile, nodes: hosts, dut: nil, airDevice: nil, captures: captures, radio: radio,
                  transmitterProvider: transmitterProvider, transferFaults: transferFaults, log: log,
                  backendFacts: backendFacts, clock: clock, folder: entry.id.pathComponent)
    }

    public init(entry: CatalogueEntry, profile: Profile, nodes: [LEHost?], dut: DUTNode?, airDevice: AirDevice?,
                captures: [String], radio: RadioWorld?,
                transmitterProvider: (any TransmitterProvider)?, transferFaults: TransferFaults, log: CaseLog,
                backendFacts: [BackendFact] = [], clock: any Clock<Duration> = ContinuousClock(), folder: String) {
        self.entry = entry
        self.profile = profile
        self.nodes = nodes
        self.dut = dut
        self.airDevice = airDevice
        self.captures = captures
        self.radio = radio
        self.transmitterProvider = transmitterProvider
        self.transferFaults = transferFaults
        self.log = log
        self.backendFacts = backendFacts
        self.clock = clock
        self.folder = folder
    }

    /// Our host on `node`; throws when the node has none (it is the device under test's, or
    /// the case opened fewer).
    public func host(_ node: Int) throws -> LEHost {
        guard node < nodes.count, let host = nodes[node] else {
            throw NodeWithoutHost(node: node, reason: node < nodes.count ? "it is the implementation under test's" : "the case opened \(nodes.count)")
        }
        return host
    }

    /// Whether an implementation under test plays node `node` (started by the runner, or on the air).
    public func isDevice(_ node: Int) -> Bool { dut?.node == node || airDevice?.node == node }

    /// Whether a device on the air plays node `node`.
    public func isAirDevice(_ node: Int) -> Bool { airDevice?.node == node }

    /// Preconditions whose failure is `not-applicable` rather than `error` (the profile's
    /// `runner.optional_preconditions`, with `--optional-precondition` added).
    public var optionalPreconditions: Set<Precondition> { profile.optionalPreconditions }

    /// `count` transmitters from the provider; without one the run is misconfigured (the case
    /// is an error), and a provider that cannot give them throws ``TransmitterUnavailable``.
    /// The nodes in `wifi` also reach each other over Wi-Fi peer-to-peer.
    public func transmitters(_ count: Int, wifi: Set<Int> = []) async throws -> [any TransmitterControl] {
        guard let transmitterProvider else { throw MissingTransmitterProvider() }
        return try await transmitterProvider.transmitters(count, wifi: wifi, for: self)
    }

    // issue 14: BFT/SIZE with an Android peer
    /// The nodes in `platforms` hold both links and announce their platform.
    public func transmitters(_ count: Int, platforms: [Int: DevicePlatform]) async throws -> [any TransmitterControl] {
        guard let transmitterProvider else { throw MissingTransmitterProvider() }
        return try await transmitterProvider.transmitters(count, platforms: platforms, for: self)
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

/// A case asked for our host on a node that has none.
public struct NodeWithoutHost: Error, CustomStringConvertible {
    public let node: Int
    public let reason: String
    public var description: String { "node \(node) has no host of ours: \(reason)" }
}
