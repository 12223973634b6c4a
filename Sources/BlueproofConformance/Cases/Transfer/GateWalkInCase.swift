import BlueproofTransfer

/// CBT/GATE/BV-04: a peripheral walking towards the central is refused while it is heard
/// below the gate and connected once a report passes it (corebluetooth-transfer-sample.md,
/// "Discover Bluetooth Peripherals and Connect to Them": the central re-judges each report,
/// since it scans with duplicates, and connects at -50 dBm or more). The radio proxy walks
/// the peripheral from `gate - 10` dBm (held 3 s, so a central that starts scanning late
/// still hears it below the gate) up through the gate in 4 s. Judged on what the central
/// heard, in order, and when it connected: for a central under test from its capture (taken
/// above the proxy: the reports it was given, its LE Create Connection), for ours from its
/// gate decisions and connection.
///
/// CBT/GATE/BV-05 judges the same way a peer swinging between one below the gate and the gate
/// itself (as Conformance/scenarios/gate-boundary.yaml, starting below): the central must
/// refuse the weak reports and connect on one at the gate.
struct GateWalkInCase: ConformanceCase {
    let id: CaseID
    let gate: Int
    /// Whether the peer swings about the gate (BV-05) rather than walks in (BV-04).
    let swings: Bool
    var needs: CaseNeeds {
        // Idle while the proxy walks the peer in (the verdict is on the order of reports and
        // connection, not on their times): a quiet window for `run --jobs N`.
        CaseNeeds(controllers: 2, radioScenario: swings ? Self.swing(gate: gate) : Self.scenario(gate: gate), dutNode: 1,
                  quietWindow: .seconds(3))
    }
    /// A central must connect on a report at most this far above the gate (the walk passes
    /// about one dBm per 100 ms report there).
    static let reactionDB = 2

    init(gate: Int = -50, swings: Bool = false) {
        self.gate = gate
        self.swings = swings
        id = swings ? "CBT/GATE/BV-05" : "CBT/GATE/BV-04"
    }

    /// One below the gate for 5 s (a central that starts scanning late still hears it there),
    /// at it for 1.5 s, below again for 1.5 s, then at it.
    static func swing(gate: Int) -> String {
        """
        seed: 2
        advertising-interval: 100ms
        sensitivity: \(gate - 40)
        nodes:
          - name: peripheral
          - name: central
        links:
          - between: [peripheral, central]
            schedule:
              - {at: 0s, rssi: \(gate - 1)}
              - {at: 5s, rssi: \(gate)}
              - {at: 6500ms, rssi: \(gate - 1)}
              - {at: 8s, rssi: \(gate)}
        """
    }

    /// Path loss with the gate 10 dB below the one-metre power: heard at `gate - 10` at 10 m
    /// for 3 s, at the gate 3.16 m away (5.74 s in), always in range.
    static func scenario(gate: Int) -> String {
        """
        seed: 2
        advertising-interval: 100ms
        sensitivity: \(gate - 30)
        nodes:
          - name: peripheral
            path:
              - {at: 0s, position: [10, 0]}
              - {at: 3s, position: [10, 0]}
              - {at: 7s, position: [0, 0]}
          - name: central
        rssi:
          path-loss: {tx-power: \(gate + 10), exponent: 2}
        """
    }

    /// What the central heard and did, in order.
    enum Heard: Hashable, Sendable {
        case report(rssi: Int?)
        case connect
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(2000)
        let profile = TransferExchange.transferProfile(context, scanTimeout: .seconds(15))
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let central = try CaptureEvidence(path: context.captures[1])
        let heard: [Heard]
        if context.isDevice(1) {
            let reports = central.advertisingRSSIs.map { (frame: $0.frame, heard: Heard.report(rssi: $0.rssi)) }
            let connects = central.createConnectionFrames.map { (frame: $0, heard: Heard.connect) }
            heard = (reports + connects).sorted { $0.frame < $1.frame }.map(\.heard)
        } else {
            heard = exchange.centralEvents.compactMap { event in
                switch event {
                case let .gate(_, decision): .report(rssi: decision.rssi)
                case .connected: .connect
                default: nil
                }
            }
        }
        let delivered = (try? exchange.central.get())?.payload == payload
        return Self.judge(heard, gate: gate, delivered: delivered, centralText: exchange.centralText,
                          findings: [Finding("the central's reports and commands", capture: central.path)])
    }

    /// The verdict on what the central heard and did; `delivered` says whether the payload
    /// arrived intact.
    static func judge(_ heard: [Heard], gate: Int, delivered: Bool, centralText: String, findings: [Finding]) -> CaseOutcome {
        let passes = { (rssi: Int?) in rssi.map { $0 >= gate && $0 <= 0 } ?? false }
        let describe = { (rssi: Int?) in rssi.map { "\($0) dBm" } ?? "not available" }
        var weak = 0
        var last: Int??
        for item in heard {
            switch item {
            case let .report(rssi):
                if !passes(rssi) { weak += 1 }
                last = .some(rssi)
            case .connect:
                guard let heardLast = last else {
                    return .fail("the central connected before it was told of any report", findings: findings)
                }
                guard passes(heardLast) else {
                    return .fail("the central connected right after a report at \(describe(heardLast)), below the \(gate) dBm gate",
                                 findings: findings)
                }
                guard weak > 0 else {
                    return .error("the central heard no report below \(gate) dBm before it connected: nothing was refused")
                }
                guard let rssi = heardLast, rssi <= gate + reactionDB else {
                    return .fail("the central let reports at \(gate) dBm pass and connected only at \(describe(heardLast))",
                                 findings: findings)
                }
                guard delivered else {
                    return .fail("connected once the gate passed, but the payload did not arrive intact: \(centralText)")
                }
                return .pass("\(weak) report(s) below \(gate) dBm refused; connected on a report at \(rssi) dBm; the payload arrived byte-exact",
                             findings: findings)
            }
        }
        guard heard.contains(where: { if case let .report(rssi) = $0 { passes(rssi) } else { false } }) else {
            return .error("the central was never told of a report at \(gate) dBm or more (\(heard.count) reports): the walk did not reach it")
        }
        return .fail("the peer was heard at \(gate) dBm or more and the central never connected: \(centralText)", findings: findings)
    }
}
