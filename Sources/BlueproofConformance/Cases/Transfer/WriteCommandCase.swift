import BlueproofCapture
import BlueproofTransfer
import BlueproofWire

/// CBT/ROLE/BV-02: once the message has ended the central writes its data back with an ATT
/// Write Command, without response, to the transfer characteristic's value
/// (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the User
/// Interface": on "EOM" it writes; "When the Peripheral Receives a Connection, Send the Data":
/// the characteristic offers write without response). Judged on the central's capture: a Write
/// Command from the central, after the notification carrying "EOM", to the handle that
/// notification came from, carrying the write-back; no Write Request to that handle.
struct WriteCommandCase: ConformanceCase {
    let id: CaseID = "CBT/ROLE/BV-02"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1, judgesAirDevice: true)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard try context.profile.bool("transfer.write_back") else {
            return .notApplicable("the profile says the central does not write back (transfer.write_back)")
        }
        let marker = Array(try context.profile.string("transfer.eom_marker").utf8)
        // Forty chunks: a central that writes back early (after the first) does so on the air
        // long before the peripheral's EOM, so the capture's order shows it every time.
        let payload = TransferExchange.payload(20_000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard let ready = exchange.centralReady else {
            return .error("the central never subscribed, so no message could end: \(exchange.centralText)")
        }
        // The document does not say what the central writes back: an implementation under test
        // may write anything but nothing; ours writes the message's first chunk (echo prefix).
        let expected = context.isDevice(1) ? nil : Array(payload.prefix(ready.chunkSize))
        // A central on the air is judged on our peripheral's capture: the same PDUs, the other way.
        if context.isAirDevice(1) {
            return Self.judge(try CaptureEvidence(path: context.captures[0]), marker: marker, writeBack: expected,
                              central: exchange.central, seenBy: .peripheral)
        }
        return Self.judge(try CaptureEvidence(path: context.captures[1]), marker: marker, writeBack: expected,
                          central: exchange.central)
    }

    /// The verdict on the central's capture, or on the peripheral's (`seenBy`): `writeBack` is
    /// what it was asked to write back (nil: any value but an empty one).
    static func judge(_ capture: CaptureEvidence, marker: [UInt8], writeBack: [UInt8]?,
                      central: Result<TransferSummary, TransferError>, seenBy side: TransferRole = .central) -> CaseOutcome {
        // The direction of the central's writes in this capture, and of the notifications.
        let written: CaptureDirection = side == .central ? .sent : .received
        let notified: CaptureDirection = side == .central ? .received : .sent
        let pdus = capture.attPDUs
        let end = pdus.first { item in
            guard item.direction == notified, case let .handleValueNotification(_, value) = item.pdu else { return false }
            return value == marker
        }
        let commands = pdus.filter { item in
            guard item.direction == written, case .writeCommand = item.pdu else { return false }
            return true
        }
        guard let end, case let .handleValueNotification(valueHandle, _) = end.pdu else {
            if case let .failure(error) = central {
                return .fail("the message never ended at the central (no \(String(decoding: marker, as: UTF8.self)) received): \(error)",
                             findings: [Finding("Write Commands the central sent", capture: capture.path, frames: commands.map(\.frame))])
            }
            return .fail("the central reports a complete message but its capture holds no \(String(decoding: marker, as: UTF8.self)) notification")
        }
        let early = commands.filter { $0.frame < end.frame }
        guard early.isEmpty else {
            return .fail("the central sent \(early.count) Write Command(s) before the message ended",
                         findings: [Finding("Write Commands before the EOM notification (frame \(end.frame))", capture: capture.path,
                                            frames: early.map(\.frame))])
        }
        let requests = pdus.filter { item in
            guard item.direction == written, case let .writeRequest(handle, _) = item.pdu else { return false }
            return handle == valueHandle
        }
        guard requests.isEmpty else {
            return .fail("the central wrote the characteristic's value with a Write Request, which asks for a response",
                         findings: [Finding("Write Requests to 0x\(hex(valueHandle))", capture: capture.path, frames: requests.map(\.frame))])
        }
        let after = commands.filter { $0.frame > end.frame }
        let toValue = after.filter { if case let .writeCommand(handle, _) = $0.pdu { handle == valueHandle } else { false } }
        guard let write = toValue.first, case let .writeCommand(_, value) = write.pdu else {
            let elsewhere = after.compactMap { item -> String? in
                if case let .writeCommand(handle, _) = item.pdu { "0x\(hex(handle))" } else { nil }
            }
            return .fail("no Write Command to the characteristic's value (0x\(hex(valueHandle))) after EOM"
                         + (elsewhere.isEmpty ? "" : "; Write Commands went to \(elsewhere.joined(separator: ", "))"),
                         findings: [Finding("the EOM notification, then the central's Write Commands", capture: capture.path,
                                            frames: [end.frame] + after.map(\.frame))])
        }
        guard writeBack.map({ value == $0 }) ?? !value.isEmpty else {
            return .fail("the Write Command after EOM carries \(value.count) bytes, not "
                         + (writeBack.map { "the \($0.count)-byte write-back" } ?? "data"),
                         findings: [Finding("Write Command", capture: capture.path, frames: [write.frame])])
        }
        return .pass("the \(value.count)-byte write-back went as an ATT Write Command to 0x\(hex(valueHandle)) after EOM",
                     findings: [Finding("EOM, then the Write Command", capture: capture.path, frames: [end.frame, write.frame])])
    }
}
