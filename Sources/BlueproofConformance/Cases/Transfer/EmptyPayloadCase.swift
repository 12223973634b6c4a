import BlueproofCapture
import BlueproofTransfer
import BlueproofWire

/// CBT/CHUNK/BV-03: an empty payload goes on the air as the end-of-message marker alone
/// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
/// Data": the data in chunks, then "EOM"; with no data there is no chunk). Judged on our
/// central's capture (the notifications it was given on the transfer characteristic: exactly
/// one, the marker) and on the message it completed: empty.
struct EmptyPayloadCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-03"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let marker = Array(try context.profile.string("transfer.eom_marker").utf8)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send([]), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed, so nothing could be sent: \(exchange.centralText)")
        }
        let capture = try CaptureEvidence(path: context.captures[1])
        let values = capture.attPDUs.compactMap { item -> (frame: Int, value: [UInt8])? in
            guard item.direction == .received, case let .handleValueNotification(_, value) = item.pdu else { return nil }
            return (item.frame, value)
        }
        let findings = [Finding("notifications our central received", capture: capture.path, frames: values.map(\.frame))]
        guard values.map(\.value) == [marker] else {
            let seen = values.map { $0.value == marker ? "EOM" : "\($0.value.count) bytes" }.joined(separator: ", ")
            return .fail("an empty payload went as \(values.count) notification(s) (\(seen)), not the marker alone", findings: findings)
        }
        guard case let .success(received) = exchange.central, received.payload == [] else {
            return .fail("the marker alone did not complete an empty message at the central: \(exchange.centralText)", findings: findings)
        }
        return .pass("one notification, \(String(decoding: marker, as: UTF8.self)), and an empty message at the central", findings: findings)
    }
}
