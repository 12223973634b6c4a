import BlueproofCapture
import BlueproofTransfer
import BlueproofWire

/// CBT/CHUNK/BV-08: the chunks travel as ATT Handle Value Notifications, and every ATT PDU on
/// the link decodes (corebluetooth-transfer-sample.md, "When the Peripheral Receives a
/// Connection, Send the Data": the peripheral sets the characteristic's value, which a
/// subscribed central is notified of; Core Vol 3, Part F §3.4.7.1). Judged on our central's
/// capture, decoded by the project's ATT decoder (the capture file decodes in Wireshark the
/// same way): one notification per chunk and the marker, no indication, no ATT PDU that does
/// not decode, and the message they carried arrived byte-exact.
struct NotificationPDUCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-08"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(3000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let capture = try CaptureEvidence(path: context.captures[1])
        guard let ready = exchange.centralReady else {
            // Our central subscribed (its CCCD write is on the air), but the link ended before it
            // heard the subscription confirmed: no value travelled as a notification.
            let subscribed = capture.attPDUs.filter {
                if $0.direction == .sent, case let .writeRequest(_, value) = $0.pdu { value == [0x01, 0x00] } else { false }
            }.map(\.frame)
            guard subscribed.isEmpty else {
                return .fail("our central subscribed to notifications and was given no Handle Value Notification before the link ended: \(exchange.centralText)",
                             findings: [Finding("our central's subscription", capture: capture.path, frames: subscribed)])
            }
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        let pdus = capture.attPDUs.filter { $0.direction == .received }
        let undecoded = capture.undecodedATTFrames
        guard undecoded.isEmpty else {
            return .fail("\(undecoded.count) ATT PDU(s) on the link do not decode",
                         findings: [Finding("ATT PDUs that do not decode", capture: capture.path, frames: undecoded)])
        }
        let indications = pdus.filter { if case .handleValueIndication = $0.pdu { true } else { false } }.map(\.frame)
        guard indications.isEmpty else {
            return .fail("the peripheral sent \(indications.count) value(s) as Handle Value Indications, not notifications",
                         findings: [Finding("indications", capture: capture.path, frames: Array(indications.prefix(20)))])
        }
        let notifications = pdus.filter { if case .handleValueNotification = $0.pdu { true } else { false } }.map(\.frame)
        let chunks = (payload.count + ready.chunkSize - 1) / ready.chunkSize + 1
        guard notifications.count >= chunks else {
            return .fail("our central was given \(notifications.count) Handle Value Notification(s), fewer than the \(chunks) "
                         + "values (chunks and EOM) of \(payload.count) bytes at ATT_MTU \(ready.mtu)",
                         findings: [Finding("notifications", capture: capture.path, frames: Array(notifications.prefix(20)))])
        }
        guard case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("the notifications did not carry the \(payload.count) bytes intact: \(exchange.centralText)")
        }
        return .pass("\(notifications.count) Handle Value Notifications carried \(payload.count) bytes; every ATT PDU decodes",
                     findings: [Finding("notifications", capture: capture.path, frames: [notifications[0], notifications[notifications.count - 1]])])
    }
}
