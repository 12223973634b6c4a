import BlueproofAsync
import BlueproofHost
import BlueproofTransmitterLinks
import BlueproofWire
import Synchronization

/// A tracker's radio (breaking-bridgefy-2021, "Privacy"; docs/security.md "Tracking by a passive
/// observer"): a plain host on one of the runner's own controllers that scans actively (so it
/// gets scan responses) and never connects. It hears every advertiser; only those listing the
/// transmitter service (in advertising data or scan response) are taken for the subject.
struct PassiveScanner: Sendable {
    let host: LEHost
    let node: Int
    let service: BluetoothUUID

    /// The scanner on the case's node `node`; nil when that node has no host of ours (the case
    /// runs in process, without controllers).
    init?(_ stage: TransmitterStage, node: Int, service: BluetoothUUID = BLELinkProfile.transmitterService) {
        guard let host = try? stage.context.host(node) else { return nil }
        self.host = host
        self.node = node
        self.service = service
    }

    /// Scans from now until one advertiser of the service has shown its advertising data and a
    /// scan response and `accept` takes what it showed (its latest of each); returns that view.
    /// With `keepLast`, running out of time returns the last view seen instead of failing.
    func view(_ what: String, within timeout: Duration, clock: any Clock<Duration>, keepLast: Bool = false,
              accept: @escaping @Sendable (Set<ObservedIdentifier>) -> Bool = { _ in true }) async throws -> Set<ObservedIdentifier> {
        let reports: AsyncStream<LEAdvertisement>
        do {
            reports = try await host.scan(LEScanParameters(active: true))
        } catch {
            throw StageFailure(.tester, "the scanner on node \(node) could not scan: \(error)")
        }
        let service = service
        let last = LastView()
        let accepted = try? await withTimeout(timeout, clock: clock, what: what) { () -> Set<ObservedIdentifier>? in
            var advertisers = AdvertiserViews(service: service)
            for await report in reports {
                guard let view = advertisers.add(report) else { continue }
                last.set(view)
                if accept(view) { return view }
            }
            return nil
        }
        if let accepted = accepted ?? nil { return accepted }
        if keepLast, let view = last.get() { return view }
        throw StageFailure(.connection, "the scanner on node \(node) heard no advertiser of the transmitter service (advertising data and scan response) \(what) within \(timeout)")
    }
}

/// The latest advertising data and scan response of each advertiser, sans I/O.
struct AdvertiserViews: Sendable {
    private struct Advertiser: Sendable {
        var advertising: [UInt8]?
        var scanResponse: [UInt8]?
        var listsService = false
    }

    let service: BluetoothUUID
    private var advertisers: [BDAddress: Advertiser] = [:]
    /// Advertisers kept at most: reports from further addresses (anyone on the air can send
    /// them, from as many addresses as it likes) are dropped, so memory stays bounded.
    static let limit = 1_024

    init(service: BluetoothUUID) { self.service = service }

    /// Takes one report; returns what its sender shows once it listed the service and both its
    /// advertising data and a scan response were heard: the address and each AD structure but
    /// the shared ones (``CaptureEvidence/identifiers(address:data:)``).
    mutating func add(_ report: LEAdvertisement) -> Set<ObservedIdentifier>? {
        guard advertisers[report.address] != nil || advertisers.count < Self.limit else { return nil }
        var advertiser = advertisers[report.address] ?? Advertiser()
        if report.eventType == .scanRsp { advertiser.scanResponse = report.data } else { advertiser.advertising = report.data }
        advertiser.listsService = advertiser.listsService || BLEAnnouncement.advertises(service, in: report.data)
        advertisers[report.address] = advertiser
        guard advertiser.listsService, let advertising = advertiser.advertising, let scanResponse = advertiser.scanResponse else { return nil }
        return CaptureEvidence.identifiers(address: report.address, data: advertising)
            .union(CaptureEvidence.identifiers(address: report.address, data: scanResponse))
    }
}

/// The last view the scanning task produced, read after it timed out.
private final class LastView: Sendable {
    private let view = Mutex<Set<ObservedIdentifier>?>(nil)
    func set(_ value: Set<ObservedIdentifier>) { view.withLock { $0 = value } }
    func get() -> Set<ObservedIdentifier>? { view.withLock { $0 } }
}
