import BlueproofAsync
import BlueproofHost
import BlueproofWire
import Logging

/// The sample's central on an ``LEHost`` (docs/corebluetooth-transfer-sample.md, "Discover
/// Bluetooth Peripherals and Connect to Them" and "When the Central Receives the Data"): it scans
/// for the transfer service UUID, lets the first advertiser through whose RSSI passes the
/// profile's ``RSSIGate``, connects, exchanges MTU, discovers the service and characteristic,
/// subscribes, reassembles notifications until "EOM", writes its reply back with Write Without
/// Response, then unsubscribes and disconnects. On any error it cleans up the same way
/// (unsubscribe when subscribed, disconnect when connected) before reporting.
///
/// The RSSI judged is what ``LEHost/discover(services:_:)`` reports, so whatever sits below the
/// host (a radio proxy rewriting advertising reports) decides what the gate sees.
///
/// Reversed (``Mode/send(_:)``), the central writes the payload in chunks of ATT_MTU - 3 with
/// Write Without Response, then "EOM", and waits for the peripheral's one-notification answer.
public struct TransferCentral: Sendable {
    public let host: LEHost
    public let profile: TransferProfile
    let clock: any Clock<Duration>
    /// Elapsed time for progress and summaries, on `clock` like every timeout.
    let timeline: Timeline
    let logger: Logger

    public init(host: LEHost, profile: TransferProfile = TransferProfile(),
                clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.host = host
        self.profile = profile
        self.clock = clock
        timeline = Timeline(clock)
        self.logger = logger ?? Logger(label: "blueproof.transfer.central")
    }

    public enum Mode: Hashable, Sendable {
        /// The sample's direction: receive the peripheral's payload, then write `reply` back.
        case receive(reply: TransferReply)
        /// Reversed: write this payload to the peripheral.
        case send([UInt8])
    }

    /// Runs one transfer. The stream ends with ``TransferEvent/done(_:)`` or
    /// ``TransferEvent/failed(_:)``; dropping it cancels the transfer (and cleans up).
    public func run(_ mode: Mode) -> AsyncStream<TransferEvent> {
        eventStream { emit throws(TransferError) in try await perform(mode, emit: emit) }
    }

    /// The transfer characteristic on one connection.
    struct Link: Sendable {
        let connection: LEConnection
        let gatt: GATTClient
        let characteristic: GATTRemoteCharacteristic
        let notifications: AsyncStream<GATTNotification>
        let mtu: Int
        let chunkSize: Int
    }

    private func perform(_ mode: Mode, emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        emit(.scanning(service: profile.service))
        let device = try await find(emit: emit)
        let connection: LEConnection
        do {
            connection = try await host.connect(to: device.address, type: device.addressType,
                                                timeout: profile.connectTimeout)
        } catch {
            throw .host(error)
        }
        emit(.connected(connection))
        if profile.faults.connectAgain { _ = try? await host.connect(to: device.address, type: device.addressType, timeout: .seconds(1)) }
        var subscribed: (GATTClient, GATTRemoteCharacteristic)?
        do throws(TransferError) {
            let link = try await prepare(connection)
            subscribed = (link.gatt, link.characteristic)
            emit(.ready(mtu: link.mtu, chunkSize: link.chunkSize))
            let summary = switch mode {
            case let .receive(reply): try await receive(on: link, reply: reply, emit: emit)
            case let .send(payload): try await send(payload, on: link, emit: emit)
            }
            await cleanUp(connection, subscribed: subscribed)
            return summary
        } catch {
            logger.debug("transfer failed: \(error); cleaning up \(connection)")
            if !profile.faults.skipCleanupOnError { await cleanUp(connection, subscribed: subscribed) }
            throw profile.faults.vagueFailure ? .gatt("the transfer failed") : error
        }
    }

    /// Scans until an advertiser of the service passes the gate.
    private func find(emit: @escaping Emit) async throws(TransferError) -> LEDiscoveredDevice {
        let devices: AsyncStream<LEDiscoveredDevice>
        do {
            devices = try await host.discover(services: [profile.service], LEScanParameters(filterDuplicates: profile.faults.filterDuplicateReports))
        } catch {
            throw .host(error)
        }
        let faults = profile.faults
        let profile = self.profile
        var unbounded = profile.gate
        unbounded.maximum = Int.max
        let gate = faults.acceptAboveMaximum ? unbounded : profile.gate
        let rejected = ByteCounter()
        let found = await first(of: devices, within: profile.scanTimeout, clock: clock) { device -> LEDiscoveredDevice? in
            guard device.connectable, profile.peer.map({ $0 == device.address }) ?? true else { return nil }
            var decision = gate.decide(rssi: device.rssi.map(Int.init))
            if faults.refuseAtGate, decision.rssi == gate.minimum { decision.passed = false }
            if faults.acceptUnavailableRSSI, decision.rssi == nil { decision.passed = true }
            if faults.gateAsUpperBound, let rssi = decision.rssi { decision.passed = rssi <= gate.minimum }
            emit(.gate(address: device.address, decision: decision))
            guard decision.passed || faults.ignoreRSSIGate else {
                rejected.set(rejected.current + 1)
                return nil
            }
            return device
        }
        guard let found else {
            throw .noPeripheralFound(service: profile.service, rejected: rejected.current, limit: profile.scanTimeout)
        }
        return found
    }

    /// MTU, discovery, subscription: everything before the first chunk.
    private func prepare(_ connection: LEConnection) async throws(TransferError) -> Link {
        let gatt = host.gattClient(for: connection)
        let (profile, host) = (self.profile, self.host)
        return try await guarded(connection, on: host, counter: ByteCounter(), idle: nil, clock: clock) {
            if profile.mtu > 23 { _ = try await gatt.exchangeMTU(profile.mtu) }
            let notifications = await host.notifications(on: connection)
            guard let service = try await gatt.discoverPrimaryService(uuid: profile.service).first else {
                throw TransferError.serviceNotFound("no service \(profile.service)")
            }
            guard let characteristic = try await gatt.discoverCharacteristics(of: service)
                .first(where: { $0.uuid == profile.characteristic }) else {
                throw TransferError.serviceNotFound("no characteristic \(profile.characteristic)")
            }
            guard characteristic.properties.isSuperset(of: [.notify, .writeWithoutResponse]) else {
                throw TransferError.serviceNotFound("\(profile.characteristic) does not notify and write without response")
            }
            try await gatt.subscribe(characteristic)
            let mtu = await host.attMTU(on: connection)
            return Link(connection: connection, gatt: gatt, characteristic: characteristic,
                        notifications: notifications, mtu: mtu, chunkSize: TransferChunker.chunkSize(forATTMTU: mtu))
        }
    }

    /// The sample's `cleanup()`: unsubscribe when subscribed, then disconnect, each bounded so
    /// a peer that stopped answering cannot hold the central.
    private func cleanUp(_ connection: LEConnection, subscribed: (GATTClient, GATTRemoteCharacteristic)?) async {
        guard connection.endReason == nil, !profile.faults.skipCleanup else { return }
        if let (gatt, characteristic) = subscribed {
            do {
                try await withTimeout(.seconds(2), clock: clock, what: "unsubscribing") {
                    try await gatt.unsubscribe(characteristic)
                }
            } catch {
                logger.debug("could not unsubscribe: \(error)")
            }
        }
        try? await host.disconnect(connection)
    }
}
