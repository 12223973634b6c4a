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
    /// The launch of the implementation under test that played one role, when one did
    /// (TransferExchange+DUT.swift); its side's result is then built from what it reported.
    var dutLaunch: DUTLaunch? = nil
    /// The role an implementation under test played (started by the runner or on the air).
    var deviceRole: DUTRole? = nil

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

    /// The ATT_MTU and chunk size once the central subscribed, as the central announced it
    /// (or, for a central under test, as our peripheral saw it); nil when it never was.
    var centralReady: (mtu: Int, chunkSize: Int)? {
        for case let .ready(mtu, chunkSize) in centralEvents { return (mtu, chunkSize) }
        guard deviceRole == .central else { return nil }
        for case let .ready(mtu, chunkSize) in peripheralEvents { return (mtu, chunkSize) }
        return nil
    }

    /// How `received` differs from `sent`, in words; nil when they are equal byte for byte.
    static func difference(sent: [UInt8], received: [UInt8]) -> String? {
        guard sent != received else { return nil }
        let common = zip(sent, received).prefix { $0 == $1 }.count
        if received.count != sent.count {
            return "\(sent.count) bytes were sent and \(received.count) received"
                + (common == min(sent.count, received.count) ? "" : ", the first difference at byte \(common)")
        }
        return "\(sent.count) bytes were sent and received, but they differ from byte \(common) on"
    }

    /// The transfer profile a case runs the roles with: their own built-in service and
    /// characteristic UUIDs and RSSI gate, as they ship (the cases compare what the roles do
    /// on the air with the conformance profile's numbers, so a wrong built-in value fails);
    /// only what is not under judgement is set here: the ATT_MTU the central asks for (the
    /// stimulus), short timeouts so a broken variant fails in seconds, the variant's faults.
    static func transferProfile(_ context: CaseContext, mtu: Int = 517, scanTimeout: Duration = .seconds(5))
        -> TransferProfile {
        var transfer = TransferProfile()
        transfer.scanTimeout = scanTimeout
        transfer.connectTimeout = .seconds(3)
        transfer.acceptTimeout = .seconds(15)
        transfer.idleTimeout = .seconds(4)
        transfer.mtu = mtu
        transfer.faults = context.transferFaults
        return transfer
    }

    /// How long a peripheral may take to report its outcome once the central failed.
    static let peripheralGrace: Duration = .seconds(2)

    /// Runs both roles at once; the central starts once the peripheral advertises (btvirt
    /// reports an advertiser only while it advertises). When the central fails, the peripheral
    /// is stopped rather than left waiting for a central.
    /// `peripheralProfile`: our peripheral's, when it is not `profile` (a longer idle timeout);
    /// `grace`: how long our peripheral may take to report once the central failed.
    static func run(_ context: CaseContext, peripheralNode: Int = 0, centralNode: Int = 1,
                    _ peripheralMode: TransferPeripheral.Mode, _ centralMode: TransferCentral.Mode,
                    profile: TransferProfile, peripheralProfile: TransferProfile? = nil,
                    grace: Duration = peripheralGrace) async -> TransferExchange {
        if let air = context.airDevice, air.node == peripheralNode || air.node == centralNode {
            return await runWithAirDevice(air, context, peripheralNode: peripheralNode, centralNode: centralNode,
                                          peripheralMode, centralMode, profile: profile)
        }
        if let dut = context.dut, dut.node == peripheralNode || dut.node == centralNode {
            return await runWithDevice(dut, context, peripheralNode: peripheralNode, centralNode: centralNode,
                                       peripheralMode, centralMode, profile: profile)
        }
        guard let peripheralHost = try? context.host(peripheralNode), let centralHost = try? context.host(centralNode) else {
            let failure = Result<TransferSummary, TransferError>.failure(.gatt("the case has no host of ours on nodes \(peripheralNode) and \(centralNode)"))
            return TransferExchange(peripheral: failure, central: failure, peripheralEvents: [], centralEvents: [])
        }
        let (peripheralTask, advertising, ended) = startPeripheral(context, node: peripheralNode, host: peripheralHost,
                                                                   peripheralMode, profile: peripheralProfile ?? profile)
        _ = await advertising.wait()
        let (centralOutcome, centralEvents) = await runCentral(context, node: centralNode, host: centralHost, centralMode,
                                                               profile: profile)
        if case .failure = centralOutcome {
            // A peripheral that failed first (and made the central fail) reports why; one still
            // waiting for a central is stopped once it has had the moment to.
            _ = try? await withTimeout(grace, clock: context.clock, what: "the peripheral's outcome") {
                await ended.wait()
            }
            peripheralTask.cancel()
        }
        let (peripheralOutcome, peripheralEvents) = await peripheralTask.value
        return TransferExchange(peripheral: peripheralOutcome, central: centralOutcome,
                                peripheralEvents: peripheralEvents, centralEvents: centralEvents)
    }

    typealias RoleRun = (Result<TransferSummary, TransferError>, [TransferEvent])

    /// Our peripheral on `host`, running until its outcome; `advertising` resolves once it
    /// advertises (or ended without), `ended` once it reported its outcome.
    static func startPeripheral(_ context: CaseContext, node: Int, host: LEHost, _ mode: TransferPeripheral.Mode,
                                profile: TransferProfile) -> (Task<RoleRun, Never>, OneShot<Void>, OneShot<Void>) {
        let log = context.log
        let advertising = OneShot<Void>()
        let ended = OneShot<Void>()
        let stream = TransferPeripheral(host: host, profile: profile, clock: context.clock).run(mode)
        let task = Task { () -> RoleRun in
            var events: [TransferEvent] = []
            for await event in stream {
                events.append(event)
                log.note("peripheral (node \(node)): \(Self.describe(event))")
                if case .advertising = event { advertising.resolve(()) }
                if let outcome = event.outcome {
                    advertising.resolve(())
                    ended.resolve(())
                    return (outcome, events)
                }
            }
            advertising.resolve(())
            return (.failure(.gatt("stopped: the central ended first")), events)
        }
        return (task, advertising, ended)
    }

    /// Our central on `host`, until its outcome.
    static func runCentral(_ context: CaseContext, node: Int, host: LEHost, _ mode: TransferCentral.Mode,
                           profile: TransferProfile) async -> RoleRun {
        var events: [TransferEvent] = []
        let central = TransferCentral(host: host, profile: profile, clock: context.clock)
        for await event in central.run(mode) {
            events.append(event)
            context.log.note("central (node \(node)): \(Self.describe(event))")
            if let outcome = event.outcome { return (outcome, events) }
        }
        return (.failure(.gatt("no outcome")), events)
    }

    static func describe(_ event: TransferEvent) -> String {
        switch event {
        case let .progress(progress): "progress \(progress.bytes) bytes"
        case let .done(summary): "done: \(summary.bytes) bytes, ATT_MTU \(summary.mtu), chunk \(summary.chunkSize), \(summary.chunks) chunks"
        case let .failed(error): "failed: \(error)"
        case let .reply(bytes): "reply: \(bytes.count) bytes"
        default: "\(event)"
        }
    }

    /// A payload of `count` bytes, byte i = i % 251 (as `transfer demo --size`).
    static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }
}
