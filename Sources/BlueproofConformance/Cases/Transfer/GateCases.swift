import BlueproofTransfer

/// CBT/GATE/BV-02: a peer heard exactly at the gate (-50 dBm in the sample) passes, and the
/// transfer arrives byte-exact (corebluetooth-transfer-sample.md, "Discover Bluetooth
/// Peripherals and Connect to Them"). The gate value comes from the profile.
struct GateAtThresholdCase: ConformanceCase {
    let id: CaseID = "CBT/GATE/BV-02"
    let gate: Int
    var needs: CaseNeeds { CaseNeeds(controllers: 2, radioScenario: TransferScenarios.fixed(rssi: gate)) }

    /// The scenario is built for the default profile's gate; a profile with another gate
    /// still runs the case, which then says what it heard.
    init(gate: Int = -50) { self.gate = gate }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let minimum = try context.profile.int("transfer.rssi_gate_dbm")
        let payload = TransferExchange.payload(3000)
        let profile = try TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let decisions = exchange.gateDecisions
        guard let first = decisions.first else { return .inconclusive("no advertiser was heard: \(exchange.centralText)") }
        guard first.rssi == gate else { return .inconclusive("heard at \(first.rssi.map(String.init) ?? "n/a") dBm, not at \(gate)") }
        guard first.passed else { return .fail("refused at \(gate) dBm with a gate of \(minimum) dBm: \(first.reason)") }
        guard case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("passed the gate but the transfer failed: \(exchange.centralText)")
        }
        return .pass("\(first.reason); \(payload.count) bytes arrived byte-exact")
    }
}

/// CBT/GATE/BI-01 and BI-02: a peer one below the gate, or with RSSI not available (127)
/// while the profile does not allow it, is refused: no LE Create Connection reaches the
/// central's controller (corebluetooth-transfer-sample.md, "Discover Bluetooth Peripherals
/// and Connect to Them").
struct GateRefusalCase: ConformanceCase {
    enum Heard: Sendable {
        /// One dBm below the profile's gate.
        case belowGate
        /// btvirt's "not available": the peripheral is outside the radio proxy.
        case notAvailable
    }

    let id: CaseID
    let heard: Heard
    let gate: Int

    init(_ heard: Heard, gate: Int = -50) {
        self.heard = heard
        self.gate = gate
        id = heard == .belowGate ? "CBT/GATE/BI-01" : "CBT/GATE/BI-02"
    }

    var needs: CaseNeeds {
        switch heard {
        case .belowGate: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.fixed(rssi: gate - 1))
        case .notAvailable: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, unproxiedNodes: [0])
        }
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        if heard == .notAvailable, try context.profile.bool("transfer.rssi_allow_unavailable") {
            return .notApplicable("the profile lets \"not available\" pass (transfer.rssi_allow_unavailable)")
        }
        let profile = try TransferExchange.transferProfile(context, scanTimeout: .seconds(3))
        let exchange = await TransferExchange.run(context, .send(TransferExchange.payload(500)), .receive(reply: .none),
                                                  profile: profile)
        let central = try CaptureEvidence(path: context.captures[1])
        let attempts = central.createConnectionFrames
        guard let first = exchange.gateDecisions.first else { return .inconclusive("no advertiser was heard: \(exchange.centralText)") }
        let expectedRSSI: Int? = heard == .belowGate ? gate - 1 : nil
        guard first.rssi == expectedRSSI else {
            return .inconclusive("heard at \(first.rssi.map { "\($0) dBm" } ?? "not available"), not as the scenario says")
        }
        if !attempts.isEmpty || exchange.centralConnected {
            return .fail("the central tried to connect although the gate said: \(first.reason)",
                         findings: [Finding("LE Create Connection sent", capture: central.path, frames: attempts)])
        }
        guard case .failure(.noPeripheralFound) = exchange.central else {
            return .fail("the central did not give up with no peripheral found: \(exchange.centralText)")
        }
        return .pass("\(exchange.gateDecisions.count) report(s) refused (\(first.reason)); no LE Create Connection in \(central.path)")
    }
}
