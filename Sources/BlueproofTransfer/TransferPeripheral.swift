import BlueproofAsync
import BlueproofHost
import BlueproofWire
import Logging

/// The sample's peripheral on an ``LEHost`` (docs/corebluetooth-transfer-sample.md, "When the
/// Peripheral Receives a Connection, Send the Data"): it serves the transfer service with one
/// characteristic (notify + write without response), advertises the service UUID, takes the
/// first central that connects, and once that central subscribes sends the payload as
/// notifications of ATT_MTU - 3 bytes followed by "EOM" (``TransferChunker``).
///
/// Flow control: ``LEHost/notify(_:of:to:)`` waits while the connection's outbound queue is
/// full and goes on as the controller returns buffers, which is what the sample does when
/// Core Bluetooth says it is "ready to update subscribers" again.
///
/// Reversed (``Mode/receive(reply:)``), the peripheral reassembles the central's writes until
/// "EOM" and answers with one notification (``TransferReply``).
public struct TransferPeripheral: Sendable {
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
        self.logger = logger ?? Logger(label: "blueproof.transfer.peripheral")
    }

    public enum Mode: Hashable, Sendable {
        /// The sample's direction: notify this payload.
        case send([UInt8])
        /// Reversed: receive the central's payload, then notify `reply`.
        case receive(reply: TransferReply)
    }

    /// Runs one transfer. The stream ends with ``TransferEvent/done(_:)`` or
    /// ``TransferEvent/failed(_:)``; dropping it cancels the transfer.
    public func run(_ mode: Mode) -> AsyncStream<TransferEvent> {
        eventStream { emit throws(TransferError) in try await perform(mode, emit: emit) }
    }

    private func perform(_ mode: Mode, emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        let valueHandle = try await serve()
        let events = await host.gattServerEvents()
        let incoming = await host.incomingConnections()
        try await advertise()
        emit(.advertising(service: service))
        guard let connection = await first(of: incoming, within: profile.acceptTimeout, clock: clock, { $0 }) else {
            if !profile.faults.keepAdvertising { try? await host.stopAdvertising() }
            throw .noCentral(limit: profile.acceptTimeout)
        }
        emit(.connected(connection))
        do throws(TransferError) {
            try await waitForSubscription(events, connection: connection, valueHandle: valueHandle)
            let mtu = await host.attMTU(on: connection)
            let chunkSize = TransferChunker.chunkSize(forATTMTU: mtu)
            emit(.ready(mtu: mtu, chunkSize: chunkSize))
            let link = Link(connection: connection, valueHandle: valueHandle, mtu: mtu, chunkSize: chunkSize)
            switch mode {
            case let .send(payload): return try await send(payload, on: link, events: events, emit: emit)
            case let .receive(reply): return try await receive(on: link, reply: reply, events: events, emit: emit)
            }
        } catch {
            // Cleanup: a transfer that failed leaves no connection behind.
            logger.debug("transfer failed: \(error); disconnecting \(connection)")
            try? await host.disconnect(connection)
            throw error
        }
    }

    /// One central's connection, and what the transfer uses on it.
    struct Link: Sendable {
        let connection: LEConnection
        let valueHandle: UInt16
        let mtu: Int
        let chunkSize: Int
    }

    /// The service this peripheral serves and advertises: the profile's (a broken variant's
    /// own when ``TransferFaults/foreignServiceUUID`` is set).
    var service: BluetoothUUID { profile.faults.foreignServiceUUID ? Self.foreignService : profile.service }

    /// Not the sample's: what a peripheral with the wrong built-in UUID serves.
    static let foreignService = BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A962")!

    /// The sample's `setupPeripheral()`: one primary service, one characteristic with
    /// properties notify + write without response and permissions readable + writeable.
    private func serve() async throws(TransferError) -> UInt16 {
        let faults = profile.faults
        let properties = GATTCharacteristicProperties([.notify, .writeWithoutResponse]).union(faults.extraProperties).subtracting(faults.missingProperties)
        let permissions: GATTAttributePermissions = faults.unreadableValue ? [.writable] : [.readable, .writable]
        let definition = GATTServiceDefinition(uuid: service, isPrimary: !faults.secondaryService, characteristics: [
            GATTCharacteristicDefinition(uuid: profile.characteristic, properties: properties, permissions: permissions),
        ])
        do {
            try await host.serve([definition], deviceName: profile.localName)
        } catch {
            throw .database("\(error)")
        }
        guard let handle = await host.gattDatabase?.characteristic(uuid: profile.characteristic)?.valueHandle else {
            throw .database("the characteristic \(profile.characteristic) has no value handle")
        }
        return handle
    }

    /// All it advertises is the service UUID (and its name in the scan response).
    private func advertise() async throws(TransferError) {
        do {
            var data = AdvertisingData([.flags(.generalDiscoverableLEOnly)])
            if !profile.faults.unadvertisedService { data.append(contentsOf: AdvertisingDataStructure.serviceUUIDs([service], complete: true)) }
            let scanResponse = AdvertisingData([.localName(profile.localName)])
            try await host.startAdvertising(LEAdvertisingParameters(
                data: try data.encodedLegacy(), scanResponse: try scanResponse.encodedLegacy()))
        } catch let error as LEHostError {
            throw .host(error)
        } catch {
            throw .database("advertising data: \(error)")
        }
    }

    private func waitForSubscription(_ events: AsyncStream<GATTServerEvent>, connection: LEConnection,
                                     valueHandle: UInt16) async throws(TransferError) {
        let limit = profile.acceptTimeout
        let subscribed = try await guarded(connection, on: host, counter: ByteCounter(), idle: nil, clock: clock) {
            await first(of: events, within: limit, clock: clock) { event -> Bool? in
                guard case let .subscriptionChanged(from, characteristic, true, _) = event,
                      from == connection, characteristic == valueHandle else { return nil }
                return true
            } ?? false
        }
        guard subscribed else { throw .noCentral(limit: limit) }
    }
}
