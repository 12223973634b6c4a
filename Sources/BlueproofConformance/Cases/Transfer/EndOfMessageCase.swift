import BlueproofTransfer

/// CBT/CHUNK/BV-02: the last chunk is followed by the end-of-message marker
/// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
/// Data"): the central completes the message only on it, and the sender's capture shows it.
/// The payload holds the marker's bytes at the end of every chunk of the usual sizes and in
/// the middle of others, so a receiver ending on a value that merely ends in (or contains) the
/// marker gets a short message and fails.
struct EndOfMessageCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-02"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0, judgesAirDevice: true)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let marker = try context.profile.string("transfer.eom_marker")
        // A device on the air sends what it was given (--dut-payload), judged by our central alone.
        let air = context.isAirDevice(0)
        let payload = context.airDevice?.payload ?? Self.payload(2000, marker: Array(marker.utf8))
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let sender = air ? CaptureEvidence(path: context.captures[1], records: []) : try CaptureEvidence(path: context.captures[0])
        let check = air ? nil : sender.check("CBT/CHUNK/BV-02")
        if check?.verdict == .fail, let check {
            return .fail("a chunked stream does not end with \(marker)", findings: [Finding(check, capture: sender.path)])
        }
        switch exchange.central {
        case let .success(received) where received.payload == payload && (air || check?.verdict == .pass):
            return .pass("the message ended on \(marker) and arrived byte-exact (\(payload.count) bytes)",
                         findings: check.map { [Finding($0, capture: sender.path)] } ?? [])
        case let .success(received):
            let got = received.payload ?? []
            let how = got.count < payload.count && got == Array(payload.prefix(got.count)) ? "cut short" : "altered"
            return .fail("the central completed a \(received.bytes)-byte message of the \(payload.count) sent, \(how); "
                         + "\(check?.reason ?? "no capture check")")
        case let .failure(error):
            let notifications = sender.notificationFrames
            guard exchange.centralReady != nil else { return .error("the central never subscribed: \(error)") }
            guard !notifications.isEmpty else { return .fail("the peripheral sent nothing once the central subscribed: \(error)") }
            return .fail("the central never saw \(marker) after \(notifications.count) notification(s): \(error)",
                         findings: [Finding("last notifications sent, none of them \(marker)", capture: sender.path,
                                            frames: Array(notifications.suffix(5)))])
        }
    }

    /// `count` bytes (byte i = i % 251) with the marker written to end at every multiple of
    /// the chunk sizes of ATT_MTU 23, 185, 247 and 517 (20, 182, 244, 512 bytes), and once
    /// mid-chunk.
    static func payload(_ count: Int, marker: [UInt8]) -> [UInt8] {
        var bytes = TransferExchange.payload(count)
        var ends: [Int] = [100]
        for chunk in [20, 182, 244, 512] { ends += stride(from: chunk, to: count, by: chunk) }
        for end in ends where end >= marker.count { bytes.replaceSubrange((end - marker.count)..<end, with: marker) }
        return bytes
    }
}
