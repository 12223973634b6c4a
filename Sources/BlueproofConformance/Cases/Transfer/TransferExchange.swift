import BlueproofAsync
import BlueproofHost
import BlueproofTransfer
import BlueproofWire

/// One run of the sample's transfer between two nodes of a case, with every event each role
/// reported: node `peripheralNode` serves and advertises, node `centralNode` scans, gates and
/// connects (docs/corebluetooth-transfer-sample.md).
struct TransferExchange: Sendable {
    var peripheral: Result<TransferSummary, TransferError>
    var central: Result<TransferSummary, TransferError>
    var peripheralEvents: [TransferEvent]
    var centralEvents: [TransferEvent]

    var gateDecisions: [RSSIGate.Decision] {
        centralEvents.compactMap { if case let .gate(_, decision) = $0 { decision } else { nil } }
    }

    /// "done: N bytes" or the error, for reasons.
    var centralText: String { Self.text(central) }
    var peripheralText: String { Self.text(peripheral) }

    static func text(_ result: Result<TransferSummary, TransferError>) -> String {
        switch result {
        case let .success(summary): "done, \(summary.bytes) bytes"
        case let .failure(error): "\(error)"
        }
    }

    var centralConnected: Bool { centralEvents.contains { if case .connected = $0 { true } else { false } } }

    /// The transfer profile a case runs with: UUIDs and the RSSI gate from the conformance
    /// profile, short timeouts so a broken variant fails in seconds, the variant's faults.
    static func transferProfile(_ context: CaseContext, mtu: Int = 517, scanTimeout: Duration = .seconds(5))
        throws -> TransferProfile {
        let profile = context.profile
        var transfer = TransferProfile(
            gate: RSSIGate(minimum: try profile.int("transfer.rssi_gate_dbm"),
                           allowUnavailable: try profile.bool("transfer.rssi_allow_unavailable")),
            scanTimeout: scanTimeout, connectTimeout: .seconds(3), acceptTimeout: .seconds(15),
            idleTimeout: .seconds(4), mtu: mtu)
        if let service = BluetoothUUID(try profile.string("transfer.service_uuid")) { transfer.service = service }
        if let characteristic = BluetoothUUID(try profile.string("transfer.characteristic_uuid")) {
            transfer.characteristic = characteristic
        }
        transfer.faults = context.transferFaults
        return transfer
    }

    /// Runs both roles at once; the central starts once the peripheral advertises (btvirt
    /// reports an advertiser only while it advertises). When the central fails, the peripheral
    /// is stopped rather than left waiting for a central.
    static func run(_ context: CaseContext, peripheralNode: Int = 0, centralNode: Int = 1,
                    _ peripheralMode: TransferPeripheral.Mode, _ centralMode: TransferCentral.Mode,
                    profile: TransferProfile) async -> TransferExchange {
        let log = context.log
        let advertising = OneShot<Void>()
        let peripheralStream = TransferPeripheral(host: context.hosts[peripheralNode], profile: profile, clock: context.clock)
            .run(peripheralMode)
        let peripheralTask = Task { () -> (Result<TransferSummary, TransferError>, [TransferEvent]) in
            var events: [TransferEvent] = []
            for await event in peripheralStream {
                events.append(event)
                log.note("peripheral (node \(peripheralNode)): \(Self.describe(event))")
                if case .advertising = event { advertising.resolve(()) }
                if let outcome = event.outcome {
                    advertising.resolve(())
                    return (outcome, events)
                }
            }
            advertising.resolve(())
            return (.failure(.gatt("stopped: the central ended first")), events)
        }
        _ = await advertising.wait()
        var centralEvents: [TransferEvent] = []
        var centralOutcome: Result<TransferSummary, TransferError> = .failure(.gatt("no outcome"))
        let central = TransferCentral(host: context.hosts[centralNode], profile: profile, clock: context.clock)
        for await event in central.run(centralMode) {
            centralEvents.append(event)
            log.note("central (node \(centralNode)): \(Self.describe(event))")
            if let outcome = event.outcome {
                centralOutcome = outcome
                break
            }
        }
        if case .failure = centralOutcome { peripheralTask.cancel() }
        let (peripheralOutcome, peripheralEvents) = await peripheralTask.value
        return TransferExchange(peripheral: peripheralOutcome, central: centralOutcome,
                                peripheralEvents: peripheralEvents, centralEvents: centralEvents)
    }

    private static func describe(_ event: TransferEvent) -> String {
        switch event {
        case let .progress(progress): "progress \(progress.bytes) bytes"
        case let .done(summary): "done: \(summary.bytes) bytes, ATT_MTU \(summary.mtu), chunk \(summary.chunkSize), \(summary.chunks) chunks"
        case let .failed(error): "failed: \(error)"
        default: "\(event)"
        }
    }

    /// A payload of `count` bytes, byte i = i % 251 (as `transfer demo --size`).
    static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }
}
