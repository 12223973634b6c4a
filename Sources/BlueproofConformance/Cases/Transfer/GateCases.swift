import BlueproofTransfer

/// CBT/GATE/BV-02: a peer heard exactly at the profile's gate (-50 dBm in the sample) is
/// connected and the transfer arrives byte-exact (corebluetooth-transfer-sample.md, "Discover
/// Bluetooth Peripherals and Connect to Them"). The radio proxy reports the profile's gate;
/// the central runs with its own built-in gate, so a central whose gate is not the profile's
/// fails here or in CBT/GATE/BI-01.
///
/// CBT/GATE/BV-01 is the same with the peer heard 10 dB above the gate (same section: a
/// reading over the gate passes), CBT/GATE/BV-03 with RSSI not available (127) under a
/// profile that lets it pass (`transfer.rssi_allow_unavailable`; not-applicable otherwise).
struct GateAtThresholdCase: ConformanceCase {
    let id: CaseID
    let gate: Int
    /// What the proxy reports: the gate, above it, or nil: not available.
    let heard: Int?
    var needs: CaseNeeds {
        CaseNeeds(controllers: 2, radioScenario: heard.map { TransferScenarios.fixed(rssi: $0) } ?? TransferScenarios.unmeasured, dutNode: 1)
    }

    /// `gate` is the profile's (the registry is built for a profile).
    init(gate: Int = -50) {
        self.gate = gate
        heard = gate
        id = "CBT/GATE/BV-02"
    }

    /// CBT/GATE/BV-01: heard `above` dB over the gate.
    init(gate: Int = -50, above: Int) {
        self.gate = gate
        heard = gate + above
        id = "CBT/GATE/BV-01"
    }

    /// CBT/GATE/BV-03: heard with RSSI not available.
    init(unavailableWithGate gate: Int) {
        self.gate = gate
        heard = nil
        id = "CBT/GATE/BV-03"
    }

    /// "-50 dBm, the profile's gate", "-40 dBm, above the profile's -50 dBm gate" or "RSSI not available".
    private var what: String {
        guard let heard else { return "RSSI not available, which the profile allows" }
        return "\(heard) dBm, " + (heard == gate ? "the profile's gate" : "above the profile's \(gate) dBm gate")
    }

    /// The RSSI heard, for reasons.
    private var level: String { heard.map { "\($0) dBm" } ?? "RSSI not available" }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        if heard == nil, try !context.profile.bool("transfer.rssi_allow_unavailable") {
            return .notApplicable("the profile refuses \"not available\" (transfer.rssi_allow_unavailable); CBT/GATE/BI-02 judges that")
        }
        let payload = TransferExchange.payload(3000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let central = try CaptureEvidence(path: context.captures[1])
        let attempts = central.createConnectionFrames
        let why: String
        if context.isDevice(1) {
            // A central under test is judged on its capture: what it was told, what it asked.
            if let unheard = GateRefusalCase.unheard(central, expected: heard) { return unheard }
            guard !attempts.isEmpty else {
                return .fail("a peer heard at \(what), was never connected",
                             findings: [Finding("the central's capture: no LE Create Connection", capture: central.path)])
            }
            why = "the implementation under test"
        } else {
            guard let first = exchange.gateDecisions.first else {
                return .error("the central heard no advertiser, so nothing reached its gate: \(exchange.centralText)")
            }
            guard first.rssi == heard else {
                return .error("the proxy was to report \(level); the central heard \(first.rssi.map { "\($0) dBm" } ?? "not available")")
            }
            guard !attempts.isEmpty, exchange.centralConnected else {
                return .fail("a peer heard at \(what), was never connected (the central: \(first.reason))",
                             findings: [Finding("the central's capture: no LE Create Connection", capture: central.path)])
            }
            why = first.reason
        }
        context.log.note("gate: \(why)")
        guard case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("connected at \(level) but the \(payload.count) bytes sent did not arrive intact: \(exchange.centralText)")
        }
        return .pass("connected at \(level) (LE Create Connection in frame \(attempts[0])); \(payload.count) bytes arrived byte-exact",
                     findings: [Finding("LE Create Connection", capture: central.path, frames: attempts)])
    }
}

/// CBT/GATE/BI-01, BI-02 and BI-03: a peer one below the profile's gate, with RSSI not available
/// (127) while the profile does not allow it, or above the 0 dBm a reading can reach, is
/// refused: no LE Create Connection reaches the central's controller
/// (corebluetooth-transfer-sample.md, "Discover Bluetooth Peripherals and Connect to Them":
/// at least -50 dBm; RSSI is negative, 0 at most). The central runs with its own built-in gate.
struct GateRefusalCase: ConformanceCase {
    enum Heard: Sendable {
        /// One dBm below the profile's gate.
        case belowGate
        /// "Not available" (127): the radio proxy reports no measurement, on any backend.
        case notAvailable
        /// One dBm above the profile's `transfer.rssi_max_dbm`.
        case aboveMaximum
    }

    let id: CaseID
    let heard: Heard
    let gate: Int
    let maximum: Int

    init(_ heard: Heard, gate: Int = -50, maximum: Int = 0) {
        self.heard = heard
        self.gate = gate
        self.maximum = maximum
        id = switch heard {
        case .belowGate: "CBT/GATE/BI-01"
        case .notAvailable: "CBT/GATE/BI-02"
        case .aboveMaximum: "CBT/GATE/BI-03"
        }
    }

    /// The RSSI the proxy reports, nil for "not available".
    var reported: Int? {
        switch heard {
        case .belowGate: gate - 1
        case .notAvailable: nil
        case .aboveMaximum: maximum + 1
        }
    }

    var needs: CaseNeeds {
        switch heard {
        case .belowGate, .aboveMaximum: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.fixed(rssi: reported ?? gate), dutNode: 1,
                                                  quietWindow: Self.scanWindow)
        case .notAvailable: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.unmeasured, dutNode: 1, quietWindow: Self.scanWindow)
        }
    }

    /// How long our central scans a peer it must refuse.
    static let scanWindow: Duration = .seconds(3)

    /// How long our peripheral advertises to a central under test that must not connect.
    static let deviceWindow: Duration = .seconds(6)

    /// An error when the central's capture shows no advertising report at `expected` dBm
    /// (nil: not available): the proxy did not put the case's stimulus in front of it.
    static func unheard(_ capture: CaptureEvidence, expected: Int?) -> CaseOutcome? {
        let heard = capture.advertisingRSSIs
        guard !heard.contains(where: { $0.rssi == expected }) else { return nil }
        let what = expected.map { "\($0) dBm" } ?? "not available"
        let seen = Set(heard.map { $0.rssi.map(String.init) ?? "n/a" }).sorted().joined(separator: ", ")
        return .error("the central was to hear the peripheral at \(what); its capture holds "
                      + (heard.isEmpty ? "no advertising report (did it scan?)" : "reports at \(seen) only"))
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        if heard == .notAvailable, try context.profile.bool("transfer.rssi_allow_unavailable") {
            return .notApplicable("the profile lets \"not available\" pass (transfer.rssi_allow_unavailable)")
        }
        var profile = TransferExchange.transferProfile(context, scanTimeout: Self.scanWindow)
        // A central under test is given this long, once it scans, to connect when it must not.
        if context.isDevice(1) { profile.acceptTimeout = Self.deviceWindow }
        let exchange = await TransferExchange.run(context, .send(TransferExchange.payload(500)), .receive(reply: .none),
                                                  profile: profile)
        let central = try CaptureEvidence(path: context.captures[1])
        let attempts = central.createConnectionFrames
        let heardAs = reported.map { "\($0) dBm" } ?? "not available"
        if context.isDevice(1) {
            if let unheard = Self.unheard(central, expected: reported) { return unheard }
            let connected = exchange.peripheralEvents.contains { if case .connected = $0 { true } else { false } }
            if !attempts.isEmpty || connected {
                return .fail("the central tried to connect to a peer heard at \(heardAs)",
                             findings: [Finding("LE Create Connection sent", capture: central.path, frames: attempts)])
            }
            let reports = central.advertisingRSSIs.filter { $0.rssi == reported }.count
            return .pass("\(reports) report(s) at \(heardAs) in \(Self.deviceWindow) and no LE Create Connection in \(central.path)")
        }
        guard let first = exchange.gateDecisions.first else {
            return .error("the central heard no advertiser, so nothing reached its gate: \(exchange.centralText)")
        }
        guard first.rssi == reported else {
            return .error("the proxy was to report \(heardAs); the central heard \(first.rssi.map { "\($0) dBm" } ?? "not available")")
        }
        if !attempts.isEmpty || exchange.centralConnected {
            return .fail("the central tried to connect to a peer heard at \(heardAs) (its gate said: \(first.reason))",
                         findings: [Finding("LE Create Connection sent", capture: central.path, frames: attempts)])
        }
        guard case .failure(.noPeripheralFound) = exchange.central else {
            return .fail("the central did not give up with no peripheral found: \(exchange.centralText)")
        }
        return .pass("\(exchange.gateDecisions.count) report(s) at \(heardAs) refused (\(first.reason)); no LE Create Connection in \(central.path)")
    }
}
