import BlueproofCapture
import BlueproofAsync
import BlueproofHost
import BlueproofTransfer
import BlueproofWire

/// CBT/CLEAN/BV-01: after a complete transfer the central unsubscribes and disconnects, so
/// neither node holds a connection (corebluetooth-transfer-sample.md, "When the Central
/// Receives the Data, Update the User Interface": `cleanup()` turns notifications off and
/// cancels the connection). Judged on the central's capture (node 1: a CCCD write of 0x0000
/// after the last notification, then its own HCI Disconnect; for an implementation under test
/// this happened before the runner ended it) and on our nodes' connections once it is done.
struct CleanupCase: ConformanceCase {
    let id: CaseID = "CBT/CLEAN/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1, judgesAirDevice: true)
    static let grace = TransferExchange.disconnectionGrace

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(1000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed; no transfer to clean up after: \(exchange.centralText)")
        }
        if context.isAirDevice(1) {
            // A central on the air: our peripheral must have sent it everything, and then see it
            // turn notifications off and leave.
            // (Its capture is read once it has left, below.)
            guard case .success = exchange.peripheral else {
                return .fail("the transfer to the device did not complete: \(exchange.peripheralText)")
            }
        } else {
            guard case let .success(received) = exchange.central, received.payload == payload else {
                return .fail("\(payload.count) bytes were sent and did not arrive intact: \(exchange.centralText)")
            }
            if let verdict = Self.judgeCentral(try CaptureEvidence(path: context.captures[1])) {
                return verdict
            }
        }
        let open = await TransferExchange.openConnections(context, grace: Self.grace)
        guard open.isEmpty else {
            return .fail("\(open.count) connection(s) still open \(Self.grace) after the transfer: \(open.joined(separator: "; "))",
                         findings: [Finding("the central's commands, or the Disconnect missing among them", capture: context.captures[1])])
        }
        if context.isAirDevice(1), let verdict = Self.judgeUnsubscribe(seenBy: try CaptureEvidence(path: context.captures[0])) {
            return verdict
        }
        return .pass("no connection left on either node")
    }

    /// The peripheral's capture must show the central's CCCD write of 0x0000 after the last
    /// notification; nil when it does.
    static func judgeUnsubscribe(seenBy capture: CaptureEvidence) -> CaseOutcome? {
        guard unsubscription(in: capture, seenBy: .peripheral).off == nil else { return nil }
        return .fail("the central never turned notifications off (no CCCD write of 0x0000 reached our peripheral after the last notification)",
                     findings: [Finding("our peripheral's capture", capture: capture.path)])
    }

    /// The central's capture must show it turn notifications off after the last one and then
    /// disconnect by itself; nil when it did.
    /// `gaveUp`: the central gave up mid-transfer, so its write may follow the first
    /// notification (others still arrive after it), and the peripheral, told the central has
    /// gone, may end the link before the central's own HCI Disconnect (the link's end then
    /// shows as a Disconnection Complete after the write).
    static func judgeCentral(_ capture: CaptureEvidence, gaveUp: Bool = false) -> CaseOutcome? {
        let (last, off) = unsubscription(in: capture, seenBy: .central, afterFirst: gaveUp)
        guard let last else {
            return .fail("the central's capture holds no notification it received", findings: [Finding("the central's capture", capture: capture.path)])
        }
        guard let off else {
            return .fail("the central never turned notifications off (no CCCD write of 0x0000 after the last notification)",
                         findings: [Finding("the last notification", capture: capture.path, frames: [last])])
        }
        let ends = capture.disconnectFrames + (gaveUp ? capture.disconnectionCompleteFrames : [])
        guard ends.contains(where: { $0 > off }) else {
            return .fail("the central turned notifications off but never disconnected (no HCI Disconnect from it)",
                         findings: [Finding("the CCCD write", capture: capture.path, frames: [off])])
        }
        return nil
    }

    /// The frame of the last notification (the first, with `afterFirst`) and of the central's
    /// first CCCD write of 0x0000 after it, in the capture of the `side` that took it (the
    /// central sends the write, the peripheral receives it).
    static func unsubscription(in capture: CaptureEvidence, seenBy side: TransferRole,
                               afterFirst: Bool = false) -> (last: Int?, off: Int?) {
        let written: CaptureDirection = side == .central ? .sent : .received
        let pdus = capture.attPDUs
        let notified = { (item: CapturedATTPDU) -> Bool in
            if item.direction != written, case .handleValueNotification = item.pdu { true } else { false }
        }
        let last = (afterFirst ? pdus.first(where: notified) : pdus.last(where: notified))?.frame
        let off = pdus.first { item in
            guard item.direction == written, item.frame > (last ?? 0) else { return false }
            if case let .writeRequest(_, value) = item.pdu { return value == [0, 0] }
            return false
        }?.frame
        return (last, off)
    }
}
