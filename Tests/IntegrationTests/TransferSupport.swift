import BlueproofAsync
import BlueproofHost
import BlueproofTransfer
import Synchronization

/// Both roles' outcomes and every event each reported, in order.
struct TransferRun: Sendable {
    var peripheral: Result<TransferSummary, TransferError>
    var central: Result<TransferSummary, TransferError>
    var peripheralEvents: [TransferEvent]
    var centralEvents: [TransferEvent]

    var peripheralConnection: LEConnection? {
        peripheralEvents.lazy.compactMap { if case let .connected(connection) = $0 { connection } else { nil } }.first
    }

    /// The chunk size both sides announced when subscribed.
    var chunkSizes: [Int] {
        (peripheralEvents + centralEvents).compactMap { if case let .ready(_, size) = $0 { size } else { nil } }
    }
}

/// A profile for virtual controllers: every RSSI passes (the gate itself has its own tests).
func openGateProfile(mtu: Int = 517, payloadLimit: Int = TransferReassembler.defaultLimit) -> TransferProfile {
    TransferProfile(gate: RSSIGate(minimum: -127, allowUnavailable: true), scanTimeout: .seconds(15),
                    acceptTimeout: .seconds(30), mtu: mtu, payloadLimit: payloadLimit)
}

/// Runs a peripheral on `peripheralHost` and a central on `centralHost` at once. `observe` sees
/// every central event as it comes (to act mid-transfer).
func runTransfer(
    peripheral peripheralHost: LEHost, _ peripheralMode: TransferPeripheral.Mode,
    central centralHost: LEHost, _ centralMode: TransferCentral.Mode,
    profile: TransferProfile = openGateProfile(),
    observe: @escaping @Sendable (TransferEvent, [TransferEvent]) async -> Void = { _, _ in }
) async -> TransferRun {
    let peripheralEvents = EventLog<TransferEvent>()
    let advertising = OneShot<Bool>()
    let peripheral = TransferPeripheral(host: peripheralHost, profile: profile).run(peripheralMode)
    async let peripheralOutcome = collect(peripheral) { event in
        peripheralEvents.record(event)
        if case .advertising = event { advertising.resolve(true) }
        if event.outcome != nil { advertising.resolve(false) }
    }
    // btvirt reports an advertiser only when scanning or advertising is enabled (docs/design.md):
    // the central starts once the peripheral advertises, as a user would start it.
    _ = await advertising.wait()
    let central = TransferCentral(host: centralHost, profile: profile).run(centralMode)
    async let centralOutcome = collectAsync(central) { event, _ in
        await observe(event, peripheralEvents.events)
    }
    let (p, c) = await (peripheralOutcome, centralOutcome)
    return TransferRun(peripheral: p.0, central: c.0, peripheralEvents: p.1, centralEvents: c.1)
}

private func collect(_ stream: AsyncStream<TransferEvent>, _ each: @Sendable (TransferEvent) -> Void) async
    -> (Result<TransferSummary, TransferError>, [TransferEvent]) {
    var events: [TransferEvent] = []
    for await event in stream {
        events.append(event)
        each(event)
        if let outcome = event.outcome { return (outcome, events) }
    }
    return (.failure(.gatt("no outcome")), events)
}

private func collectAsync(_ stream: AsyncStream<TransferEvent>, _ each: @Sendable (TransferEvent, [TransferEvent]) async -> Void) async
    -> (Result<TransferSummary, TransferError>, [TransferEvent]) {
    var events: [TransferEvent] = []
    for await event in stream {
        events.append(event)
        await each(event, events)
        if let outcome = event.outcome { return (outcome, events) }
    }
    return (.failure(.gatt("no outcome")), events)
}

