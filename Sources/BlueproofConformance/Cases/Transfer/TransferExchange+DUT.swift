import BlueproofAsync
import BlueproofHost
import BlueproofTransfer
import BlueproofWire

/// An exchange where the implementation under test (`--dut-exec`, docs/dut.md) plays one role
/// and our reference the other. The implementation is judged on what it did on the air (the
/// cases read the captures and our side's events) and on what it reports itself: a central's
/// `received.bin`. Its own side's result says so; nothing it did not show is assumed.
extension TransferExchange {
    /// How long a central under test has, once our peripheral is done, to clean up and exit.
    static let deviceCentralWindUp: Duration = .seconds(5)

    static func runWithDevice(_ dut: DUTNode, _ context: CaseContext, peripheralNode: Int, centralNode: Int,
                              _ peripheralMode: TransferPeripheral.Mode, _ centralMode: TransferCentral.Mode,
                              profile: TransferProfile) async -> TransferExchange {
        if dut.node == peripheralNode {
            return await withDevicePeripheral(dut, context, centralNode: centralNode, peripheralMode, centralMode, profile: profile)
        }
        return await withDeviceCentral(dut, context, peripheralNode: peripheralNode, peripheralMode, centralMode, profile: profile)
    }

    /// The implementation advertises and notifies `BLUEPROOF_PAYLOAD`; our central receives.
    private static func withDevicePeripheral(_ dut: DUTNode, _ context: CaseContext, centralNode: Int,
                                             _ peripheralMode: TransferPeripheral.Mode, _ centralMode: TransferCentral.Mode,
                                             profile: TransferProfile) async -> TransferExchange {
        guard case let .send(payload) = peripheralMode, case .receive = centralMode else {
            return unplayable("the implementation under test plays the sample's direction only (the peripheral notifies)")
        }
        guard let centralHost = try? context.host(centralNode) else { return unplayable("node \(centralNode) has no host of ours") }
        let launch: DUTLaunch
        do {
            launch = try await dut.launch(.peripheral, payload: payload)
            try await launch.waitForAdvertising(within: dut.exec.startTimeout, clock: context.clock)
        } catch {
            dut.noteStartFailure("\(error)")
            return unplayable("the implementation did not come up as the peripheral: \(error)")
        }
        let (centralOutcome, centralEvents) = await runCentral(context, node: centralNode, host: centralHost, centralMode,
                                                               profile: profile)
        await launch.stop(grace: dut.exec.grace)
        return TransferExchange(peripheral: .failure(.gatt("played by the implementation under test: judged on the air")),
                                central: centralOutcome, peripheralEvents: [], centralEvents: centralEvents, dutLaunch: launch,
                                deviceRole: .peripheral)
    }

    /// Our peripheral advertises and notifies; the implementation scans, gates, connects,
    /// reassembles, writes back and reports the message in `received.bin`.
    private static func withDeviceCentral(_ dut: DUTNode, _ context: CaseContext, peripheralNode: Int,
                                          _ peripheralMode: TransferPeripheral.Mode, _ centralMode: TransferCentral.Mode,
                                          profile: TransferProfile) async -> TransferExchange {
        guard case .send = peripheralMode, case .receive = centralMode else {
            return unplayable("the implementation under test plays the sample's direction only (the central receives)")
        }
        guard let peripheralHost = try? context.host(peripheralNode) else { return unplayable("node \(peripheralNode) has no host of ours") }
        // The implementation scans first (reports reach it once we advertise), so its start-up
        // does not eat into the time our peripheral waits for a central.
        let launch: DUTLaunch
        do {
            launch = try await dut.launch(.central)
            try await launch.waitForScanning(within: dut.exec.startTimeout, clock: context.clock)
        } catch {
            dut.noteStartFailure("\(error)")
            return unplayable("the implementation did not come up as the central: \(error)")
        }
        let (peripheralTask, _, _) = startPeripheral(context, node: peripheralNode, host: peripheralHost, peripheralMode,
                                                     profile: profile)
        let (peripheralOutcome, peripheralEvents) = await peripheralTask.value
        if case .success = peripheralOutcome {
            _ = await launch.finish(within: deviceCentralWindUp, grace: dut.exec.grace)
        } else {
            await launch.stop(grace: dut.exec.grace)
        }
        let central = centralResult(launch, peripheral: peripheralOutcome, events: peripheralEvents)
        context.log.note("central (node \(dut.node), the implementation under test): \(text(central))")
        return TransferExchange(peripheral: peripheralOutcome, central: central, peripheralEvents: peripheralEvents,
                                centralEvents: [], dutLaunch: launch, deviceRole: .central)
    }

    /// What a central under test reported: the message it wrote to `received.bin`, with the
    /// ATT_MTU and chunks our peripheral used; a failure when it wrote none.
    private static func centralResult(_ launch: DUTLaunch, peripheral: Result<TransferSummary, TransferError>,
                                      events: [TransferEvent]) -> Result<TransferSummary, TransferError> {
        guard let received = launch.received() else {
            return .failure(.gatt("the implementation wrote no \(DUTEnvironment.receivedFile) (\(launch.end)); our peripheral: \(text(peripheral))"))
        }
        let ready = events.lazy.compactMap { event -> (Int, Int)? in
            if case let .ready(mtu, chunkSize) = event { (mtu, chunkSize) } else { nil }
        }.first
        let sent = try? peripheral.get()
        return .success(TransferSummary(
            role: .central, direction: .peripheralToCentral, sent: false, bytes: received.count,
            mtu: ready?.0 ?? 0, chunkSize: ready?.1 ?? 0, chunks: sent?.chunks ?? 0, largestChunk: sent?.largestChunk ?? 0,
            elapsed: .zero, sha256: SHA256.hex(received), payload: received, reply: nil, peer: sent?.peer ?? BDAddress(littleEndian: [0, 0, 0, 0, 0, 0])))
    }

    /// How long our peripheral waits for a central on the air: a person may have to start it.
    static let airCentralWait: Duration = .seconds(40)

    /// A device on the air plays one role (docs/dut.md, "A device on the air"); our side is an
    /// instrument: our central takes the device whatever its RSSI (the gate is not under
    /// judgement, and a real RSSI depends on where the device lies) and only that device.
    static func runWithAirDevice(_ air: AirDevice, _ context: CaseContext, peripheralNode: Int, centralNode: Int,
                                 _ peripheralMode: TransferPeripheral.Mode, _ centralMode: TransferCentral.Mode,
                                 profile: TransferProfile) async -> TransferExchange {
        if air.node == peripheralNode {
            guard let host = try? context.host(centralNode) else { return unplayable("node \(centralNode) has no host of ours") }
            var instrument = profile
            instrument.peer = air.address
            instrument.gate = RSSIGate(minimum: -127, allowUnavailable: true)
            instrument.scanTimeout = max(profile.scanTimeout, .seconds(30))
            let (outcome, events) = await runCentral(context, node: centralNode, host: host, centralMode, profile: instrument)
            return TransferExchange(peripheral: .failure(.gatt("a device on the air: judged on what our central received")),
                                    central: outcome, peripheralEvents: [], centralEvents: events, deviceRole: .peripheral)
        }
        guard let host = try? context.host(peripheralNode) else { return unplayable("node \(peripheralNode) has no host of ours") }
        var waiting = profile
        waiting.acceptTimeout = max(profile.acceptTimeout, airCentralWait)
        let (task, _, _) = startPeripheral(context, node: peripheralNode, host: host, peripheralMode, profile: waiting)
        let (outcome, events) = await task.value
        return TransferExchange(peripheral: outcome, central: .failure(.gatt("a device on the air reports nothing of its own")),
                                peripheralEvents: events, centralEvents: [], deviceRole: .central)
    }

    /// An exchange that could not be played: both sides failed with `reason`.
    private static func unplayable(_ reason: String) -> TransferExchange {
        let failure = Result<TransferSummary, TransferError>.failure(.gatt(reason))
        return TransferExchange(peripheral: failure, central: failure, peripheralEvents: [], centralEvents: [])
    }
}
