import BlueproofCapture
import BlueproofTransfer
import BlueproofWire

/// CBT/CLEAN/BI-03: when the characteristic's updates fail, the central cleans up: it turns
/// notifications off and disconnects (corebluetooth-transfer-sample.md, "When the Central
/// Receives the Data, Update the User Interface": an error in `didUpdateValueFor` calls
/// `cleanup()`). On the air the error a central is given is that updates stop: the radio proxy
/// withholds the peripheral's credits from 2 s after it connected, so the notifications stall mid-transfer and
/// the central's wait for the next one ends in error (after 1 s without data; our peripheral
/// waits 30 s, so the central is the one to act). A peer whose data is stalled answers no
/// request, so the central's unsubscription cannot complete: it must be begun on the air (the
/// CCCD write of 0x0000, or the Find Information that looks the CCCD up first), and then the
/// central must disconnect. Judged on the central's outcome and capture, and on our nodes'
/// connections.
struct StalledUpdatesCase: ConformanceCase {
    let id: CaseID = "CBT/CLEAN/BI-03"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.faulted([
        ("peripheral", "buffer-size: {length: 27, count: 4}"), ("peripheral", "withhold-credits: {from: 2s, for: 30s, since: connection}"),
    ]))

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(8_000_000)
        var profile = TransferExchange.transferProfile(context)
        profile.idleTimeout = .seconds(1)
        var patient = profile
        patient.idleTimeout = .seconds(30)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile,
                                                  peripheralProfile: patient)
        for fault in context.radio?.faultLog ?? [] { context.log.note("radio proxy: \(fault)") }
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        guard case let .failure(error) = exchange.central else {
            return .error("the updates never stalled: the central completed \(exchange.centralText)")
        }
        if let verdict = Self.judge(try CaptureEvidence(path: context.captures[1])) { return verdict }
        let open = await TransferExchange.openConnections(context)
        guard open.isEmpty else {
            return .fail("\(open.count) connection(s) still open after the central gave up: \(open.joined(separator: "; "))")
        }
        return .pass("the central failed (\(error)), began turning notifications off and disconnected; no connection left")
    }

    /// The central's capture must show, after the first notification, the unsubscription
    /// begun and then the central's own HCI Disconnect; nil when it does.
    static func judge(_ capture: CaptureEvidence) -> CaseOutcome? {
        let pdus = capture.attPDUs
        guard let first = pdus.first(where: { item in
            if item.direction == .received, case .handleValueNotification = item.pdu { true } else { false }
        }) else {
            return .fail("the central's capture holds no notification it received", findings: [Finding("the central's capture", capture: capture.path)])
        }
        let attempt = pdus.first { item in
            guard item.direction == .sent, item.frame > first.frame else { return false }
            switch item.pdu {
            case let .writeRequest(_, value): return value == [0, 0]
            case .findInformationRequest: return true
            default: return false
            }
        }
        guard let attempt else {
            return .fail("the central never turned notifications off after the updates failed (no CCCD write of 0x0000, nor its lookup)",
                         findings: [Finding("the first notification", capture: capture.path, frames: [first.frame])])
        }
        guard capture.disconnectFrames.contains(where: { $0 > attempt.frame }) else {
            return .fail("the central began turning notifications off but never disconnected (no HCI Disconnect from it)",
                         findings: [Finding("the unsubscription", capture: capture.path, frames: [attempt.frame])])
        }
        return nil
    }
}
