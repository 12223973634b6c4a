import BlueproofAsync
import BlueproofWire
import Logging

/// Blueproof's LE host on one controller: GAP (advertising, scanning, connections), ACL flow
/// control and recombination, and the L2CAP channels above them.
///
/// One actor holds every connection's state, because the controller's ACL buffers are shared by
/// all connections (Vol 4, Part E §4.1.1). Inbound events and data arrive in one ordered stream
/// from ``HCIController/inbound()``; outbound data waits for buffers in ``ACLFlow``.
public actor LEHost {
    public nonisolated let controller: HCIController
    let clock: any Clock<Duration>
    /// Time on `clock` since the host was made: the ATT bearers' timeline.
    let timeline: Timeline
    let logger: Logger

    /// The controller's public address, read at start.
    public private(set) var address: BDAddress = .zero
    /// The advertising, scanning and initiating commands in use, chosen at start.
    public private(set) var commandSet: LECommandSet = .legacy
    /// ACL buffers as the controller reported them at start.
    public private(set) var aclBuffers: (size: Int, count: Int) = (0, 0)
    /// Protocol breaches by the controller or a peer, in order (also logged).
    public private(set) var violations: [String] = []

    var acl: ACLScheduler?
    var recombiner = L2CAPRecombiner()
    var links: [UInt16: LELink] = [:]
    var pendingConnection: PendingConnection?
    var incoming: [UInt64: AsyncStream<LEConnection>.Continuation] = [:]
    var scanners: [UInt64: AsyncStream<LEAdvertisement>.Continuation] = [:]
    var nextSubscriber: UInt64 = 0
    var gattServer: GATTServer?
    var serverSubscribers: [UInt64: AsyncStream<GATTServerEvent>.Continuation] = [:]
    var channelServers: [L2CAPSPSM: ChannelServer] = [:]
    /// Whether legacy advertising is enabled (a connection as peripheral ends it, §7.8.9).
    var advertising = false
    /// A central connected while advertising: connectable advertising stops then (Vol 6,
    /// Part B §4.4.2), but the host does not rely on it: the next stop asks the controller.
    var advertisingMayRun = false
    /// What ``startAdvertising(_:)`` last enabled, while it should run: restored after this
    /// host connects as central (``connect(to:type:timeout:interval:supervisionTimeout:)``).
    var advertisingParameters: LEAdvertisingParameters?
    // issue 15: user tracking by a passive scanner
    /// The random device address this host advertises, scans and initiates from (nil: its
    /// public address): ``useRandomAddress(_:)``.
    public internal(set) var randomAddress: BDAddress?
    /// The own address type every advertising, scanning and initiating command names.
    var ownAddressType: LEOwnAddressType { randomAddress == nil ? .publicDevice : .randomDevice }
    /// What the running scan was enabled with, to enable it again after a new random address.
    var scanParameters: LEScanParameters?
    private var reader: Task<Void, Never>?

    /// The command set to use when the controller supports it; nil picks the best it has.
    let preferredCommandSet: LECommandSet?

    public init(controller: HCIController, commandSet: LECommandSet? = nil,
                clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.controller = controller
        preferredCommandSet = commandSet
        self.clock = clock
        timeline = Timeline(clock)
        var logger = logger ?? Logger(label: "blueproof.host")
        logger[metadataKey: "controller"] = "\(controller.endpoint)"
        self.logger = logger
    }

    /// Resets the controller, reads its address, ACL buffers and supported commands, picks the
    /// command set (``commandSet``), sets the event masks, and starts handling what it sends.
    public func start() async throws(LEHostError) {
        let inbound = await controller.inbound()
        await controller.start()
        do {
            try await controller.send(HCIReset())
            // Mandatory since Bluetooth 1.2; without it, the legacy commands every LE controller has.
            let mask = try? await controller.send(HCIReadLocalSupportedCommands()).supportedCommands
            let best = mask.map(LECommandSet.best(for:)) ?? .legacy
            commandSet = preferredCommandSet == .legacy ? .legacy : best
            var leEvents = HCILEEventMask.default
            if commandSet == .extended { leEvents.formUnion([.extendedAdvertisingReport, .enhancedConnectionComplete]) }
            try await controller.send(HCISetEventMask(eventMask: HCIEventMask.default.union(.leMeta)))
            try await controller.send(HCILESetEventMask(leEventMask: leEvents))
            address = try await controller.send(HCIReadBDADDR()).bdAddr
            aclBuffers = try await readBufferSize()
        } catch {
            throw .command(error)
        }
        let acl = ACLScheduler(flow: ACLFlow(bufferSize: aclBuffers.size, bufferCount: aclBuffers.count),
                               transport: controller.transport, logger: logger)
        _ = acl.tapTransport()
        self.acl = acl
        logger.debug("started: \(address), ACL buffers \(aclBuffers.size) x \(aclBuffers.count), \(commandSet) commands")
        reader = Task { await self.read(inbound) }
    }

    /// Handles what the controller sends until it ends. Isolated to the host, so each item is
    /// handled where it resumes, without a hop per packet (the ACL flow's Number Of Completed
    /// Packets is on the throughput's critical path). ``close()`` cancels it.
    private func read(_ inbound: AsyncStream<HCIInbound>) async {
        for await item in inbound { receive(item) }
        controllerEnded()
    }

    /// LE buffers from LE Read Buffer Size, or the shared BR/EDR buffers from Read Buffer Size
    /// when the LE values are 0 (Vol 4, Part E §7.8.2).
    private func readBufferSize() async throws(HCICommandError) -> (size: Int, count: Int) {
        let le = try await controller.send(HCILEReadBufferSize())
        if le.leACLDataPacketLength > 0, le.totalNumLEACLDataPackets > 0 {
            return (Int(le.leACLDataPacketLength), Int(le.totalNumLEACLDataPackets))
        }
        let shared = try await controller.send(HCIReadBufferSize())
        return (Int(shared.aclDataPacketLength), Int(shared.totalNumACLDataPackets))
    }

    /// Stops handling the controller and closes its link. Call it when done with the host: its
    /// reader keeps it alive until then, or until the controller goes away.
    public func close() async {
        reader?.cancel()
        await controller.close()
    }

    /// Sends a command; its failure is an ``LEHostError/command(_:)``.
    @discardableResult
    func run<C: HCICommand>(_ command: C) async throws(LEHostError) -> C.ReturnParameters {
        do {
            return try await controller.send(command)
        } catch {
            throw .command(error)
        }
    }

    /// Records a breach of the rules by the controller or a peer; the host goes on.
    func violation(_ text: String) {
        violations.append(text)
        logger.warning("\(text)")
    }

    func subscriberID() -> UInt64 {
        nextSubscriber += 1
        return nextSubscriber
    }

    // MARK: Inbound

    private func receive(_ item: HCIInbound) {
        switch item {
        case let .event(event): receive(event)
        case let .acl(packet): receive(packet)
        }
    }

    private func receive(_ event: HCIEvent) {
        switch event {
        case let .le(.connectionComplete(complete)):
            connectionCompleted(status: complete.status, connection: LEConnection(
                handle: complete.connectionHandle, role: complete.role, peerAddressType: complete.peerAddressType,
                peerAddress: complete.peerAddress, interval: complete.connectionInterval,
                supervisionTimeout: complete.supervisionTimeout))
        case let .le(.enhancedConnectionComplete(complete)):
            connectionCompleted(status: complete.status, connection: LEConnection(
                handle: complete.connectionHandle, role: complete.role, peerAddressType: complete.peerAddressType,
                peerAddress: complete.peerAddress, interval: complete.connectionInterval,
                supervisionTimeout: complete.supervisionTimeout))
        case let .disconnectionComplete(complete) where complete.status == .success:
            disconnected(handle: complete.connectionHandle, reason: complete.reason)
        case let .numberOfCompletedPackets(completed):
            for entry in completed.handles {
                packetsCompleted(Int(entry.numCompletedPackets), on: entry.connectionHandle)
            }
        case let .le(.enhancedConnectionCompleteV2(complete)):
            let base = complete.base
            connectionCompleted(status: base.status, connection: LEConnection(
                handle: base.connectionHandle, role: base.role, peerAddressType: base.peerAddressType,
                peerAddress: base.peerAddress, interval: base.connectionInterval,
                supervisionTimeout: base.supervisionTimeout))
        case let .le(.advertisingReport(reports)):
            for report in reports.reports { advertisementSeen(LEAdvertisement(report: report)) }
        case let .le(.extendedAdvertisingReport(reports)):
            for report in reports.reports { advertisementSeen(LEAdvertisement(report: report)) }
        case let .le(.connectionUpdateComplete(update)) where update.status == .success:
            links[update.connectionHandle]?.interval = update.connectionInterval
        case .hardwareError, .dataBufferOverflow:
            violation("controller reported \(event.name)")
        default:
            break
        }
    }

    private func controllerEnded() {
        let reason = controller.endReason ?? "the link ended"
        logger.debug("controller gone: \(reason)")
        // No Disconnection Complete will come; the connections end as a hardware failure would.
        for handle in Array(links.keys) { disconnected(handle: handle, reason: .hardwareFailure) }
        pendingConnection?.outcome.resolve(.failure(.command(.controllerGone(reason: reason))))
        pendingConnection = nil
        for continuation in incoming.values { continuation.finish() }
        for continuation in scanners.values { continuation.finish() }
        incoming.removeAll()
        scanners.removeAll()
    }
}
